import * as assert from 'assert';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { isRegularFile, readRegularBytes, readRegularFile, RefusedFileError } from '../../shared/node/read';
import { CLI, CLI_IN_PROCESS, runCli } from '../support/cli';
import { makeTree, removeTree } from '../support/tree';

/**
 * Only regular files are read: a FIFO (whose open blocks until a writer comes) or a link
 * to /dev/zero (which never ends) named like a definition, wherever definitions are
 * looked for, must not hang `check`, `resolve` or the reads under them. The CLI runs as
 * a process with a time limit: without the guard it blocks for ever, which mocha's own
 * timeout cannot interrupt.
 */
const POLY = (name: string) => `---\nname: ${name}\ndescription: d\npolytoken:\n  tools: [file_read]\n---\nBody.\n`;
const linux = process.platform === 'linux';

/** The CLI as a process with a time limit (a hang fails the test); its `main` in the test process in the mutation run (CLI_IN_PROCESS). */
function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const whole = { ...process.env, ...env };
  if (CLI_IN_PROCESS) return runCli(args, { cwd, env: whole });
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 30_000, env: whole });
  assert.ok(!r.error, `the CLI did not finish: ${r.error}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A FIFO and a link to /dev/zero, both named like Polytoken definitions, in `dir`. */
function plantSpecialFiles(dir: string): void {
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('mkfifo', [path.join(dir, 'pipe.md')]);
  fs.symlinkSync('/dev/zero', path.join(dir, 'zero.md'));
}

describe('hardening: only regular files are read', function () {
  this.timeout(120_000);
  let root: string;
  beforeEach(function () {
    if (!linux) this.skip(); // mkfifo, /dev/zero
    root = makeTree({ '.polytoken/subagents/ok.md': POLY('ok') }, 'subagents-special-');
  });
  afterEach(() => root && removeTree(root));

  it('readRegularFile refuses a FIFO, a device, a folder and a file above the limit, without blocking', () => {
    plantSpecialFiles(path.join(root, 'x'));
    const refused = (p: string, max?: number) => {
      try {
        readRegularFile(p, max);
      } catch (e) {
        assert.ok(e instanceof RefusedFileError, String(e));
        return e;
      }
      assert.fail(`${p} was read`);
    };
    assert.match(refused(path.join(root, 'x/pipe.md')).message, /^is a named pipe, not a regular file$/);
    assert.match(refused(path.join(root, 'x/zero.md')).message, /^is a character device, not a regular file$/);
    assert.strictEqual(refused(path.join(root, 'x')).message, 'is a folder');
    const big = refused(path.join(root, '.polytoken/subagents/ok.md'), 10);
    assert.deepStrictEqual(big.tooLarge, { bytes: POLY('ok').length, limit: 10 });
    const large = path.join(root, 'large.md');
    fs.writeFileSync(large, Buffer.alloc(1.5 * 1024 * 1024, 0x61));
    assert.strictEqual(refused(large, 1024 * 1024).message, 'is 1.5 MB, above the 1 MB limit');
    assert.strictEqual(readRegularFile(path.join(root, '.polytoken/subagents/ok.md')), POLY('ok'));
    assert.strictEqual(isRegularFile(path.join(root, 'x/pipe.md')), false);
    assert.strictEqual(isRegularFile(path.join(root, 'x/zero.md')), false);
    // Asked not to follow a link (the cache file, already resolved): a link put there meanwhile is refused.
    const link = path.join(root, 'link.md');
    fs.symlinkSync(path.join(root, '.polytoken/subagents/ok.md'), link);
    assert.strictEqual(readRegularBytes(link).toString(), POLY('ok'));
    assert.throws(() => readRegularBytes(link, undefined, true), { code: 'ELOOP' });
  });

  it('check: a FIFO and a /dev/zero link in `polytoken.subagentDirs` and in the global folder', () => {
    fs.writeFileSync(path.join(root, '.subagents.yaml'), 'polytoken:\n  subagentDirs: [vendor]\n  globalDir: global\n');
    plantSpecialFiles(path.join(root, 'vendor'));
    plantSpecialFiles(path.join(root, 'global'));
    fs.writeFileSync(path.join(root, 'vendor/ok.md'), POLY('ok'));
    const r = cli(['check', '.', '--format', 'json'], root);
    const report = JSON.parse(r.stdout) as { files: { path: string; diagnostics: { rule: string }[] }[] };
    assert.deepStrictEqual(report.files.map((f) => f.path).sort(), [
      '.polytoken/subagents/ok.md',
      '.subagents.yaml',
      'vendor/ok.md',
    ]);
    // The readable file of the discovery folder still shadows the workspace definition.
    assert.ok(
      report.files.some((f) => f.diagnostics.some((d) => d.rule === 'polytoken/shadowed')),
      r.stdout,
    );
    assert.strictEqual(r.stderr, '');
    assert.notStrictEqual(r.code, 2);
  });

  it('check: a FIFO named on the command line is an I/O error with its reason, the rest is checked', () => {
    plantSpecialFiles(path.join(root, '.polytoken/subagents'));
    const r = cli(['check', '.polytoken/subagents/pipe.md', '.polytoken/subagents/ok.md', '--no-global'], root);
    assert.strictEqual(r.code, 2);
    assert.match(r.stderr, /^subagents: \.polytoken\/subagents\/pipe\.md: is a named pipe, not a regular file$/m);
    assert.match(r.stdout, /1 file checked/);
  });

  it('resolve: FIFOs and /dev/zero links next to the resolved file are passed over', () => {
    plantSpecialFiles(path.join(root, '.polytoken/subagents'));
    fs.symlinkSync('/', path.join(root, '.polytoken/subagents/everything.md'));
    const r = cli(['resolve', '.polytoken/subagents/ok.md', '--no-global', '--format', 'json'], root);
    assert.strictEqual(r.code, 0, r.stderr);
    assert.deepStrictEqual(
      (JSON.parse(r.stdout) as { definitions: { name: string; status: string }[] }).definitions.map((d) => [
        d.name,
        d.status,
      ]),
      [['ok', 'loads']],
    );
    const pipe = cli(['resolve', '.polytoken/subagents/pipe.md', '--no-global'], root);
    assert.strictEqual(pipe.code, 2);
  });

  it('a `.subagents.yaml` that is a FIFO is not read', () => {
    execFileSync('mkfifo', [path.join(root, '.subagents.yaml')]);
    const r = cli(['check', '.', '--no-global'], root);
    assert.match(r.stdout, /1 file checked/);
  });
});
