/**
 * Nothing `check --fix` or `-o` writes can hurt (cli/batch/safe-write.ts), run as a process
 * on throw-away workspaces: links planted at every name a write might use change nothing
 * outside the workspace; a write keeps the file's mode, owner, links and hard links, works in a
 * folder that takes no new file and for a 250-byte name, writes into special files instead of
 * replacing them, skips a file edited meanwhile, and a write the system refuses fails the run.
 *
 * Root ignores permission bits: the cases that need them use what root cannot bypass instead
 * (an immutable folder or file, `chattr +i`, a file size limit); a case this machine cannot set
 * up is reported pending, never passed.
 */
import { strict as assert } from 'assert';
import { spawn, spawnSync, type SpawnSyncOptions } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { CLI, CLI_IN_PROCESS, runCli, Temps } from '../support/cli';

const temps = new Temps();
after(() => temps.remove());
const linux = process.platform === 'linux';
const isRoot = process.geteuid?.() === 0;

/** A Polytoken definition whose name is not its file's: `--fix` rewrites its `name`. */
const MISNAMED = (body = 'Body.\n') =>
  `---\nname: other\ndescription: d\npolytoken:\n  tools: [file_read]\n---\n${body}`;
const DEFS = '.polytoken/subagents';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  pid: number;
}

/**
 * The CLI as a process (in `shell`, a bash script where `"$@"` runs it), with a time limit: a hang
 * fails the test. In the mutation run (CLI_IN_PROCESS) a run without a shell or Node flags calls
 * the CLI's `main` in the test process instead, so that the writes it makes count.
 */
function cli(args: string[], cwd: string, options: { nodeArgs?: string[]; shell?: string; env?: object } = {}): Run {
  const argv = [...(options.nodeArgs ?? []), CLI, ...args];
  const env = {
    ...process.env,
    XDG_CONFIG_HOME: temps.xdg,
    XDG_CACHE_HOME: temps.xdgCache,
    NO_COLOR: '1',
    ...options.env,
  };
  if (CLI_IN_PROCESS && !options.shell && !options.nodeArgs) return { ...runCli(args, { cwd, env }), pid: process.pid };
  const spawnOptions: SpawnSyncOptions = { cwd, encoding: 'utf8', timeout: 60_000, env };
  const r = options.shell
    ? spawnSync('bash', ['-c', options.shell, 'bash', process.execPath, ...argv], spawnOptions)
    : spawnSync(process.execPath, argv, spawnOptions);
  assert.ok(!r.error, `the CLI did not finish: ${r.error}`);
  return { code: r.status, stdout: String(r.stdout), stderr: String(r.stderr), pid: r.pid };
}

/** Every entry under `dir`: type, mode, owner, size, mtime and content (or link target). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of fs.readdirSync(dir, { recursive: true }) as string[]) {
    const full = path.join(dir, name);
    const st = fs.lstatSync(full);
    const content = st.isSymbolicLink()
      ? `-> ${fs.readlinkSync(full)}`
      : st.isFile()
        ? createHash('sha1').update(fs.readFileSync(full)).digest('hex')
        : '';
    out[name] = `${st.mode.toString(8)} ${st.uid}:${st.gid} ${st.size} ${st.mtimeMs} ${content}`;
  }
  return out;
}

/** Runs `command` and says whether it worked (chattr, mount: not on every machine). */
const tryRun = (command: string, args: string[]) => spawnSync(command, args, { stdio: 'ignore' }).status === 0;

