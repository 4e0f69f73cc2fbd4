/**
 * The quick fix of a definition file with no definition in it yet (empty, comments only, or
 * Markdown without frontmatter): the module's skeleton, named after the file, a Markdown body
 * kept below it. Applied, the file loads without an error or a warning. It is offered, never
 * preferred: the machinery's property (fixes/property.ts) would refuse it anyway, since the
 * definition that loads is granted tools the rejected file was not, so Fix all and `--fix`
 * leave the file as it is.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import {
  analyze,
  applyFixes,
  defaultLoadedConfig,
  fixAll,
  offeredFixes,
  resolveAnalysis,
  skeletonText,
} from '../shared';
import { baselineOf, worsening } from '../shared/fixes/property';
import { stripMarkers } from './support/fixtures';
import { Temps } from './support/cli';

const ROOT = path.resolve(__dirname, '../..');
const WS = '/ws';
const RULES = path.join(ROOT, 'test/fixtures/rules');

/** Invalid fixtures that hold no definition yet, with the rule that says so and the name the fix writes. */
const CASES = [
  { fixture: 'syntax/frontmatter/invalid/.polytoken/subagents/blank.md', rule: 'syntax/frontmatter', name: 'blank' },
  { fixture: 'syntax/frontmatter/invalid/.polytoken/subagents/triage.md', rule: 'syntax/frontmatter', name: 'triage' },
  {
    fixture: 'picasso/invalid-value/invalid/apps/cli/agents/empty_role.yaml',
    rule: 'picasso/invalid-value',
    name: 'empty_role',
  },
  { fixture: 'picasso/invalid-value/invalid/.picasso/agents/blank.md', rule: 'picasso/invalid-value', name: 'blank' },
  { fixture: 'syntax/json/invalid/empty.expert.json', rule: 'syntax/json', name: 'empty' },
];

function analyzeAt(rel: string, text: string) {
  const filePath = `${WS}/${rel}`;
  return { filePath, analysis: analyze({ text, path: filePath, config: defaultLoadedConfig(WS), root: WS }) };
}

