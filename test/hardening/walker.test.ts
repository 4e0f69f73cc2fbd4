import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { checkPaths } from '../../cli/batch/check-paths';
import { StallWatch } from '../../cli/batch/check-parallel';
import { walkFiles, walkFolders } from '../../shared/node/walk';
import { makeTree } from '../support/tree';

const CLI = path.resolve(__dirname, '../../../dist/cli.js');

/** The file walker and checkPaths on hostile trees: link loops, unreadable folders, vanishing files. */
const POLY = (name: string) => `---\nname: ${name}\ndescription: d\npolytoken:\n  tools: [file_read]\n---\nBody.\n`;

const tree = (files: Record<string, string>) => makeTree(files, 'subagents-walk-');

const rel = (root: string, files: string[]) => files.map((f) => path.relative(root, f).split(path.sep).join('/'));

describe('hardening: the file walker', function () {
  this.timeout(30_000);
  const roots: string[] = [];
  const make = (files: Record<string, string>) => {
    const root = tree(files);
    roots.push(root);
    return root;
  };
  after(() => {
    for (const r of roots) {
      try {
        execFileSync('chmod', ['-R', 'u+rwx', r]);
      } catch {
        // best effort
      }
      fs.rmSync(r, { recursive: true, force: true });
    }
  });

  it('symbolic-link loops end, and every file is listed once', () => {
    const root = make({ 'a/.polytoken/subagents/one.md': POLY('one'), 'b/file.txt': 'x' });
    fs.symlinkSync('..', path.join(root, 'a', 'up')); // a/up -> root: a loop through the root
    fs.symlinkSync(path.join(root, 'a'), path.join(root, 'b', 'to-a')); // b/to-a -> a (already walked)
    fs.symlinkSync('self', path.join(root, 'self')); // a link to itself
    fs.symlinkSync('nowhere', path.join(root, 'dangling'));
    const problems: { path: string; message: string }[] = [];
    const files = walkFiles(root, problems);
    assert.deepStrictEqual(rel(root, files), ['a/.polytoken/subagents/one.md', 'b/file.txt']);
    const run = checkPaths([root], { cwd: root, noGlobal: true });
    assert.deepStrictEqual(
      run.files.map((f) => path.relative(root, f.path)),
      ['a/.polytoken/subagents/one.md'],
    );
  });

  it('a link to a folder is not followed; a link to a regular file is listed', () => {
    const root = make({
      'real/.picasso/agents/code_review.yaml': 'name: code_review\n',
      'elsewhere/x.yaml': 'name: x\n',
    });
    fs.symlinkSync(path.join(root, 'real'), path.join(root, 'alias'));
    fs.symlinkSync(path.join(root, 'elsewhere/x.yaml'), path.join(root, 'real/.picasso/agents/linked.yaml'));
    assert.deepStrictEqual(rel(root, walkFiles(root)), [
      'elsewhere/x.yaml',
      'real/.picasso/agents/code_review.yaml',
      'real/.picasso/agents/linked.yaml',
    ]);
  });

  it('a link to `/` is not walked into (it would cover the whole filesystem)', () => {
    const root = make({ '.polytoken/subagents/ok.md': POLY('ok') });
    fs.symlinkSync('/', path.join(root, 'everything'));
    fs.symlinkSync('/', path.join(root, '.polytoken/subagents/root.md'));
    assert.deepStrictEqual(rel(root, walkFiles(root)), ['.polytoken/subagents/ok.md']);
    // As a process: the CLI finishes, lists the one definition, and reads nothing else.
    const out = execFileSync(process.execPath, [CLI, 'check', '.', '--no-global', '--format', 'json'], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.deepStrictEqual(
      (JSON.parse(out) as { files: { path: string }[] }).files.map((f) => f.path),
      ['.polytoken/subagents/ok.md'],
    );
  });

  it('130,000 folders in one folder: listed without a spread (which overflows the stack past ~125,000)', () => {
    const root = make({ '.polytoken/subagents/ok.md': POLY('ok') });
    // Faked listing of the root (creating 130,000 real folders takes long; npm run bench does it).
    const realFs = require('fs') as typeof fs;
    const original = realFs.readdirSync;
    const many = Array.from({ length: 130_000 }, (_, i) => ({
      name: `d${i}`,
      isDirectory: () => true,
      isFile: () => false,
      isSymbolicLink: () => false,
    }));
    let listedFake = 0;
    realFs.readdirSync = function (this: unknown, ...args: Parameters<typeof fs.readdirSync>) {
      const dir = String(args[0]);
      if (dir === root) return [...(original as (...a: unknown[]) => fs.Dirent[]).apply(this, args), ...many];
      if (path.dirname(dir) === root && /^d\d+$/.test(path.basename(dir))) {
        listedFake++;
        return [];
      }
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof fs.readdirSync;
    let files: string[];
    try {
      files = walkFiles(root);
    } finally {
      realFs.readdirSync = original;
    }
    assert.deepStrictEqual(rel(root, files), ['.polytoken/subagents/ok.md']);
    assert.strictEqual(listedFake, 130_000, 'the walk went through the faked listing (else this tests nothing)');
  });

  it('walkFolders lists one folder per step: nothing walks the tree up front (the server indexing `/`)', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 50; i++) files[`d${i}/sub/.polytoken/subagents/x.md`] = POLY('x');
    const root = make(files);
    const realFs = require('fs') as typeof fs;
    const original = realFs.readdirSync;
    let listed = 0;
    realFs.readdirSync = function (this: unknown, ...args: Parameters<typeof fs.readdirSync>) {
      listed++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof fs.readdirSync;
    try {
      const steps = walkFolders(root);
      assert.deepStrictEqual(steps.next().value, [], 'the root holds folders only');
      assert.strictEqual(listed, 1, 'the first step listed the root alone');
      let found: string[] = [];
      while (!found.length) found = steps.next().value as string[];
      assert.ok(listed <= 5, `a file after ${listed} listings, not after the whole tree's ${1 + 50 * 4}`);
      assert.match(found[0], /\/\.polytoken\/subagents\/x\.md$/);
      for (let step = steps.next(); !step.done; step = steps.next());
      assert.strictEqual(listed, 1 + 50 * 4, 'the walk went through the counted listing');
    } finally {
      realFs.readdirSync = original;
    }
    assert.strictEqual(walkFiles(root).length, 50);
  });

  it('node_modules and .git are never searched', () => {
    const root = make({
      '.polytoken/subagents/kept.md': POLY('kept'),
      'node_modules/pkg/.polytoken/subagents/skipped.md': POLY('skipped'),
      'sub/node_modules/x.expert.json': '{}',
      '.git/.polytoken/subagents/skipped.md': POLY('skipped'),
      'sub/.git/apps/cli/agents/x.yaml': 'name: x\n',
    });
    const run = checkPaths([root], { cwd: root, noGlobal: true });
    assert.deepStrictEqual(
      run.files.map((f) => path.relative(root, f.path)),
      ['.polytoken/subagents/kept.md'],
    );
    assert.deepStrictEqual(rel(root, walkFiles(root)), ['.polytoken/subagents/kept.md']);
  });

  it('an unreadable folder is reported, not thrown', function () {
    const root = make({
      '.polytoken/subagents/ok.md': POLY('ok'),
      'locked/.polytoken/subagents/hidden.md': POLY('hidden'),
    });
    fs.chmodSync(path.join(root, 'locked'), 0o000);
    let readable = true;
    try {
      fs.readdirSync(path.join(root, 'locked'));
    } catch {
      readable = false;
    }
    if (readable) {
      fs.chmodSync(path.join(root, 'locked'), 0o755);
      // Running as root (uid 0): permission bits do not stop reads, so there is nothing to observe.
      console.log('      (skipped: permission bits do not stop reads for this user, uid %s)', process.getuid?.());
      this.skip();
    }
    const problems: { path: string; message: string }[] = [];
    const files = walkFiles(root, problems);
    assert.deepStrictEqual(rel(root, files), ['.polytoken/subagents/ok.md']);
    assert.deepStrictEqual(
      problems.map((p) => [path.relative(root, p.path), p.message]),
      [['locked', 'permission denied']],
    );
    const run = checkPaths([root], { cwd: root, noGlobal: true });
    assert.strictEqual(run.files.length, 1);
    assert.strictEqual(run.ioErrors.length, 1);
  });

  it('a FIFO or a folder named like a definition is passed over, not read (no hang)', () => {
    const root = make({ '.polytoken/subagents/ok.md': POLY('ok') });
    fs.mkdirSync(path.join(root, '.polytoken/subagents/folder.md'));
    execFileSync('mkfifo', [path.join(root, '.polytoken/subagents/pipe.md')]);
    const run = checkPaths([root], { cwd: root, noGlobal: true });
    assert.deepStrictEqual(
      run.files.map((f) => path.basename(f.path)),
      ['ok.md'],
    );
    assert.deepStrictEqual(run.ioErrors, []);
  });

  for (const workers of [0, 1]) {
    it(`a file deleted between the walk and the read is an I/O error, the rest is checked (${workers ? 'worker threads' : 'one thread'})`, () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 40; i++) files[`.polytoken/subagents/a${i}.md`] = POLY(`a${i}`);
      files['x.expert.json'] = '{"name": "x"}';
      const root = make(files);
      const victims = [path.join(root, '.polytoken/subagents/a7.md'), path.join(root, 'x.expert.json')];
      // Delete them right after the walk: the walker's last step is listing folders.
      // The module object itself (an `import *` namespace only has getters).
      const realFs = require('fs') as typeof fs;
      const original = realFs.readdirSync;
      const patched = function (this: unknown, ...args: Parameters<typeof fs.readdirSync>) {
        const out = (original as (...a: unknown[]) => unknown).apply(this, args);
        if (String(args[0]).endsWith('/.polytoken/subagents')) for (const v of victims) fs.rmSync(v, { force: true });
        return out;
      } as typeof fs.readdirSync;
      realFs.readdirSync = patched;
      let run;
      try {
        run = checkPaths([root], { cwd: root, noGlobal: true, workers, keepAnalysis: false });
      } finally {
        realFs.readdirSync = original;
      }
      assert.deepStrictEqual(
        run.ioErrors.map((e) => [path.relative(root, e.path), e.message]),
        [
          ['.polytoken/subagents/a7.md', 'no such file or folder'],
          ['x.expert.json', 'no such file or folder'],
        ],
      );
      assert.strictEqual(run.files.length, 39);
    });
  }

  it('a worker that fails to start leaves its work to the main thread', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 100; i++) files[`.polytoken/subagents/a${i}.md`] = POLY(i % 10 ? `a${i}` : 'x');
    const root = make(files);
    const entry = path.join(__dirname, '../../cli/batch/check-worker.js');
    const original = fs.readFileSync(entry);
    const strip = (r: ReturnType<typeof checkPaths>) =>
      JSON.stringify({ files: r.files.map((f) => [f.path, f.diagnostics]), io: r.ioErrors });
    const one = checkPaths([root], { cwd: root, noGlobal: true, workers: 0, keepAnalysis: false });
    fs.writeFileSync(entry, "throw new Error('this worker cannot start');\n");
    try {
      const broken = checkPaths([root], { cwd: root, noGlobal: true, workers: 2, keepAnalysis: false });
      assert.strictEqual(strip(broken), strip(one));
    } finally {
      fs.writeFileSync(entry, original);
    }
  });

  it('a worker that dies mid-run does not hang the check: it restarts on one thread', () => {
    // A tab in the frontmatter turns the quick name reading off, so the main thread's
    // phase 1 parses every file and is still busy when the worker (~0.1 s to start) arrives.
    const files: Record<string, string> = {};
    for (let i = 0; i < 3000; i++)
      files[`.polytoken/subagents/a${i}.md`] =
        `---\nname: a${i}\n#\tparsed, not read quickly\ndescription: d\npolytoken:\n  tools: [file_read]\n---\nbody\n`;
    files['e.expert.json'] = '{"name": "e", "tools": ["read"]}';
    const root = make(files);
    // Claims every phase-1 chunk it can, posts nothing, and exits without running the
    // protocol's finally: what an out-of-memory kill leaves behind.
    const dying = path.join(root, 'dying-worker.js');
    fs.writeFileSync(
      dying,
      [
        "const { workerData } = require('worker_threads');",
        'const ctl = new Int32Array(workerData.ctl);',
        'if (Atomics.compareExchange(ctl, 4 + workerData.slot, 0, 1) === 0) {',
        '  while (Atomics.add(ctl, 0, 1) < 1e6) {}',
        '  process.exit(1);',
        '}',
      ].join('\n'),
    );
    const strip = (r: ReturnType<typeof checkPaths>) =>
      JSON.stringify({ files: r.files.map((f) => [f.path, f.diagnostics]), io: r.ioErrors });
    const one = checkPaths([root], { cwd: root, noGlobal: true, workers: 0, keepAnalysis: false });
    // In a child process: without the watchdog the check blocks for ever, which mocha's
    // timeout cannot interrupt; the child's time limit turns that into a failure.
    const script = `
      const { checkPaths } = require(${JSON.stringify(path.join(__dirname, '../../cli/batch/check-paths.js'))});
      const r = checkPaths(['.'], { cwd: ${JSON.stringify(root)}, noGlobal: true, workers: 1, keepAnalysis: false, workerScript: ${JSON.stringify(dying)}, workerStallMs: 300 });
      process.stdout.write(JSON.stringify({ files: r.files.map((f) => [f.path, f.diagnostics]), io: r.ioErrors }));`;
    const out = execFileSync(process.execPath, ['-e', script], {
      encoding: 'utf8',
      timeout: 30_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    assert.strictEqual(out, strip(one));
  });

  it('the stall watch flags only a busy worker whose heartbeat stopped', () => {
    const watch = new StallWatch(100);
    assert.strictEqual(watch.stalled(0, true, 5, 0), false, 'first sight');
    assert.strictEqual(watch.stalled(0, true, 5, 100), false, 'not yet past the limit');
    assert.strictEqual(watch.stalled(0, true, 5, 101), true, 'no progress for too long');
    assert.strictEqual(watch.stalled(1, true, 1, 0), false);
    assert.strictEqual(watch.stalled(1, true, 2, 150), false, 'a heartbeat resets the clock');
    assert.strictEqual(watch.stalled(1, true, 2, 200), false);
    assert.strictEqual(watch.stalled(1, true, 2, 251), true);
    assert.strictEqual(watch.stalled(2, false, 0, 0), false);
    assert.strictEqual(
      watch.stalled(2, false, 0, 10_000),
      false,
      'an idle worker (waiting for the index) is not stalled',
    );
  });

  it('worker threads give the same reports, in the same order, as one thread', () => {
    const files: Record<string, string> = {
      '.subagents.yaml': 'tools:\n  polytoken: [deploy]\npolytoken:\n  subagentDirs: [vendor]\n',
    };
    for (let i = 0; i < 150; i++) {
      files[`p${i % 3}/.polytoken/subagents/a${i}.md`] = POLY(i % 10 === 0 ? 'dup' : `a${i}`);
      files[`p${i % 3}/apps/cli/agents/r${i}.yaml`] = `name: r${i}\ntools: [read_file, ${i % 7 ? 'grep' : 'bogus'}]\n`;
      files[`p${i % 3}/e${i}.expert.json`] =
        i % 11
          ? `{"name": "e${i}", "tools": ["read"], "subagents": [{"name": "s", "description": "d", "system_prompt": "p", "tools": ["read"]}]}`
          : '{"name": ';
    }
    files['vendor/dup.md'] = POLY('dup');
    const root = make(files);
    const strip = (r: ReturnType<typeof checkPaths>) =>
      JSON.stringify({ files: r.files.map((f) => [f.path, f.kind, f.diagnostics]), io: r.ioErrors });
    const one = checkPaths([root], { cwd: root, noGlobal: true, workers: 0, keepAnalysis: false });
    const two = checkPaths([root], { cwd: root, noGlobal: true, workers: 1, keepAnalysis: false });
    const four = checkPaths([root], { cwd: root, noGlobal: true, workers: 3, keepAnalysis: false });
    assert.strictEqual(one.files.length, 452); // with the configuration file
    assert.ok(
      one.files.some((f) => f.diagnostics.some((d) => d.code === 'polytoken/shadowed')),
      'the shadowing index crosses threads',
    );
    assert.strictEqual(strip(two), strip(one));
    assert.strictEqual(strip(four), strip(one));
    // Kept analyses are made on the main thread, also with workers.
    const target = path.join(root, 'p1/apps/cli/agents/r1.yaml');
    const kept = checkPaths([root], { cwd: root, noGlobal: true, workers: 1, keepAnalysis: (p) => p === target });
    assert.ok(kept.files.find((f) => f.path === target)?.analysis);
    assert.strictEqual(kept.files.filter((f) => f.analysis).length, 1);
    assert.strictEqual(strip(kept), strip(one));
  });
});