describe('hardening: nothing --fix or -o writes can hurt', function () {
  this.timeout(180_000);

  it('links planted at every temporary name a write could use, at the definition, the report and the cache change nothing outside the workspace', function () {
    if (!linux) this.skip();
    const home = temps.dir('subagents-home-');
    for (const f of ['bashrc', 'report', 'cache']) fs.writeFileSync(path.join(home, f), `${f} of the user\n`);
    fs.writeFileSync(path.join(home, 'outside.md'), MISNAMED());
    const ws = temps.workspace({ [`${DEFS}/x.md`]: MISNAMED() });
    fs.symlinkSync(path.join(home, 'outside.md'), path.join(ws, DEFS, 'y.md'));
    fs.symlinkSync(path.join(home, 'report'), path.join(ws, 'report.sarif'));
    fs.symlinkSync(path.join(home, 'cache'), path.join(ws, '.subagentscache'));
    // Every process id this machine can give (the old names were `.<base>.<pid>.tmp`), for each file written.
    const pidMax = Number(fs.readFileSync('/proc/sys/kernel/pid_max', 'utf8'));
    const probe = spawnSync('true').pid;
    const [low, high] = pidMax <= 65536 ? [1, pidMax] : [probe, probe + 20_000];
    const bashrc = path.join(home, 'bashrc');
    for (let pid = low; pid <= high; pid++) {
      fs.symlinkSync(bashrc, path.join(ws, DEFS, `.x.md.${pid}.tmp`));
      fs.symlinkSync(bashrc, path.join(ws, `.report.sarif.${pid}.tmp`));
      fs.symlinkSync(bashrc, path.join(ws, `..subagentscache.${pid}.tmp`));
    }
    const before = snapshot(home);

    const fixed = cli(['check', '--fix', '--cache', '--no-global'], ws);
    const report = cli(['check', '-o', 'report.sarif', '-f', 'sarif', '--no-global'], ws);
    for (const r of [fixed, report]) assert.ok(r.pid >= low && r.pid <= high, `pid ${r.pid} among the planted names`);

    assert.deepEqual(snapshot(home), before, 'nothing outside the workspace changed');
    assert.match(fs.readFileSync(path.join(ws, DEFS, 'x.md'), 'utf8'), /^name: x$/m);
    assert.ok(fs.lstatSync(path.join(ws, DEFS, 'x.md')).isFile(), 'x.md is still a file of its own');
    // The link out is not even read (cli/roots.ts), so no fix is planned for it.
    assert.match(fixed.stderr, /y\.md: is a link to a file outside .*; it is not read/);
    assert.match(fixed.stderr, /not using the cache .*\.subagentscache: is a link to .*\/cache, outside /);
    assert.match(fixed.stderr, /applied 1 fix in 1 file\n/);
    assert.equal(fixed.code, 2, fixed.stderr); // y.md is not read: an I/O problem
    assert.equal(report.code, 2);
    assert.match(
      report.stderr,
      /^subagents: cannot write the report to report\.sarif: is a link to .*\/report, outside /m,
    );
    for (const link of ['report.sarif', '.subagentscache', `${DEFS}/y.md`])
      assert.ok(fs.lstatSync(path.join(ws, link)).isSymbolicLink(), `${link} is still a link`);
    const leftovers = fs.readdirSync(path.join(ws, DEFS)).filter((n) => !n.startsWith('.x.md.'));
    assert.deepEqual(leftovers.sort(), ['x.md', 'y.md'], 'no temporary file left');
  });

  it('a report into a folder that links out of the workspace is refused, the folder outside untouched', () => {
    const home = temps.dir();
    const ws = temps.workspace({ [`${DEFS}/x.md`]: MISNAMED() });
    fs.symlinkSync(home, path.join(ws, 'out'));
    const r = cli(['check', '-o', 'out/report.txt'], ws);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(r.stderr, `subagents: cannot write the report to out/report.txt: is in ${home}, outside ${ws}\n`);
    assert.deepEqual(fs.readdirSync(home), []);
    // Named outside the workspace, the same folder is the user's choice.
    assert.equal(cli(['check', '-o', path.join(home, 'report.txt')], ws).code, 1);
    assert.deepEqual(fs.readdirSync(home), ['report.txt']);
  });

  it('a fixed file keeps its mode and owner; a new report gets the default mode', () => {
    const ws = temps.workspace({ [`${DEFS}/x.md`]: MISNAMED() });
    const file = path.join(ws, DEFS, 'x.md');
    fs.chmodSync(file, 0o600);
    if (isRoot) fs.chownSync(file, 1234, 5678);
    const before = fs.statSync(file);
    const r = cli(['check', '--fix', '--no-global', '-o', 'out/report.txt'], ws);
    assert.equal(r.code, 0, r.stderr);
    const after = fs.statSync(file);
    assert.match(fs.readFileSync(file, 'utf8'), /^name: x$/m);
    assert.deepEqual([after.mode & 0o7777, after.uid, after.gid], [0o600, before.uid, before.gid]);
    const umask = process.umask();
    assert.equal(fs.statSync(path.join(ws, 'out/report.txt')).mode & 0o777, 0o666 & ~umask);
  });

  it('a link to a definition inside the workspace is fixed at its target and stays a link', () => {
    const ws = temps.workspace({ 'shared/real.md': MISNAMED() });
    fs.mkdirSync(path.join(ws, DEFS), { recursive: true });
    fs.symlinkSync('../../shared/real.md', path.join(ws, DEFS, 'linked.md'));
    const r = cli(['check', '--fix', '--no-global'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readlinkSync(path.join(ws, DEFS, 'linked.md')), '../../shared/real.md');
    assert.match(fs.readFileSync(path.join(ws, 'shared/real.md'), 'utf8'), /^name: linked$/m);
  });

  it('a file with another hard link is fixed in place: both names see the fix', () => {
    const ws = temps.workspace({ [`${DEFS}/x.md`]: MISNAMED() });
    fs.linkSync(path.join(ws, DEFS, 'x.md'), path.join(ws, 'other-name.txt'));
    const r = cli(['check', '--fix', '--no-global'], ws);
    assert.equal(r.code, 0, r.stderr);
    const [a, b] = [path.join(ws, DEFS, 'x.md'), path.join(ws, 'other-name.txt')].map((f) => fs.statSync(f));
    assert.equal(a.ino, b.ino);
    assert.equal(a.nlink, 2);
    assert.match(fs.readFileSync(path.join(ws, 'other-name.txt'), 'utf8'), /^name: x$/m);
  });

  it('a writable file in a folder that takes no new file is fixed in place', function () {
    const ws = temps.workspace({ [`${DEFS}/x.md`]: MISNAMED() });
    const dir = path.join(ws, DEFS);
    // Root may write in a 0555 folder; an immutable one takes no new file from anyone.
    if (isRoot ? !tryRun('chattr', ['+i', dir]) : (fs.chmodSync(dir, 0o555), false)) this.skip();
    try {
      const inode = fs.statSync(path.join(dir, 'x.md')).ino;
      const r = cli(['check', '--fix', '--no-global'], ws);
      assert.equal(r.code, 0, r.stderr);
      assert.match(fs.readFileSync(path.join(dir, 'x.md'), 'utf8'), /^name: x$/m);
      assert.equal(fs.statSync(path.join(dir, 'x.md')).ino, inode);
    } finally {
      if (isRoot) tryRun('chattr', ['-i', dir]);
      else fs.chmodSync(dir, 0o755);
    }
  });

  it('a definition with a 250-byte file name is fixed (the temporary name is short)', () => {
    const stem = 'a'.repeat(247);
    const ws = temps.workspace({ [`${DEFS}/${stem}.md`]: MISNAMED() });
    const r = cli(['check', '--fix', '--no-global'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /applied 1 fix in 1 file\n/);
    assert.match(fs.readFileSync(path.join(ws, DEFS, `${stem}.md`), 'utf8'), new RegExp(`^name: ${stem}$`, 'm'));
  });

  it('-o writes into a character device, /proc/self/fd/1 and a FIFO with a reader, never replacing them', async function () {
    if (!linux) this.skip();
    const ws = temps.workspace({ [`${DEFS}/x.md`]: MISNAMED() });
    const plain = cli(['check', '--no-global', '-f', 'json'], ws);
    // Through a pipe (Node gives a child a socket, which cannot be opened by path).
    const viaProc = cli(['check', '--no-global', '-f', 'json', '-o', '/proc/self/fd/1'], ws, {
      shell: '"$@" | cat; exit ${PIPESTATUS[0]}',
    });
    assert.equal(viaProc.stdout, plain.stdout, 'the report went to standard output');
    assert.equal(viaProc.code, 1);

    const fifo = path.join(ws, 'report.fifo');
    spawnSync('mkfifo', [fifo]);
    const noReader = cli(['check', '--no-global', '-o', 'report.fifo'], ws);
    assert.equal(noReader.code, 2);
    assert.match(noReader.stderr, /cannot write the report to report\.fifo: is a named pipe with no reader/);
    const received = path.join(ws, 'received.json');
    const reader = spawn('sh', ['-c', 'cat report.fifo > received.json'], { cwd: ws });
    const done = new Promise((resolve) => reader.on('exit', resolve));
    // The reader opens the pipe when it starts: until then a writer finds none.
    let r: Run | undefined;
    for (let i = 0; i < 100 && (!r || /no reader/.test(r.stderr)); i++) {
      if (r) await new Promise((resolve) => setTimeout(resolve, 50));
      r = cli(['check', '--no-global', '-f', 'json', '-o', 'report.fifo'], ws);
    }
    await done;
    assert.equal(r!.code, 1, r!.stderr);
    assert.equal(fs.readFileSync(received, 'utf8'), plain.stdout);
    assert.ok(fs.lstatSync(fifo).isFIFO(), 'still a FIFO');

    if (!isRoot) return; // making a device needs root; the FIFO took the same path
    const device = path.join(ws, 'null');
    if (!tryRun('mknod', [device, 'c', '1', '3'])) return;
    const intoDevice = cli(['check', '--no-global', '-o', 'null'], ws);
    assert.equal(intoDevice.code, 1, intoDevice.stderr);
    assert.ok(fs.lstatSync(device).isCharacterDevice(), 'still a device');
  });

  it('a file changed on disk between the read and the write is skipped with a message, whenever the change comes', () => {
    const hook = path.join(temps.dir('subagents-hook-'), 'edit-meanwhile.js');
    // Edits the target once: when the write looks at it (the first `lstat` after the target was opened
    // for reading: the read guard of cli/roots.ts looks at every definition too, but before it is read;
    // not found by a function name in the stack, which a minified bundle renames) or makes its
    // temporary file (O_EXCL).
    fs.writeFileSync(
      hook,
      `const fs = require('fs'); const path = require('path');
const target = process.env.EDIT_TARGET; let done = false, read = false;
const edit = () => { if (!done) { done = true; fs.appendFileSync(target, 'Edited meanwhile.\\n'); } };
const lstat = fs.lstatSync, open = fs.openSync;
fs.lstatSync = function (file) { if (process.env.EDIT_WHEN === 'lstat' && file === target && read) edit(); return lstat.apply(this, arguments); };
fs.openSync = function (file, flags) {
  if (file === target && typeof flags === 'number' && (flags & 3) === fs.constants.O_RDONLY) read = true;
  if (process.env.EDIT_WHEN === 'temp' && typeof flags === 'number' && flags & fs.constants.O_EXCL && path.dirname(file) === path.dirname(target)) edit();
  return open.apply(this, arguments);
};
`,
    );
    for (const when of ['lstat', 'temp']) {
      const ws = temps.workspace({ [`${DEFS}/x.md`]: MISNAMED(), [`${DEFS}/y.md`]: MISNAMED() });
      const target = path.join(ws, DEFS, 'x.md');
      const r = cli(['check', '--fix', '--no-global'], ws, {
        nodeArgs: ['--require', hook],
        env: { EDIT_TARGET: target, EDIT_WHEN: when },
      });
      assert.match(r.stderr, /x\.md: fixes not written: changed on disk since it was read\n/, when);
      assert.match(r.stderr, /applied 1 fix in 1 file; 1 file not written\n/, when);
      assert.equal(fs.readFileSync(target, 'utf8'), MISNAMED() + 'Edited meanwhile.\n', `${when}: the edit is kept`);
      assert.match(fs.readFileSync(path.join(ws, DEFS, 'y.md'), 'utf8'), /^name: y$/m);
      assert.equal(r.code, 1, `${when}: x.md's problem is left, nothing failed`);
    }
  });

  it('a write the system refuses (file size limit, immutable file, no space) exits 2, names the file and leaves it whole', function () {
    if (!linux) this.skip();
    // Past 1 KiB the file size limit refuses the write; the small file is written.
    const big = MISNAMED('Body.\n'.repeat(300));
    const cases: { label: string; setup(file: string): boolean; shell?: string; undo?(file: string): void }[] = [
      { label: 'file size limit', setup: () => true, shell: 'ulimit -f 1; exec "$@"' },
      {
        label: 'immutable file',
        setup: (file) => isRoot && tryRun('chattr', ['+i', file]),
        undo: (file) => tryRun('chattr', ['-i', file]),
      },
    ];
    let ran = 0;
    for (const c of cases) {
      const ws = temps.workspace({ [`${DEFS}/small.md`]: MISNAMED(), [`${DEFS}/big.md`]: big });
      const file = path.join(ws, DEFS, 'big.md');
      if (!c.setup(file)) continue;
      ran++;
      try {
        const r = cli(['check', '--fix', '--no-global'], ws, { shell: c.shell });
        assert.equal(r.code, 2, `${c.label}: ${r.stderr}`);
        assert.match(r.stderr, /big\.md: fixes not written: \S/, c.label);
        assert.match(r.stderr, /applied 1 fix in 1 file; 1 file not written\n/, c.label);
        assert.equal(fs.readFileSync(file, 'utf8'), big, `${c.label}: big.md is whole`);
        assert.match(fs.readFileSync(path.join(ws, DEFS, 'small.md'), 'utf8'), /^name: small$/m);
      } finally {
        c.undo?.(file);
      }
    }
    assert.ok(ran >= 1);
    if (ran < cases.length) this.skip(); // the immutable case needs root and chattr: reported pending
  });

  it('no space left: exit 2, the file named and left whole (a small tmpfs, root only)', function () {
    if (!linux || !isRoot) this.skip();
    const mount = temps.dir('subagents-tmpfs-');
    if (!tryRun('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mount])) this.skip();
    try {
      const ws = temps.workspace({ [`${DEFS}/x.md`]: MISNAMED() }, path.join(mount, 'ws'));
      // Fill the file system: the fix's new file finds no block.
      const fill = fs.openSync(path.join(mount, 'fill'), 'w');
      try {
        for (;;) fs.writeSync(fill, Buffer.alloc(4096));
      } catch (e) {
        assert.equal((e as NodeJS.ErrnoException).code, 'ENOSPC');
      } finally {
        fs.closeSync(fill);
      }
      const r = cli(['check', '--fix', '--no-global'], ws);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /x\.md: fixes not written: no space left on the device\n/);
      assert.match(r.stderr, /applied 0 fixes in 0 files; 1 file not written\n/);
      assert.equal(fs.readFileSync(path.join(ws, DEFS, 'x.md'), 'utf8'), MISNAMED());
    } finally {
      tryRun('umount', [mount]);
    }
  });
});
