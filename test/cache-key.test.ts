/**
 * cli/batch/cache-key.ts on its own: where the key that signs `check --cache` files lives, how it
 * is made, and every key or folder that is refused (then no cache is used, with one reason).
 */
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { userCacheFolder, userCacheKey } from '../cli/batch/cache-key';

describe('the cache key', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-key-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const keyFolder = () => path.join(dir, 'subagents');
  const keyFile = () => path.join(keyFolder(), 'check-cache.key');
  const env = () => ({ XDG_CACHE_HOME: dir });
  const problemOf = (e: NodeJS.ProcessEnv) => {
    const answer = userCacheKey(e);
    assert.ok('problem' in answer, 'a key was given');
    return answer.problem;
  };

  it('lives in $XDG_CACHE_HOME/subagents when it is absolute, else ~/.cache/subagents', () => {
    assert.equal(userCacheFolder({ XDG_CACHE_HOME: '/x/cache', HOME: '/h' }), '/x/cache/subagents');
    assert.equal(userCacheFolder({ XDG_CACHE_HOME: 'relative', HOME: '/h' }), '/h/.cache/subagents');
    if (process.platform !== 'win32') {
      // LOCALAPPDATA is Windows' only.
      assert.equal(userCacheFolder({ LOCALAPPDATA: '/appdata', HOME: '/h' }), '/h/.cache/subagents');
      assert.equal(userCacheFolder({ HOME: 'relative/home' }), undefined);
    }
  });

  it('is made once: 32 random bytes, readable by the user alone, no temporary file left', () => {
    const first = userCacheKey(env());
    assert.ok('key' in first, JSON.stringify(first));
    assert.equal(first.key.length, 32);
    assert.deepEqual(fs.readdirSync(keyFolder()), ['check-cache.key']);
    if (process.platform !== 'win32') {
      assert.equal(fs.statSync(keyFile()).mode & 0o777, 0o600);
      assert.equal(fs.statSync(keyFolder()).mode & 0o777, 0o700);
    }
    const again = userCacheKey(env());
    assert.ok('key' in again && again.key.equals(first.key), 'the same key the next time');
  });

  it('refuses a key that is a link, not a regular file, readable by others or of the wrong size', function () {
    if (process.platform === 'win32') this.skip();
    fs.mkdirSync(keyFolder(), { mode: 0o700 });
    const elsewhere = path.join(dir, 'elsewhere.key');
    fs.writeFileSync(elsewhere, Buffer.alloc(32, 1), { mode: 0o600 });
    fs.symlinkSync(elsewhere, keyFile());
    assert.equal(problemOf(env()), `cannot read its key ${keyFile()}: is a link`);
    fs.rmSync(keyFile());
    fs.mkdirSync(keyFile());
    assert.equal(problemOf(env()), `its key ${keyFile()} is not a regular file`);
    fs.rmdirSync(keyFile());
    fs.writeFileSync(keyFile(), Buffer.alloc(32, 1), { mode: 0o644 });
    fs.chmodSync(keyFile(), 0o644);
    assert.equal(problemOf(env()), `its key ${keyFile()} can be read by others`);
    fs.chmodSync(keyFile(), 0o600);
    fs.writeFileSync(keyFile(), Buffer.alloc(31, 1));
    assert.equal(problemOf(env()), `its key ${keyFile()} is not 32 bytes long`);
    fs.writeFileSync(keyFile(), Buffer.alloc(32, 7));
    const kept = userCacheKey(env());
    assert.ok('key' in kept && kept.key.equals(Buffer.alloc(32, 7)), 'a good key is used as it is');
  });

  it('a FIFO in place of the key is refused, not waited on; every file it opens is closed', function () {
    if (process.platform === 'win32') this.skip();
    const fds = fs.existsSync('/proc/self/fd') ? '/proc/self/fd' : '/dev/fd';
    const open = () => fs.readdirSync(fds).length;
    const before = open();
    for (let i = 0; i < 10; i++) {
      const answer = userCacheKey({ XDG_CACHE_HOME: path.join(dir, `fresh-${i}`) }); // made
      assert.ok('key' in answer && 'key' in userCacheKey({ XDG_CACHE_HOME: path.join(dir, `fresh-${i}`) })); // read
    }
    assert.equal(open(), before);
    fs.mkdirSync(keyFolder(), { mode: 0o700 });
    execFileSync('mkfifo', ['-m', '600', keyFile()]);
    assert.equal(problemOf(env()), `its key ${keyFile()} is not a regular file`);
    assert.equal(open(), before);
  });

  it('refuses a key folder others can write to, or one that is not a folder; says so when there is no HOME', function () {
    if (process.platform === 'win32') this.skip();
    fs.mkdirSync(keyFolder(), { mode: 0o700 });
    fs.chmodSync(keyFolder(), 0o777);
    assert.equal(problemOf(env()), `others can write to its key folder ${keyFolder()}`);
    assert.equal(fs.existsSync(keyFile()), false, 'no key written there');
    fs.rmdirSync(keyFolder());
    fs.symlinkSync(dir, keyFolder());
    assert.equal(problemOf(env()), `its key folder ${keyFolder()} is not a folder`);
    fs.rmSync(keyFolder());
    fs.writeFileSync(path.join(dir, 'file'), '');
    assert.match(
      problemOf({ XDG_CACHE_HOME: path.join(dir, 'file') }),
      /^cannot make its key folder .*file\/subagents: /,
    );
    assert.equal(problemOf({ HOME: 'relative' }), 'no cache folder for its key (HOME is not set)');
  });
});
