/**
 * The launcher's code cache on disk (cli/code-cache.ts), in the test process: the folder is used
 * only when it is the user's own and nobody else can write to it, a cache file is read only when
 * it is a regular file of sane size whose digests hold, and a write never leaves a temporary file.
 * test/cli-code-cache.test.ts runs the launcher itself as a process.
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { cacheFolder, DIGEST_BYTES, MAX_CACHE_BYTES, readCache, sha256, writeCache } from '../cli/code-cache';
import { Temps } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

const uid = process.getuid?.() ?? null;
const posix = process.platform !== 'win32';
const KEY = sha256('the bundle');
const DATA = Buffer.from('V8 code cache bytes');

describe('the code cache folder', () => {
  it('is made once in the base folder, readable and writable by its owner alone', function () {
    if (!posix) this.skip();
    const base = temps.dir();
    const dir = cacheFolder(base, uid);
    assert.equal(dir, path.join(base, `subagents-code-cache-${uid}`));
    assert.equal(fs.statSync(dir!).mode & 0o777, 0o700);
    assert.equal(cacheFolder(base, uid), dir, 'the same folder again');
    assert.equal(cacheFolder(base, null), path.join(base, 'subagents-code-cache-user'), 'without a user id');
  });

  it('is not used when others can write to it, another user owns it, or it is no folder', function () {
    if (!posix) this.skip();
    const base = temps.dir();
    const dir = cacheFolder(base, uid)!;
    for (const mode of [0o720, 0o702, 0o777]) {
      fs.chmodSync(dir, mode);
      assert.equal(cacheFolder(base, uid), undefined, mode.toString(8));
    }
    fs.chmodSync(dir, 0o750);
    assert.equal(cacheFolder(base, uid), dir, 'group may read');
    assert.equal(cacheFolder(base, uid! + 1), undefined, 'owned by another user');
    assert.equal(cacheFolder(base, null), path.join(base, 'subagents-code-cache-user'), 'no owner to compare');
    const linked = temps.dir();
    fs.symlinkSync(temps.dir(), path.join(linked, `subagents-code-cache-${uid}`));
    assert.equal(cacheFolder(linked, uid), undefined, 'a link to a folder');
    const file = temps.dir();
    fs.writeFileSync(path.join(file, `subagents-code-cache-${uid}`), '');
    assert.equal(cacheFolder(file, uid), undefined, 'a file');
  });
});

describe('the code cache file', () => {
  it('gives back what was written for the same key, and nothing for another', () => {
    const file = path.join(temps.dir(), 'cli.v8');
    writeCache(file, KEY, DATA);
    const bytes = fs.readFileSync(file);
    assert.deepEqual(bytes, Buffer.concat([KEY, sha256(DATA), DATA]));
    if (posix) assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(readCache(file, KEY), DATA);
    assert.equal(readCache(file, sha256('another bundle')), undefined);
    assert.equal(readCache(path.join(path.dirname(file), 'missing.v8'), KEY), undefined);
    // Written again over the old one.
    writeCache(file, KEY, Buffer.from('newer'));
    assert.deepEqual(readCache(file, KEY), Buffer.from('newer'));
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['cli.v8'], 'no temporary file left');
  });

  it('is not used when damaged, truncated or empty of data', () => {
    const dir = temps.dir();
    const good = Buffer.concat([KEY, sha256(DATA), DATA]);
    const cases: [string, Buffer][] = [
      ['data changed', Buffer.concat([KEY, sha256(DATA), Buffer.from('V8 code cache bytez')])],
      ['digest changed', Buffer.concat([KEY, sha256('other'), DATA])],
      ['no data', Buffer.concat([KEY, sha256(Buffer.alloc(0))])],
      ['digests cut', good.subarray(0, DIGEST_BYTES + 5)],
      ['empty', Buffer.alloc(0)],
    ];
    for (const [what, bytes] of cases) {
      const file = path.join(dir, `${what}.v8`);
      fs.writeFileSync(file, bytes);
      assert.equal(readCache(file, KEY), undefined, what);
    }
    const one = path.join(dir, 'one byte of data.v8');
    fs.writeFileSync(one, Buffer.concat([KEY, sha256('x'), Buffer.from('x')]));
    assert.deepEqual(readCache(one, KEY), Buffer.from('x'));
  });

  it('is read only as a regular file of sane size: not through a link, not a FIFO, not a huge file', function () {
    if (!posix) this.skip();
    const dir = temps.dir();
    const real = path.join(dir, 'real.v8');
    writeCache(real, KEY, DATA);
    const link = path.join(dir, 'link.v8');
    fs.symlinkSync(real, link);
    assert.equal(readCache(link, KEY), undefined, 'a link, even to a good cache');
    const fifo = path.join(dir, 'fifo.v8');
    if (spawnSync('mkfifo', [fifo]).status === 0) assert.equal(readCache(fifo, KEY), undefined, 'a FIFO');
    const huge = path.join(dir, 'huge.v8');
    fs.writeFileSync(huge, Buffer.concat([KEY, sha256(DATA), DATA]));
    fs.truncateSync(huge, MAX_CACHE_BYTES + 1);
    assert.equal(readCache(huge, KEY), undefined, 'larger than the limit');
    const edge = path.join(dir, 'edge.v8');
    const data = Buffer.alloc(MAX_CACHE_BYTES - 2 * DIGEST_BYTES, 7);
    writeCache(edge, KEY, data);
    assert.equal(readCache(edge, KEY)?.length, data.length, 'exactly the limit');
  });

  it('a write that cannot land leaves nothing behind and throws nothing', () => {
    const dir = temps.dir();
    const target = path.join(dir, 'taken.v8');
    fs.mkdirSync(target); // renaming a file over a folder fails
    writeCache(target, KEY, DATA);
    assert.deepEqual(fs.readdirSync(dir), ['taken.v8']);
    assert.ok(fs.statSync(target).isDirectory());
    writeCache(path.join(dir, 'no-such-folder', 'x.v8'), KEY, DATA);
    assert.deepEqual(fs.readdirSync(dir), ['taken.v8']);
  });
});
