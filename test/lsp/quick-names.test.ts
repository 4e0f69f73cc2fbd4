import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { DIALECT_MODULES } from '../../shared/dialects';
import { kindOf } from '../../shared/recognition';
import { defaultLoadedConfig } from '../../shared/config/config';
import { SourceText } from '../../shared/text/source';
import { walkFiles } from '../../shared/node/walk';
import { definitionNames, namesFromText, quickName } from '../../shared/workspace/names';
import type { Dialect } from '../../shared/types';
import { REPO } from './harness';

/** The start-up index reads names without a YAML parse when it can: it must agree with the parse. */
describe('index: quick name reading agrees with the parser', () => {
  /** `quick`: a plain name the quick reader must answer; `either`: it may leave the file to the parser. */
  const cases: [Dialect, string, string, 'quick' | 'either'][] = [
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: a\ndescription: d\n---\nbody\n', 'quick'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: "quoted"\n---\n', 'quick'],
    ['polytoken', '/w/.polytoken/subagents/a.md', "---\nname: 'single'   \n---\n", 'quick'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: 123\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: true\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: a#b\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: x # comment\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname:\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: a\nname: b\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', 'no frontmatter\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\r\nname: crlf\r\n---\r\n', 'quick'],
    ['picasso', '/w/apps/cli/agents/r.yaml', 'model: m\nname: role_x\n', 'quick'],
    ['picasso', '/w/.picasso/agents/r.md', '---\nname: fm_role\n---\n', 'quick'],
    ['picasso', '/w/.picasso/agents/r.md', 'name: plain_md\ntools: []\n', 'either'],
  ];
  for (const [kind, file, text, reader] of cases) {
    it(`${kind} ${JSON.stringify(text.slice(0, 30))}`, () => {
      const quick = quickName(kind, text, file);
      if (reader === 'quick') assert.ok(quick, 'a plain name is read without a parse');
      if (!quick) return; // the caller parses: nothing to compare
      const full = definitionNames(kind, DIALECT_MODULES[kind].parse(new SourceText(text), file), file);
      assert.deepStrictEqual(namesFromText(kind, text, file), full);
    });
  }

  it('takes the quick path for plain names (so it is used at all)', () => {
    assert.ok(quickName('polytoken', '---\nname: a\n---\n', '/w/.polytoken/subagents/a.md'));
    assert.strictEqual(quickName('polytoken', '---\nname: 123\n---\n', '/w/.polytoken/subagents/a.md'), undefined);
  });

  it('agrees on every file of a generated benchmark workspace', async () => {
    const gen = (await import(pathToFileURL(path.join(REPO, 'bench', 'generate.mjs')).href)) as {
      generateWorkspace(root: string, total: number): unknown;
    };
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-quick-')));
    gen.generateWorkspace(ws, 300);
    const config = defaultLoadedConfig(ws);
    let compared = 0;
    for (const file of walkFiles(ws)) {
      const kind = kindOf({ path: file, config, root: ws });
      if (!kind || kind === 'config' || kind === 'profy') continue;
      const text = fs.readFileSync(file, 'utf8');
      if (!quickName(kind, text, file)) continue;
      const quick = namesFromText(kind, text, file);
      compared++;
      assert.deepStrictEqual(
        quick,
        definitionNames(kind, DIALECT_MODULES[kind].parse(new SourceText(text), file), file),
        file,
      );
    }
    fs.rmSync(ws, { recursive: true, force: true });
    assert.ok(compared > 50, `${compared} compared`);
  });
});
