/**
 * cli/batch/file-digest.ts on its own: what a stamp holds, when a file has one (its last change
 * settled two seconds before the read), that a stamp answers only while every one of its fields
 * holds, and the files it refuses. The clock is the test's: `Date.now` is moved instead of waiting.
 */
import { strict as assert } from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fileDigest, isStamp, type Stamp } from '../cli/batch/file-digest';
import { MAX_FILE_BYTES } from '../shared';

const sha = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('base64');

describe('the cache: a file digest and its stamp', () => {
  let dir: string;
  const realNow = Date.now;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-digest-'))));
  afterEach(() => {
    Date.now = realNow;
    fs.rmSync(dir, { recursive: true, force: true });
  });
  /** Reads as if `ms` after the file's last change (ctime and mtime both). */
  const readLater = (file: string, ms: number) => {
    const stat = fs.statSync(file);
    const at = Math.max(stat.ctimeMs, stat.mtimeMs) + ms;
    Date.now = () => at;
  };
  const file = (name: string, text: string | Buffer) => {
    const p = path.join(dir, name);
    fs.writeFileSync(p, text);
    return p;
  };

  it('a file settled two seconds before the read gets its stamp: size, mtime, ctime, inode, device', () => {
    const p = file('a.md', 'hello');
    readLater(p, 2001);
    const stat = fs.statSync(p);
    assert.deepEqual(fileDigest(p), {
      hash: sha('hello'),
      stamp: [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, stat.dev],
    });
  });

  it('a file changed in the two seconds before the read gets none, by its ctime or by its mtime', () => {
    const p = file('a.md', 'hello');
    Date.now = realNow;
    assert.deepEqual(fileDigest(p), { hash: sha('hello') }, 'just written');
    // The mtime put back a minute (the ctime is then now): the ctime decides; exactly two seconds is not settled.
    const past = new Date(realNow() - 60_000);
    fs.utimesSync(p, past, past);
    const ctime = fs.statSync(p).ctimeMs;
    Date.now = () => ctime + 2000;
    assert.deepEqual(fileDigest(p), { hash: sha('hello') }, 'ctime on the edge');
    Date.now = () => ctime + 2001;
    assert.ok(fileDigest(p)?.stamp, 'ctime settled');
    // An mtime in the future (ctime settled): not settled until two seconds past it.
    const future = new Date(ctime + 60_000);
    fs.utimesSync(p, future, future);
    const stat = fs.statSync(p);
    Date.now = () => stat.ctimeMs + 10_000;
    assert.deepEqual(fileDigest(p), { hash: sha('hello') }, 'mtime ahead of the clock');
    Date.now = () => stat.mtimeMs + 2000;
    assert.deepEqual(fileDigest(p), { hash: sha('hello') }, 'mtime on the edge');
    Date.now = () => stat.mtimeMs + 2001;
    assert.ok(fileDigest(p)?.stamp, 'settled past both');
  });

  it('a known stamp answers, unread, only while each of its five fields holds; the same when the file is opened first', () => {
    const p = file('a.md', 'hello');
    readLater(p, 5000);
    const stamp = fileDigest(p)!.stamp!;
    for (const openFirst of [false, true]) {
      const known = { hash: 'not-the-hash', stamp };
      assert.equal(fileDigest(p, known, openFirst), known, `holds (openFirst ${openFirst})`);
      for (let i = 0; i < 5; i++) {
        const other = [...stamp] as Stamp;
        other[i] += 1;
        assert.equal(
          fileDigest(p, { hash: 'not-the-hash', stamp: other }, openFirst)?.hash,
          sha('hello'),
          `field ${i}`,
        );
      }
    }
    // Gone, below a file, or no longer a regular file: no answer, whatever the stamp said.
    assert.equal(fileDigest(path.join(p, 'below'), { hash: 'x', stamp }), undefined);
    fs.rmSync(p);
    assert.equal(fileDigest(p, { hash: 'x', stamp }), undefined);
    fs.mkdirSync(p);
    assert.equal(fileDigest(p, { hash: 'x', stamp }), undefined);
    assert.equal(fileDigest(p, { hash: 'x', stamp }, true), undefined);
  });

  it('hashes a file of several reads whole, up to the size limit, and refuses one past it', () => {
    const big = Buffer.alloc(65536 + 10, 'a');
    big[big.length - 1] = 0x62;
    assert.equal(fileDigest(file('big.md', big))?.hash, sha(big));
    const exact = file('exact.md', '');
    fs.truncateSync(exact, MAX_FILE_BYTES);
    assert.equal(fileDigest(exact)?.hash, sha(Buffer.alloc(MAX_FILE_BYTES)));
    fs.truncateSync(exact, MAX_FILE_BYTES + 1);
    assert.equal(fileDigest(exact), undefined);
  });

  it('closes every file it opens', () => {
    const p = file('a.md', 'hello');
    const fds = fs.existsSync('/proc/self/fd') ? '/proc/self/fd' : '/dev/fd';
    const open = () => fs.readdirSync(fds).length;
    const before = open();
    for (let i = 0; i < 20; i++) fileDigest(p);
    fs.mkdirSync(path.join(dir, 'folder'));
    for (let i = 0; i < 20; i++) fileDigest(path.join(dir, 'folder'));
    assert.equal(open(), before);
  });

  it('a stamp read back from a cache file is five finite numbers', () => {
    assert.ok(isStamp([1, 2, 3, 4, 5]));
    assert.ok(!isStamp([1, 2, 3, 4, 5, 6]));
    assert.ok(!isStamp([1, 2, 3, 4]));
    for (let i = 0; i < 5; i++) {
      const s: unknown[] = [1, 2, 3, 4, 5];
      s[i] = i % 2 ? Infinity : '1';
      assert.ok(!isStamp(s), `field ${i}`);
    }
    assert.ok(!isStamp({ length: 5 }));
  });
});
