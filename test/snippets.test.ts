/**
 * The editor snippets of new definitions (snippets/<language>.json) are generated from each
 * dialect module's skeleton, are fresh, are what package.json contributes, and insert, with
 * their placeholders at their defaults, a definition its runtime loads cleanly at every default
 * glob they are offered for.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { analyze, defaultLoadedConfig, definitionSnippets, resolveAnalysis, snippetFileText } from '../shared';
import { expandSnippet, pathOfGlob } from './support/snippets';

const ROOT = path.resolve(__dirname, '../..');
const WS = '/ws';
const REGENERATE = 'stale: run `npm run gen:snippets`';

describe('definition snippets', () => {
  const files = definitionSnippets();

  it('there is one for each dialect with Markdown or YAML definitions', () => {
    const names = files.flatMap((f) => Object.keys(f.snippets));
    for (const label of ['Polytoken subagent', 'Picasso role']) assert.ok(names.includes(`New ${label}`), label);
  });

  it('each is offered in the language of the files its globs match: Markdown or YAML, never JSON', () => {
    assert.deepStrictEqual(
      files.map((f) => [f.language, Object.entries(f.snippets).map(([name, x]) => [name, x.include])]),
      [
        [
          'subagents-markdown',
          [
            ['New Polytoken subagent', ['**/.polytoken/subagents/*.md']],
            ['New Picasso role', ['**/.picasso/agents/*.md']],
          ],
        ],
        ['subagents-yaml', [['New Picasso role', ['**/apps/cli/agents/*.yaml', '**/apps/cli/agents/*.yml']]]],
      ],
    );
  });

  it('snippets/ holds exactly the generated files, up to date', () => {
    const written = fs.readdirSync(path.join(ROOT, 'snippets')).sort();
    assert.deepStrictEqual(written, files.map((f) => `${f.language}.json`).sort(), REGENERATE);
    for (const file of files)
      assert.strictEqual(
        fs.readFileSync(path.join(ROOT, 'snippets', `${file.language}.json`), 'utf8'),
        snippetFileText(file),
        REGENERATE,
      );
  });

  it('package.json contributes each file for its language', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.deepStrictEqual(
      pkg.contributes.snippets,
      files.map((f) => ({ language: f.language, path: `./snippets/${f.language}.json` })),
    );
    const languages = (pkg.contributes.languages as { id: string }[]).map((l) => l.id);
    for (const file of files) assert.ok(languages.includes(file.language), file.language);
  });

  for (const file of files)
    for (const [name, snippet] of Object.entries(file.snippets))
      for (const glob of snippet.include)
        it(`${file.language}: "${name}" at ${glob} loads, without errors or warnings`, () => {
          const filePath = pathOfGlob(WS, glob, 'code_review');
          const text = expandSnippet(snippet, filePath);
          assert.ok(!/\$\{|\$\d/.test(text), `placeholders filled in: ${text}`);
          assert.match(text, /code_review/, 'named after the file');
          const analysis = analyze({ text, path: filePath, config: defaultLoadedConfig(WS), root: WS });
          assert.ok(analysis.kind, `${filePath} is a definition`);
          const serious = analysis.diagnostics.filter((d) => (d.severity ?? 1) <= DiagnosticSeverity.Warning);
          assert.deepStrictEqual(serious, []);
          const definitions = resolveAnalysis(analysis, filePath)!.definitions;
          assert.ok(definitions.length > 0);
          for (const d of definitions) assert.strictEqual(d.status, 'loads', d.name);
        });
});
