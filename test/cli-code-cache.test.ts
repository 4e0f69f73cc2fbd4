/**
 * dist/cli.js runs the CLI's bundle with a V8 code cache (cli/launch.ts): the first run
 * writes it, the next ones use it without writing, and a missing, damaged, stale or
 * rejected cache, or a folder others could write to, never changes what the CLI prints.
 */
import { strict as assert } from 'assert';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { Temps, VALID_POLYTOKEN, type Run } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

const FILES = {
  '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer'),
  '.polytoken/subagents/wrong.md': VALID_POLYTOKEN('other'),
};

const folderName = `subagents-code-cache-${typeof process.getuid === 'function' ? process.getuid() : 'user'}`;

describe('the V8 code cache of dist/cli.js', function () {
  this.timeout(60000);
  const ws = temps.workspace(FILES);
  /** A run with its own temporary folder (TMPDIR), where the launcher keeps its cache. */
  const run = (tmp: string, nodeArgs: string[] = []): Run =>
    temps.run(['check', '-f', 'json'], ws, { env: { TMPDIR: tmp }, nodeArgs });
  const cacheFiles = (tmp: string) => {
    const dir = path.join(tmp, folderName);
    return fs.existsSync(dir) ? fs.readdirSync(dir).map((f) => path.join(dir, f)) : [];
  };
  const expected = run(temps.dir('subagents-tmp-'));

  it('is written by the first run and used, unchanged, by the next', () => {
    const tmp = temps.dir('subagents-tmp-');
    assert.deepEqual(cacheFiles(tmp), []);
    const first = run(tmp);
    assert.deepEqual([first.code, first.stdout, first.stderr], [expected.code, expected.stdout, expected.stderr]);
    assert.equal(expected.code, 1, 'wrong.md has an error');
    const [file] = cacheFiles(tmp);
    assert.equal(cacheFiles(tmp).length, 1);
    assert.equal(fs.statSync(path.join(tmp, folderName)).mode & 0o777, 0o700, 'the folder is the user’s alone');
    const bytes = fs.readFileSync(file);
    // Two sha256 (what it was made for, the V8 data), then the V8 data.
    assert.ok(createHash('sha256').update(bytes.subarray(64)).digest().equals(bytes.subarray(32, 64)));
    const mtime = fs.statSync(file).mtimeMs;
    const second = run(tmp);
    assert.deepEqual([second.code, second.stdout, second.stderr], [expected.code, expected.stdout, expected.stderr]);
    assert.ok(fs.readFileSync(file).equals(bytes), 'an accepted cache is not written again');
    assert.equal(fs.statSync(file).mtimeMs, mtime);
  });

  it('a damaged, truncated, stale or rejected cache is not used and is written anew', () => {
    const tmp = temps.dir('subagents-tmp-');
    run(tmp);
    const [file] = cacheFiles(tmp);
    const good = fs.readFileSync(file);
    const flipped = Buffer.from(good);
    flipped[flipped.length - 100] ^= 0xff; // the V8 data no longer matches its digest
    const stale = Buffer.from(good);
    stale[0] ^= 0xff; // made for another bundle or Node
    const variants: [string, Buffer, string[]?][] = [
      ['empty', Buffer.alloc(0)],
      ['garbage', Buffer.from('not a code cache at all, but long enough to hold two digests and some more bytes')],
      ['truncated', good.subarray(0, good.length >> 1)],
      ['flipped', flipped],
      ['stale', stale],
      // V8 rejects a cache made under other flags.
      ['rejected', good, ['--stack-size=900']],
    ];
    for (const [name, bytes, nodeArgs] of variants) {
      fs.writeFileSync(file, bytes);
      const r = run(tmp, nodeArgs);
      assert.deepEqual([r.code, r.stdout, r.stderr], [expected.code, expected.stdout, expected.stderr], name);
      const rewritten = fs.readFileSync(file);
      assert.ok(!rewritten.equals(bytes), `${name}: written anew`);
      assert.ok(createHash('sha256').update(rewritten.subarray(64)).digest().equals(rewritten.subarray(32, 64)), name);
    }
  });

  it('a folder others could write to, or no folder at all, means no cache, and the same output', function () {
    if (process.platform === 'win32') this.skip();
    const tmp = temps.dir('subagents-tmp-');
    const dir = path.join(tmp, folderName);
    fs.mkdirSync(dir);
    fs.chmodSync(dir, 0o777);
    const open = run(tmp);
    assert.deepEqual([open.code, open.stdout, open.stderr], [expected.code, expected.stdout, expected.stderr]);
    assert.deepEqual(fs.readdirSync(dir), [], 'nothing written into a folder others can write to');
    // A file where the temporary folder should be.
    const blocker = path.join(temps.dir('subagents-tmp-'), 'file');
    fs.writeFileSync(blocker, '');
    const none = run(blocker);
    assert.deepEqual([none.code, none.stdout, none.stderr], [expected.code, expected.stdout, expected.stderr]);
  });
});
