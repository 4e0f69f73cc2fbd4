import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { fixAll, preferredFixes } from '../shared/fixes/apply';
import { RULES } from '../shared/rules/registry';
import { fixFixtureFolder, type FixedFile } from './support/fix-twins';
import { stripMarkers, withFixture } from './support/fixtures';
import { makeTree, removeTree } from './support/tree';

const ROOT = path.resolve(__dirname, '../..');
const RULE_FIXTURES = path.join(ROOT, 'test/fixtures/rules');
const CORNERS = path.join(ROOT, 'test/fixtures/corners');

/** Every file below a folder, relative, `/` separators. */
function filesBelow(dir: string, rel = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesBelow(path.join(dir, e.name), `${rel}${e.name}/`) : [`${rel}${e.name}`]));
}

/** The invalid tree with the fixed files laid over it (markers kept: they are the expectations after the fix). */
function overlay(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (const twin of ['invalid', 'fixed'])
    for (const rel of filesBelow(path.join(dir, twin))) files[rel] = fs.readFileSync(path.join(dir, twin, rel), 'utf8');
  return files;
}

describe('golden fix twins (fixed/ beside invalid/)', () => {
  for (const rule of RULES) {
    const dir = path.join(RULE_FIXTURES, rule.id);
    it(`${rule.id}: "Fix all" rewrites the invalid fixture exactly as fixed/ says, and what remains matches its markers`, () => {
      const fixed = fixFixtureFolder(path.join(dir, 'invalid'));
      const changed = fixed
        .filter((f) => f.result.text !== f.before)
        .map((f) => f.rel)
        .sort();
      assert.deepStrictEqual(
        filesBelow(path.join(dir, 'fixed')).sort(),
        changed,
        'fixed/ holds exactly the files the fixes change',
      );
      for (const f of fixed) {
        const twin = path.join(dir, 'fixed', f.rel);
        const expected = fs.existsSync(twin) ? stripMarkers(fs.readFileSync(twin, 'utf8')).text : f.before;
        assert.strictEqual(f.result.text, expected, f.rel);
      }
      if (!changed.length) return;
      const tree = makeTree(overlay(dir), 'subagents-fixed-');
      try {
        withFixture(tree, (result) => assert.deepStrictEqual(result.actual, result.expected));
      } finally {
        removeTree(tree);
      }
    });
  }

  it('twins exist: most rules with a fix have one', () => {
    const withTwin = RULES.filter((r) => fs.existsSync(path.join(RULE_FIXTURES, r.id, 'fixed')));
    assert.ok(withTwin.length >= 25, `${withTwin.length} twins`);
  });
});

/** Every folder that holds a fixture workspace, and the examples. */
function workspaces(): string[] {
  const out = [path.join(ROOT, 'examples')];
  for (const rule of RULES) for (const twin of ['invalid', 'valid']) out.push(path.join(RULE_FIXTURES, rule.id, twin));
  for (const dialect of fs.existsSync(CORNERS) ? fs.readdirSync(CORNERS) : []) {
    const d = path.join(CORNERS, dialect);
    if (fs.statSync(d).isDirectory()) for (const c of fs.readdirSync(d)) out.push(path.join(d, c));
  }
  return out;
}

/** The invariants of applying every preferred fix, for one file. */
function checkConvergence(f: FixedFile, renames: boolean): void {
  const where = `${f.rel}${renames ? ' (with renames)' : ''}`;
  assert.ok(!f.result.oscillated, `${where}: the fixes oscillate (${f.result.applied.map((a) => a.rule).join(', ')})`);
  assert.ok(f.result.rounds <= 10, `${where}: ${f.result.rounds} rounds`);
  // Inserted lines end as the file's own do: a CRLF file stays CRLF throughout.
  const loneLf = (t: string) => /(^|[^\r])\n/.test(t);
  if (f.before.includes('\r\n') && !loneLf(f.before))
    assert.ok(!loneLf(f.result.text), `${where}: the fixes left lines ending in a bare LF in a CRLF file`);
  // A fixed point: nothing preferred is left to apply (so no rule whose fix was applied still fires for it).
  const left = preferredFixes(f.result.analysis, { renames });
  assert.deepStrictEqual(
    left.map((c) => `${c.rule}: ${c.plan.title}`),
    [],
    `${where}: preferred fixes left after ${f.result.rounds} rounds`,
  );
}

describe('convergence: every preferred fix at once, round after round', () => {
  const all = workspaces();
  it(`covers the examples (DocWriter included), every rule fixture and the corner cases (${all.length} folders)`, () => {
    assert.ok(all.length > 100);
    assert.ok(fs.existsSync(path.join(ROOT, 'examples/apps/cli/agents/DocWriter.yaml')));
  });
  for (const renames of [false, true]) {
    it(`reaches a fixed point within 10 rounds, never oscillates, never breaks the parse${renames ? ' (editor: renames applied too)' : ' (--fix: in-file edits only)'}`, function () {
      this.timeout(120_000);
      let files = 0;
      let changed = 0;
      for (const dir of all) {
        for (const f of fixFixtureFolder(dir, { renames })) {
          files++;
          if (f.result.text !== f.before) changed++;
          checkConvergence(f, renames);
          const before = fixAll(
            { text: f.before, path: '/x', config: f.config, kind: f.result.analysis.kind as 'polytoken' },
            { maxRounds: 0 },
          ).analysis;
          const parsedBefore = !before.findings.some((x) => x.rule.startsWith('syntax/'));
          const parsedAfter = !f.result.analysis.findings.some((x) => x.rule.startsWith('syntax/'));
          assert.ok(!parsedBefore || parsedAfter, `${f.rel}: a file that parsed no longer does after the fixes`);
        }
      }
      assert.ok(files > 150 && changed > 40, `${files} files, ${changed} changed`);
    });
  }

  it('the DocWriter example: --fix leaves the name to the author (lower-casing it alone would add a name mismatch), and with renames the file follows', () => {
    const [doc] = fixFixtureFolder(path.join(ROOT, 'examples')).filter((f) => f.rel.endsWith('DocWriter.yaml'));
    assert.strictEqual(doc.result.text, doc.before);
    assert.deepStrictEqual(
      doc.result.analysis.diagnostics.map((d) => d.code),
      ['picasso/name-format', 'picasso/invocation-mismatch'],
    );
    assert.deepStrictEqual(
      doc.result.demoted.map((d) => `${d.rule}: ${d.reason}`),
      [
        'picasso/name-format: it would add picasso/name-mismatch (warning)',
        'picasso/invocation-mismatch: it would add picasso/name-mismatch (warning)',
      ],
    );
    const [renamed] = fixFixtureFolder(path.join(ROOT, 'examples'), { renames: true }).filter((f) =>
      f.rel.endsWith('DocWriter.yaml'),
    );
    assert.ok(renamed.result.path.endsWith('/apps/cli/agents/doc_writer.yaml'), renamed.result.path);
    assert.deepStrictEqual(renamed.result.analysis.diagnostics, []);
  });
});
