/**
 * `subagents check --fix` and `--fix-dry-run`, run as a process on copies of every golden
 * invalid fixture (each in a folder of its own in one tree): the files are rewritten exactly
 * as the fixture's `fixed/` twin says, a second `--fix` changes nothing, and the dry run
 * writes nothing and prints the same changes as a diff.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { applyPatch, parsePatch } from 'diff';
import { RULES } from '../shared/rules/registry';
import { prepareFixture, stripMarkers } from './support/fixtures';
import { runCli } from './support/cli';
import { removeTree } from './support/tree';

const ROOT = path.resolve(__dirname, '../..');
const FIXTURES = path.join(ROOT, 'test/fixtures/rules');

function filesBelow(dir: string, rel = ''): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? filesBelow(path.join(dir, e.name), `${rel}${e.name}/`) : [`${rel}${e.name}`]));
}

function snapshot(dir: string): Map<string, string> {
  return new Map(filesBelow(dir).map((rel) => [rel, fs.readFileSync(path.join(dir, rel), 'utf8')]));
}

const subagents = (cwd: string, ...args: string[]) => {
  const env = { ...process.env, HOME: cwd, XDG_CONFIG_HOME: path.join(cwd, '.no-xdg'), NO_COLOR: '1' };
  const r = runCli(['check', '.', '--no-global', ...args], { cwd, env });
  return { status: r.code, stdout: r.stdout, stderr: r.stderr };
};

describe('subagents check --fix', function () {
  this.timeout(120_000);
  let tree: string;
  /** The expected text of every file, by its path in the tree. */
  const expected = new Map<string, string>();
  let original: Map<string, string>;

  before(() => {
    tree = fs.realpathSync(fs.mkdtempSync(path.join(require('os').tmpdir(), 'subagents-fix-')));
    for (const rule of RULES) {
      const dir = path.join(FIXTURES, rule.id);
      const { workspace } = prepareFixture(path.join(dir, 'invalid'));
      const dest = path.join(tree, rule.id.replace('/', '__'));
      fs.cpSync(workspace, dest, { recursive: true });
      removeTree(workspace);
      for (const rel of filesBelow(dest)) {
        const twin = path.join(dir, 'fixed', rel);
        const text = fs.existsSync(twin)
          ? stripMarkers(fs.readFileSync(twin, 'utf8')).text
          : fs.readFileSync(path.join(dest, rel), 'utf8');
        expected.set(`${path.basename(dest)}/${rel}`, text);
      }
    }
    original = snapshot(tree);
  });
  after(() => removeTree(tree));

  it('--fix-dry-run writes nothing and prints the changes as a unified diff that yields the twins', () => {
    const r = subagents(tree, '--fix-dry-run');
    assert.strictEqual(r.status, 1, r.stderr); // errors without a fix remain
    assert.deepStrictEqual(snapshot(tree), original, 'nothing written');
    const patches = parsePatch(r.stdout);
    assert.ok(patches.length >= 30, `${patches.length} files in the diff`);
    for (const p of patches) {
      const rel = p.oldFileName!.replace(/^a\//, '');
      const patched = applyPatch(original.get(rel)!, p);
      assert.strictEqual(patched, expected.get(rel), rel);
    }
  });

  it('--fix rewrites every file as its fixed/ twin says, never renames one, then reports what is left', () => {
    const r = subagents(tree, '--fix', '-f', 'json');
    assert.strictEqual(r.status, 1, r.stderr);
    assert.match(r.stderr, /applied \d+ fixes in \d+ files/);
    const report = JSON.parse(r.stdout) as { files: { path: string }[] };
    assert.ok(report.files.length > 100);
    const after = snapshot(tree);
    assert.deepStrictEqual([...after.keys()].sort(), [...original.keys()].sort(), 'no file renamed, added or removed');
    for (const [rel, text] of after) assert.strictEqual(text, expected.get(rel), rel);
    const changed = [...after].filter(([rel, text]) => original.get(rel) !== text).length;
    assert.ok(changed >= 30, `${changed} files fixed`);
  });

  it('a second --fix changes nothing', () => {
    const first = snapshot(tree);
    const r = subagents(tree, '--fix');
    assert.strictEqual(r.status, 1);
    assert.doesNotMatch(r.stderr, /applied/);
    // The fixes the machinery withheld are named, not applied (docs/fixes.md).
    assert.match(r.stderr, /^subagents: no fix to apply; \d+ fix(es)? left to you/m);
    assert.deepStrictEqual(snapshot(tree), first);
    assert.strictEqual(subagents(tree, '--fix-dry-run').stdout, '');
  });

  it('--fix with --fix-dry-run, or with --stdin, is a usage error', () => {
    for (const args of [
      ['--fix', '--fix-dry-run'],
      ['--fix', '--stdin', '--stdin-filename', 'x.expert.json'],
    ]) {
      const r = subagents(tree, ...args);
      assert.strictEqual(r.status, 2);
      assert.match(r.stderr, /^subagents: .*fix/);
    }
  });

  it('fixes .subagents.yaml first, then each definition as checked under the corrected configuration', () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(require('os').tmpdir(), 'subagents-fix-config-')));
    try {
      const role =
        'name: auditor\ninvocation: "@auditor"\nmodel: claude-opus\ndescription: Reviews changes.\nwhen_to_use: For audits.\noutput_schema: audit\ntools: [read_file]\nmax_steps: 3\nmax_depth: 0\ndenied: [edit_file]\n';
      fs.mkdirSync(path.join(ws, 'apps/cli/agents'), { recursive: true });
      fs.writeFileSync(path.join(ws, 'apps/cli/agents/auditor.yaml'), role);
      // `of` is a misspelt `off`: the whole configuration falls back to the defaults until it is fixed.
      fs.writeFileSync(path.join(ws, '.subagents.yaml'), 'rules:\n  picasso/unknown-key: of\n');
      const dry = subagents(ws, '--fix-dry-run');
      assert.match(dry.stdout, /-  picasso\/unknown-key: of\n\+  picasso\/unknown-key: off\n/);
      assert.doesNotMatch(dry.stdout, /auditor\.yaml/, 'the silenced unknown key is left alone');
      assert.strictEqual(dry.status, 0, dry.stderr);
      const r = subagents(ws, '--fix');
      assert.strictEqual(r.status, 0, r.stdout + r.stderr);
      assert.match(r.stderr, /applied 1 fix in 1 file/);
      assert.strictEqual(
        fs.readFileSync(path.join(ws, '.subagents.yaml'), 'utf8'),
        'rules:\n  picasso/unknown-key: off\n',
      );
      assert.strictEqual(fs.readFileSync(path.join(ws, 'apps/cli/agents/auditor.yaml'), 'utf8'), role);
    } finally {
      removeTree(ws);
    }
  });

  it('leaves a fix that would grant a tool or add a problem, and says how many it left', () => {
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(require('os').tmpdir(), 'subagents-fix-left-')));
    try {
      // `Polytoken:` is ignored, so `file_read` is not granted: renaming the key would grant it.
      const poly = '---\nname: triage\nPolytoken:\n  tools: [file_read]\n---\nBody.\n';
      fs.mkdirSync(path.join(ws, '.polytoken/subagents'), { recursive: true });
      fs.writeFileSync(path.join(ws, '.polytoken/subagents/triage.md'), poly);
      // Both names would become `a_b`: only the first is renamed.
      const sub = (name: string) =>
        `{ "name": ${JSON.stringify(name)}, "description": "d", "system_prompt": "p", "tools": ["read"] }`;
      const expert = `{"name": "book", "description": "d", "delegationBrief": "b", "tools": ["read"],\n "subagents": [${sub('a b')},\n ${sub('a\tb')}]}\n`;
      fs.writeFileSync(path.join(ws, 'book.expert.json'), expert);
      const r = subagents(ws, '--fix');
      assert.strictEqual(r.status, 1, r.stdout + r.stderr);
      assert.match(r.stderr, /applied 1 fix in 1 file; 1 fix left to you \(they would add a problem or grant a tool\)/);
      assert.strictEqual(fs.readFileSync(path.join(ws, '.polytoken/subagents/triage.md'), 'utf8'), poly);
      assert.strictEqual(fs.readFileSync(path.join(ws, 'book.expert.json'), 'utf8'), expert.replace('"a b"', '"a_b"'));
      assert.match(r.stdout, /triage\.md:3:1 warning .*\[polytoken\/unknown-key\]/);
    } finally {
      removeTree(ws);
    }
  });
});
