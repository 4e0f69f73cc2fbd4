/**
 * The `check --cache` file is hostile input (it sits in the working tree, where a repository
 * can commit one): a forged cache, signed with anything but the user's own key, gives the
 * report of a run without cache; a forged configuration entry crashes nothing; a cache that
 * is a link to /dev/zero, a FIFO or a huge sparse file is passed over at once. The key: made
 * 0600 in the user's cache folder; one that is a link, readable by others or not the user's
 * is not used, and without a usable folder (HOME unwritable) there is no cache, with a note.
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import { createHash, createHmac, randomBytes } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { CLI, CLI_IN_PROCESS, runCli, Temps, VALID_POLYTOKEN } from '../support/cli';

const temps = new Temps();
after(() => temps.remove());
const linux = process.platform === 'linux';

/** Three definitions with an error each (a name that is not the file's) and one without. */
const FILES = {
  '.subagents.yaml': 'rules:\n  polytoken/unknown-tool: warning\n',
  '.polytoken/subagents/a.md': VALID_POLYTOKEN('other-a'),
  '.polytoken/subagents/b.md': VALID_POLYTOKEN('other-b'),
  '.polytoken/subagents/c.md': VALID_POLYTOKEN('other-c'),
  '.polytoken/subagents/good.md': VALID_POLYTOKEN('good'),
};