describe('the skeleton quick fix of an empty or frontmatter-less definition', () => {
  for (const c of CASES) {
    const rel = c.fixture.split('/invalid/')[1];
    it(`${c.fixture}: offered, not preferred; applied, the file loads cleanly`, () => {
      const { text } = stripMarkers(fs.readFileSync(path.join(RULES, c.fixture), 'utf8'));
      const { filePath, analysis } = analyzeAt(rel, text);
      const diagnostic = analysis.diagnostics.find((d) => d.code === c.rule);
      assert.ok(diagnostic, `${c.rule} reported`);
      const plan = offeredFixes(analysis, diagnostic).find((p) => p.title.startsWith('Insert a new definition'));
      assert.ok(plan, 'the skeleton fix is offered');
      assert.strictEqual(plan.title, `Insert a new definition named \`${c.name}\``);
      assert.ok(!plan.preferred, 'offered, not preferred');
      const fixed = applyFixes(text, [{ plan }]).text;
      // What the file held is kept: a Markdown body below the inserted frontmatter, comments above.
      if (c.fixture.endsWith('triage.md')) assert.strictEqual(fixed, `${skeletonText('polytoken', 'triage')}${text}`);
      else if (text.trim()) assert.strictEqual(fixed, `${text}${skeletonText('picasso', c.name)}`);
      const after = analyzeAt(rel, fixed).analysis;
      const serious = after.diagnostics.filter((d) => (d.severity ?? 1) <= DiagnosticSeverity.Warning);
      assert.deepStrictEqual(serious, [], fixed);
      const definitions = resolveAnalysis(after, filePath)!.definitions;
      assert.ok(definitions.length > 0);
      // The file's own name (a Profy Expert's; its subagents are the definitions) is the file's stem.
      assert.match(fixed, new RegExp(`^\\s*"?name"?: "?${c.name}\\b`, 'm'), 'named after the file');
      for (const d of definitions) assert.strictEqual(d.status, 'loads', d.name);
      // Why it is not preferred: the property would refuse it (the definition is granted more).
      assert.match(worsening(baselineOf(analysis), baselineOf(after), 'error')?.reason ?? '', /would grant/);
      // Fix all (and so `--fix`) leaves the file alone.
      assert.strictEqual(fixAll({ text, path: filePath, config: defaultLoadedConfig(WS), root: WS }).text, text);
    });
  }

  it('where the skeleton goes: the whole of a blank file, below comments (a line break added), above a body', () => {
    for (const [rel, text, expected] of [
      ['apps/cli/agents/lone.yaml', '  \n\n', skeletonText('picasso', 'lone')!],
      ['apps/cli/agents/lone.yaml', '# kept', `# kept\n${skeletonText('picasso', 'lone')!}`],
      ['apps/cli/agents/lone.yaml', '# kept\n', `# kept\n${skeletonText('picasso', 'lone')!}`],
      ['.polytoken/subagents/solo.md', 'Body', `${skeletonText('polytoken', 'solo')!}Body`],
      ['.polytoken/subagents/solo.md', '\n', skeletonText('polytoken', 'solo')!],
      // YAML that reads as null: the skeleton takes its place (a mapping beside `~` would not be YAML).
      ['apps/cli/agents/lone.yaml', '~\n', skeletonText('picasso', 'lone')!],
      ['apps/cli/agents/lone.yaml', '# kept\n&a\n', `# kept\n${skeletonText('picasso', 'lone')!}`],
      // A Picasso role's frontmatter: the skeleton goes inside it, the body stays below.
      ['.picasso/agents/lone.md', '---\n---\nBody\n', `---\n${skeletonText('picasso', 'lone')!}---\nBody\n`],
      [
        '.picasso/agents/lone.md',
        '---\n# kept\nnull\n---\nBody\n',
        `---\n# kept\n${skeletonText('picasso', 'lone')!}---\nBody\n`,
      ],
    ]) {
      const { analysis } = analyzeAt(rel, text);
      const plans = analysis.diagnostics.flatMap((d) => offeredFixes(analysis, d));
      const plan = plans.find((p) => p.title.startsWith('Insert a new definition'));
      assert.ok(plan, `${rel} ${JSON.stringify(text)}`);
      assert.strictEqual(applyFixes(text, [{ plan }]).text, expected, `${rel} ${JSON.stringify(text)}`);
    }
  });

  it('a frontmatter that is never closed, or a Picasso file that holds a value, gets no skeleton', () => {
    for (const [rel, text, rule] of [
      ['.polytoken/subagents/review.md', '---\nname: review\n', 'syntax/frontmatter'],
      ['apps/cli/agents/scalar.yaml', 'just words\n', 'picasso/invalid-value'],
      ['experts/x.expert.json', '{ "name": ', 'syntax/json'],
    ]) {
      const { analysis } = analyzeAt(rel, text);
      const diagnostic = analysis.diagnostics.find((d) => d.code === rule);
      assert.ok(diagnostic, `${rel}: ${rule}`);
      assert.ok(!offeredFixes(analysis, diagnostic).some((p) => p.title.startsWith('Insert a new definition')), rel);
    }
  });

  describe('`subagents check --fix`', function () {
    this.timeout(60_000);
    const temps = new Temps();
    after(() => temps.remove());

    it('applies only preferred fixes: an empty definition is reported and left as it is', () => {
      const files = {
        '.polytoken/subagents/triage.md': 'You triage incoming issues.\n',
        'apps/cli/agents/code_review.yaml': '',
        'experts/ledger.expert.json': '',
      };
      const ws = temps.workspace(files);
      const r = temps.run(['check', '.', '--fix', '--no-global'], ws);
      assert.strictEqual(r.code, 1, r.stderr);
      for (const rule of ['syntax/frontmatter', 'picasso/invalid-value', 'syntax/json'])
        assert.match(r.stdout, new RegExp(rule));
      for (const [rel, text] of Object.entries(files))
        assert.strictEqual(fs.readFileSync(path.join(ws, rel), 'utf8'), text, rel);
    });
  });
});
