/**
 * cli/batch/safe-write.ts on its own, in the test process: what each kind of target becomes
 * (a new file, a replaced one, a link in or out of the allowed folders, a folder, a FIFO, a
 * socket, a device, a file with other hard links, one changed since it was read) and the exact
 * reason given when nothing is written. test/hardening/writes.test.ts runs the same through the CLI.
 */
import { strict as assert } from 'assert';
import { spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as net from 'net';
import * as path from 'path';
import { createFileExclusively, isInside, landingOf, writeFileSafely } from '../cli/batch/safe-write';
import { Temps } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

const posix = process.platform !== 'win32';
const linux = process.platform === 'linux';

/** A fresh allowed folder and its WritePlace. */
function place() {
  const root = temps.dir();
  return { root, place: { roots: [root] } };
}

describe('safe writes: where a write lands', () => {
  it('inside any of the roots, the roots themselves included', () => {
    assert.equal(isInside(['/a', '/b'], '/b/x.md'), true);
    assert.equal(isInside(['/a', '/b'], '/b'), true);
    assert.equal(isInside(['/a', '/b'], '/c/x.md'), false);
    assert.equal(isInside(['/a'], '/ab/x.md'), false);
  });

  it('a missing folder is made only when asked, inside the roots', () => {
    const { root, place: p } = place();
    const file = path.join(root, 'new/deeper/x.md');
    assert.deepEqual(landingOf(file, p), { failed: `no such folder: ${path.join(root, 'new')}` });
    assert.deepEqual(writeFileSafely(file, 'x', p), {
      status: 'failed',
      reason: `no such folder: ${path.join(root, 'new')}`,
    });
    assert.deepEqual(landingOf(file, p, true), { path: file });
    assert.ok(fs.statSync(path.join(root, 'new/deeper')).isDirectory());
    assert.deepEqual(writeFileSafely(path.join(root, 'other/x.md'), 'x', p, { makeFolders: true }), {
      status: 'written',
      path: path.join(root, 'other/x.md'),
      how: 'created',
    });
  });

  it('through a link: at its target inside the roots, nowhere outside them or when it leads nowhere', () => {
    const { root, place: p } = place();
    const outside = temps.dir();
    fs.writeFileSync(path.join(root, 'real.md'), 'old');
    fs.symlinkSync('real.md', path.join(root, 'in.md'));
    fs.symlinkSync(path.join(outside, 'x.md'), path.join(root, 'dangling.md'));
    fs.writeFileSync(path.join(outside, 'far.md'), 'far');
    fs.symlinkSync(path.join(outside, 'far.md'), path.join(root, 'out.md'));
    assert.deepEqual(writeFileSafely(path.join(root, 'in.md'), 'new', p), {
      status: 'written',
      path: path.join(root, 'real.md'),
      how: 'replaced',
    });
    assert.equal(fs.readFileSync(path.join(root, 'real.md'), 'utf8'), 'new');
    assert.ok(fs.lstatSync(path.join(root, 'in.md')).isSymbolicLink(), 'the link stays');
    assert.deepEqual(writeFileSafely(path.join(root, 'dangling.md'), 'x', p), {
      status: 'skipped',
      reason: 'is a link to a missing file',
    });
    assert.deepEqual(writeFileSafely(path.join(root, 'out.md'), 'x', p), {
      status: 'skipped',
      reason: `is a link to ${path.join(outside, 'far.md')}, outside ${root}`,
    });
    assert.equal(fs.readFileSync(path.join(outside, 'far.md'), 'utf8'), 'far');
    assert.deepEqual(fs.readdirSync(outside), ['far.md'], 'nothing made outside');
    // A loop of links is a failure with its reason, not a missing file.
    fs.symlinkSync('loop2.md', path.join(root, 'loop1.md'));
    fs.symlinkSync('loop1.md', path.join(root, 'loop2.md'));
    const loop = writeFileSafely(path.join(root, 'loop1.md'), 'x', p);
    assert.deepEqual(loop, { status: 'failed', reason: 'too many levels of symbolic links' });
    // With two roots the reason names neither.
    const two = { roots: [root, temps.dir()] };
    assert.deepEqual(writeFileSafely(path.join(root, 'out.md'), 'x', two), {
      status: 'skipped',
      reason: `is a link to ${path.join(outside, 'far.md')}, outside the checked folders`,
    });
    // A path the user gave outside the roots: its links are followed.
    const mine = path.join(outside, 'mine.md');
    fs.symlinkSync('far.md', mine);
    assert.deepEqual(writeFileSafely(mine, 'yes', { roots: [root], userPathsOutside: true }), {
      status: 'written',
      path: path.join(outside, 'far.md'),
      how: 'replaced',
    });
  });
});

describe('safe writes: what each target becomes', () => {
  it('a new file is created with the default mode; a replaced one keeps its mode; no temporary file is left', function () {
    const { root, place: p } = place();
    const file = path.join(root, 'a.md');
    assert.deepEqual(writeFileSafely(file, 'one', p), { status: 'written', path: file, how: 'created' });
    const umask = process.umask();
    if (posix) assert.equal(fs.statSync(file).mode & 0o777, 0o666 & ~umask);
    fs.chmodSync(file, 0o640);
    assert.deepEqual(writeFileSafely(file, Buffer.from('two'), p), { status: 'written', path: file, how: 'replaced' });
    assert.equal(fs.readFileSync(file, 'utf8'), 'two');
    if (posix) assert.equal(fs.statSync(file).mode & 0o7777, 0o640);
    assert.deepEqual(fs.readdirSync(root), ['a.md']);
  });

  it('a folder is refused; a file with other hard links is written in place, and both names see it', () => {
    const { root, place: p } = place();
    fs.mkdirSync(path.join(root, 'dir.md'));
    assert.deepEqual(writeFileSafely(path.join(root, 'dir.md'), 'x', p), { status: 'failed', reason: 'is a folder' });
    const file = path.join(root, 'a.md');
    fs.writeFileSync(file, 'a longer old text');
    fs.linkSync(file, path.join(root, 'b.md'));
    assert.deepEqual(writeFileSafely(file, 'short', p, { expected: 'a longer old text' }), {
      status: 'written',
      path: file,
      how: 'in place',
    });
    assert.equal(fs.readFileSync(path.join(root, 'b.md'), 'utf8'), 'short', 'cut to the new length');
    assert.deepEqual(writeFileSafely(file, 'again', p, { expected: 'not what it holds' }), {
      status: 'skipped',
      reason: 'changed on disk since it was read',
    });
    assert.equal(fs.readFileSync(file, 'utf8'), 'short');
  });

  it('a file that no longer holds what was read is skipped, also when only its end changed; one deleted meanwhile too', () => {
    const { root, place: p } = place();
    const file = path.join(root, 'a.md');
    fs.writeFileSync(file, 'read');
    for (const expected of ['rea', 'read!', 'reed', ''])
      assert.deepEqual(writeFileSafely(file, 'new', p, { expected }), {
        status: 'skipped',
        reason: 'changed on disk since it was read',
      });
    assert.equal(fs.readFileSync(file, 'utf8'), 'read');
    assert.deepEqual(writeFileSafely(file, 'new', p, { expected: 'read' }), {
      status: 'written',
      path: file,
      how: 'replaced',
    });
    assert.deepEqual(writeFileSafely(path.join(root, 'gone.md'), 'x', p, { expected: 'x' }), {
      status: 'skipped',
      reason: 'deleted since it was read',
    });
    assert.equal(fs.existsSync(path.join(root, 'gone.md')), false);
  });

  it('a FIFO is written into when something reads it, else refused at once; large data waits for the reader', async function () {
    if (!linux || spawnSync('mkfifo', ['--version']).status !== 0) this.skip();
    const { root, place: p } = place();
    const fifo = path.join(root, 'pipe.md');
    spawnSync('mkfifo', [fifo]);
    assert.deepEqual(writeFileSafely(fifo, 'x', p), { status: 'failed', reason: 'is a named pipe with no reader' });
    // More than a pipe holds (64 KiB): the write waits (EAGAIN) while `cat` drains it.
    const data = Buffer.alloc(1024 * 1024, 'abcdefgh');
    // cat writes to a file: the write below blocks this thread, so nothing here could drain a pipe from cat.
    const out = path.join(temps.dir(), 'out');
    const reader = spawn('sh', ['-c', 'exec cat "$1" > "$2"', 'sh', fifo, out], { stdio: 'ignore' });
    const done = new Promise((r) => reader.on('close', r));
    let outcome;
    for (let i = 0; i < 200; i++) {
      outcome = writeFileSafely(fifo, data, p);
      if (outcome.status === 'written') break;
      await new Promise((r) => setTimeout(r, 10)); // until cat has opened it
    }
    assert.deepEqual(outcome, { status: 'written', path: fifo, how: 'into a special file' });
    await done;
    assert.ok(fs.readFileSync(out).equals(data), 'every byte, in order');
    assert.ok(fs.lstatSync(fifo).isFIFO(), 'still a FIFO');
  });

  it('a socket and a block device are refused by name; /dev/null is written into', async function () {
    if (!linux) this.skip();
    const { root, place: p } = place();
    const socket = path.join(root, 'sock.md');
    const server = net.createServer().listen(socket);
    await new Promise((r) => server.once('listening', r));
    try {
      assert.deepEqual(writeFileSafely(socket, 'x', p), { status: 'failed', reason: 'is a socket' });
    } finally {
      server.close();
    }
    const block = path.join(root, 'block.md');
    if (spawnSync('mknod', [block, 'b', '7', '200']).status === 0)
      assert.deepEqual(writeFileSafely(block, 'x', p), { status: 'failed', reason: 'is a block device' });
    assert.deepEqual(writeFileSafely('/dev/null', 'x', p), {
      status: 'written',
      path: '/dev/null',
      how: 'into a special file',
    });
    assert.equal(writeFileSafely('/dev/no-such-device', 'x', p).status, 'failed');
  });

  it('writes a regular file through /proc only by a descriptor, never by /proc/self/root or cwd', function () {
    if (!linux) this.skip();
    const { root, place: p } = place();
    const file = path.join(root, 'kept.md');
    fs.writeFileSync(file, 'before');
    const viaRoot = `/proc/self/root${fs.realpathSync(file)}`;
    assert.deepEqual(writeFileSafely(viaRoot, 'x', p), {
      status: 'failed',
      reason: 'is a regular file reached through /dev or /proc; give its own path',
    });
    assert.equal(fs.readFileSync(file, 'utf8'), 'before');
    const fd = fs.openSync(file, 'a');
    try {
      assert.deepEqual(writeFileSafely(`/proc/self/fd/${fd}`, '+', p), {
        status: 'written',
        path: `/proc/self/fd/${fd}`,
        how: 'into a special file',
      });
    } finally {
      fs.closeSync(fd);
    }
    assert.equal(fs.readFileSync(file, 'utf8'), 'before+');
  });
});

describe('safe writes: files made exclusively', () => {
  it('creates a new file, never over one that exists or a planted link, and makes folders when asked', () => {
    const { root, place: p } = place();
    const file = path.join(root, 'new.md');
    assert.deepEqual(createFileExclusively(file, 'x', p), { status: 'written', path: file, how: 'created' });
    assert.deepEqual(createFileExclusively(file, 'y', p), { status: 'failed', reason: 'already exists' });
    assert.equal(fs.readFileSync(file, 'utf8'), 'x');
    const outside = temps.dir();
    fs.symlinkSync(path.join(outside, 'target.md'), path.join(root, 'planted.md'));
    assert.deepEqual(createFileExclusively(path.join(root, 'planted.md'), 'x', p), {
      status: 'failed',
      reason: 'already exists',
    });
    assert.deepEqual(fs.readdirSync(outside), []);
    const nested = path.join(root, 'a/b/c.md');
    assert.equal(createFileExclusively(nested, 'x', p).status, 'failed');
    assert.deepEqual(createFileExclusively(nested, 'x', p, { makeFolders: true }), {
      status: 'written',
      path: nested,
      how: 'created',
    });
    // Into a folder linked out of the roots: not made.
    fs.symlinkSync(outside, path.join(root, 'away'));
    assert.deepEqual(createFileExclusively(path.join(root, 'away/x.md'), 'x', p), {
      status: 'skipped',
      reason: `is in ${outside}, outside ${root}`,
    });
    assert.deepEqual(fs.readdirSync(outside), []);
  });
});