/** The CLI as a process with a time limit (a hang fails the test); its `main` in the test process in the mutation run (CLI_IN_PROCESS). */
function cli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const whole = { ...process.env, XDG_CONFIG_HOME: temps.xdg, XDG_CACHE_HOME: temps.xdgCache, ...env };
  if (CLI_IN_PROCESS) return runCli(args, { cwd, env: whole });
  const r = spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: 'utf8', timeout: 30_000, env: whole });
  assert.ok(!r.error, `the CLI did not finish: ${r.error}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const ONE_NOTE = /^subagents: ignoring the cache .*: [^\n]*; it will be rebuilt\n$/;

/** A workspace checked once with `--cache`: its report without cache, the cache as parsed, and the key that signs it. */
function withCache() {
  const ws = temps.workspace(FILES);
  const plain = cli(['check', '-f', 'json'], ws);
  cli(['check', '--cache'], ws);
  const cacheFile = path.join(ws, '.subagentscache');
  const real = fs.readFileSync(cacheFile, 'utf8');
  const doc = JSON.parse(real.slice(real.indexOf('\n') + 1));
  const key = fs.readFileSync(path.join(temps.xdgCache, 'subagents', 'check-cache.key'));
  return { ws, plain, cacheFile, doc, key };
}

describe('hardening: the cache file is hostile input', function () {
  this.timeout(120_000);

  it('a forged cache (the old format, a wrong or missing signature) gives the report of a run without cache', () => {
    const ws = temps.workspace(FILES);
    const plain = cli(['check', '-f', 'json'], ws);
    assert.equal(plain.code, 1);
    assert.equal(JSON.parse(plain.stdout).summary.errors, 3);
    cli(['check', '--cache'], ws);
    const cacheFile = path.join(ws, '.subagentscache');
    const real = fs.readFileSync(cacheFile, 'utf8');
    // The forgery: every file reported clean.
    const doc = JSON.parse(real.slice(real.indexOf('\n') + 1));
    for (const entry of Object.values(doc.files) as unknown[][]) entry[2] = [];
    const json = JSON.stringify(doc);
    const sha = (text: string) => createHash('sha256').update(text).digest('base64');
    const hmac = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64');
    const forgeries = {
      'the format before signatures': `${sha(JSON.stringify({ ...doc, format: 7 }))}\n${JSON.stringify({ ...doc, format: 7 })}`,
      'a plain digest': `${sha(json)}\n${json}`,
      'another key': `${hmac(randomBytes(32), json)}\n${json}`,
      'no signature': json,
      'an empty signature': `\n${json}`,
    };
    for (const [label, forged] of Object.entries(forgeries)) {
      fs.writeFileSync(cacheFile, forged);
      const r = cli(['check', '--cache', '-f', 'json'], ws);
      assert.equal(r.stdout, plain.stdout, label);
      assert.equal(r.code, 1, label);
      assert.match(r.stderr, ONE_NOTE, label);
      assert.match(r.stderr, /is not signed with your key/, label);
    }
  });

  it('a configuration entry not as this checker writes it crashes nothing, even signed with the right key', () => {
    const { ws, plain, cacheFile, doc, key } = withCache();
    const [configPath] = Object.keys(doc.configs);
    const [hash] = doc.configs[configPath];
    // A configuration entry is its text's hash alone (the configuration is parsed again every run).
    const bad = [
      {},
      [],
      [42],
      [hash, { config: { polytoken: null } }],
      [hash, hash],
      // JSON.parse makes `__proto__` an own key (an object literal would set the prototype).
      JSON.parse(`{"__proto__":{"polluted":true},"0":${JSON.stringify(hash)}}`),
    ];
    for (const entry of bad) {
      const json = JSON.stringify({ ...doc, configs: { [configPath]: entry } });
      if (entry === bad.at(-1)) assert.match(json, /"__proto__":\{"polluted":true\}/);
      for (const signature of [createHmac('sha256', key).update(json).digest('base64'), 'forged']) {
        fs.writeFileSync(cacheFile, `${signature}\n${json}`);
        const r = cli(['check', '--cache', '-f', 'json'], ws);
        const label = `${JSON.stringify(entry).slice(0, 60)} ${signature.length}`;
        assert.equal(r.stdout, plain.stdout, label);
        assert.equal(r.code, 1, label);
        assert.match(r.stderr, ONE_NOTE, label);
        assert.doesNotMatch(r.stderr, /\n\s+at |TypeError|Cannot read/, label);
      }
    }
  });

  it('each part not as this checker writes it, even signed with your key, is named and the cache rebuilt', () => {
    const { ws, plain, cacheFile, doc, key } = withCache();
    const signed = (d: unknown) => {
      const json = JSON.stringify(d);
      return `${createHmac('sha256', key).update(json).digest('base64')}\n${json}`;
    };
    // The file with a diagnostic that carries data (a fix), and that diagnostic.
    const [withData] = Object.keys(doc.files).filter((f) => doc.files[f][2].some((d: unknown[]) => d.length === 8));
    assert.ok(withData, JSON.stringify(doc.files));
    const at = doc.files[withData][2].findIndex((d: unknown[]) => d.length === 8);
    type Doc = typeof doc;
    /** A copy of the cache with one file entry changed by `change`. */
    const entry = (change: (e: unknown[]) => void) => (d: Doc) => change(d.files[withData]);
    const diagnostic = (change: (d: unknown[]) => void) => entry((e) => change((e[2] as unknown[][])[at]));
    const cases: [string, (d: Doc) => void][] = [
      ['layout', (d) => (d.extra = 1)],
      ['list of contexts', (d) => (d.contexts = [1])],
      ['list of contexts', (d) => (d.contexts = 'context')],
      ['list of same-name groups', (d) => (d.groups = { 'polytoken a': 1 })],
      ['list of configurations', (d) => (d.configs = { x: ['a', 'b'] })],
      ['list of files', (d) => (d.files = [])],
      ['list of files', entry((e) => e.splice(2))],
      ['list of files', entry((e) => (e.splice(3), e.push(null, [1, 2, 3, 4, 5], 'more')))],
      ['list of files', entry((e) => (e[0] = 5))],
      ['list of files', entry((e) => (e[1] = doc.contexts.length))],
      ['list of files', entry((e) => (e[1] = -1))],
      ['list of files', entry((e) => (e[2] = {}))],
      ['list of files', entry((e) => (e[3] = 5))],
      ['list of files', entry((e) => ((e[3] = null), (e[4] = 'stamp')))],
      ['list of files', diagnostic((d) => d.splice(6))],
      ['list of files', diagnostic((d) => d.push('more'))],
      ['list of files', diagnostic((d) => (d[0] = -1))],
      ['list of files', diagnostic((d) => (d[3] = 1.5))],
      ['list of files', diagnostic((d) => (d[4] = 5))],
      ['list of files', diagnostic((d) => (d[5] = 5))],
      ['list of files', diagnostic((d) => (d[6] = null))],
      ['list of files', diagnostic((d) => (d[7] = { fixable: false }))],
      ['list of files', diagnostic((d) => (d[7] = { tool: 1 }))],
      ['list of files', diagnostic((d) => (d[7] = { other: true }))],
      ['list of files', diagnostic((d) => (d[7] = []))],
    ];
    // Written as read, the cache is used: the changes below are what is refused.
    fs.writeFileSync(cacheFile, signed(doc));
    assert.equal(cli(['check', '--cache', '-f', 'json'], ws).stderr, '');
    for (const [part, change] of cases) {
      const copy = structuredClone(doc);
      change(copy);
      fs.writeFileSync(cacheFile, signed(copy));
      const r = cli(['check', '--cache', '-f', 'json'], ws);
      const label = `${part}: ${change}`;
      assert.equal(r.stdout, plain.stdout, label);
      assert.match(r.stderr, ONE_NOTE, label);
      assert.ok(r.stderr.includes(`its ${part} is not what this checker writes`), `${label}\n${r.stderr}`);
    }
  });

  it('a cache that is a link to /dev/zero, a FIFO or a 1.5 GB sparse file is passed over at once', function () {
    if (!linux) this.skip();
    const ws = temps.workspace(FILES);
    const plain = cli(['check', '-f', 'json'], ws);
    const cacheFile = path.join(ws, '.subagentscache');
    const same = (r: ReturnType<typeof cli>, label: string) => {
      assert.equal(r.stdout, plain.stdout, label);
      assert.equal(r.code, 1, label);
    };

    // In the workspace, a link out of it is neither read nor replaced.
    fs.symlinkSync('/dev/zero', cacheFile);
    const zero = cli(['check', '--cache', '-f', 'json'], ws);
    same(zero, 'link to /dev/zero');
    assert.equal(zero.stderr, `subagents: not using the cache ${cacheFile}: is a link to /dev/zero, outside ${ws}\n`);
    assert.ok(fs.lstatSync(cacheFile).isSymbolicLink());
    fs.rmSync(cacheFile);

    // A path the user gives outside the workspace is followed: the device is opened, seen and refused.
    const outside = path.join(temps.dir('subagents-cache-outside-'), 'zero.cache');
    fs.symlinkSync('/dev/zero', outside);
    const device = cli(['check', '--cache', '--cache-location', outside, '-f', 'json'], ws);
    same(device, 'a user path to /dev/zero');
    assert.match(device.stderr, ONE_NOTE);
    assert.match(device.stderr, /is a character device, not a regular file/);

    spawnSync('mkfifo', [cacheFile]);
    const fifo = cli(['check', '--cache', '-f', 'json'], ws);
    same(fifo, 'FIFO');
    assert.match(fifo.stderr, /ignoring the cache .*: is a named pipe, not a regular file; it will be rebuilt\n/);
    assert.match(fifo.stderr, /cannot write the cache .*: is a named pipe with no reader\n/);
    assert.ok(fs.lstatSync(cacheFile).isFIFO(), 'a special file is written into, never replaced');
    fs.rmSync(cacheFile);

    fs.closeSync(fs.openSync(cacheFile, 'w'));
    fs.truncateSync(cacheFile, 1536 * 1024 * 1024);
    const huge = cli(['check', '--cache', '-f', 'json'], ws);
    same(huge, 'sparse');
    assert.match(huge.stderr, ONE_NOTE);
    assert.match(huge.stderr, /is 1536\.0 MB, above the 64 MB limit/);
    assert.ok(fs.statSync(cacheFile).size < 64 * 1024, 'rebuilt');
  });

  it('the key is made 0600 in a 0700 folder; a key that is a link, readable by others or not yours is not used', () => {
    const ws = temps.workspace(FILES);
    const plain = cli(['check', '-f', 'json'], ws);
    const xdg = temps.dir('subagents-key-');
    const env = { XDG_CACHE_HOME: xdg };
    const dir = path.join(xdg, 'subagents');
    const keyFile = path.join(dir, 'check-cache.key');
    const cacheFile = path.join(ws, '.subagentscache');
    assert.equal(cli(['check', '--cache', '-f', 'json'], ws, env).stdout, plain.stdout);
    assert.equal(fs.statSync(dir).mode & 0o777, 0o700);
    assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
    assert.equal(fs.statSync(keyFile).size, 32);
    assert.deepEqual(fs.readdirSync(dir), ['check-cache.key'], 'no temporary file left');

    const key = fs.readFileSync(keyFile);
    const refused = (label: string, mention: RegExp, setup: () => void, undo: () => void) => {
      setup();
      try {
        fs.rmSync(cacheFile, { force: true });
        const r = cli(['check', '--cache', '-f', 'json'], ws, env);
        assert.equal(r.stdout, plain.stdout, label);
        assert.equal(r.code, 1, label);
        assert.match(r.stderr, /^subagents: not using the cache: [^\n]*\n$/, label);
        assert.match(r.stderr, mention, label);
        assert.ok(!fs.existsSync(cacheFile), `${label}: no cache written`);
      } finally {
        undo();
      }
    };
    const restore = () => {
      fs.rmSync(keyFile, { force: true });
      fs.writeFileSync(keyFile, key, { mode: 0o600 });
      fs.chmodSync(dir, 0o700);
    };
    refused('group-readable', /its key .* can be read by others/, () => fs.chmodSync(keyFile, 0o640), restore);
    refused(
      'a link',
      /its key .* is a link/,
      () => {
        const elsewhere = path.join(temps.dir('subagents-key-elsewhere-'), 'key');
        fs.writeFileSync(elsewhere, key, { mode: 0o600 });
        fs.rmSync(keyFile);
        fs.symlinkSync(elsewhere, keyFile);
      },
      restore,
    );
    refused('short', /is not 32 bytes long/, () => fs.writeFileSync(keyFile, 'short'), restore);
    refused('folder writable by others', /others can write to its key folder/, () => fs.chmodSync(dir, 0o770), restore);
    if (process.geteuid?.() === 0) {
      refused('not yours', /its key .* is not yours/, () => fs.chownSync(keyFile, 1234, 1234), restore);
      refused(
        'folder not yours',
        /its key folder .* is not yours/,
        () => fs.chownSync(dir, 1234, 1234),
        () => {
          fs.chownSync(dir, 0, 0);
          restore();
        },
      );
    }
    // HOME unusable: no folder for the key, so no cache, and no crash.
    refused(
      'HOME is a file',
      /cannot make its key folder \/dev\/null\/\.cache\/subagents/,
      () => Object.assign(env, { XDG_CACHE_HOME: '', HOME: '/dev/null' }),
      () => Object.assign(env, { XDG_CACHE_HOME: xdg, HOME: process.env.HOME }),
    );
    // The same key is used again: a warm run reuses what the first run wrote.
    cli(['check', '--cache'], ws, env);
    assert.equal(cli(['check', '--cache', '-f', 'json'], ws, env).stderr, '');
    assert.deepEqual(fs.readFileSync(keyFile), key);
  });
});
