/**
 * `subagents check --cache`: the second run on an unchanged workspace prints the same
 * bytes without analyzing anything again; a change of content, configuration or
 * same-name Polytoken definitions is seen; a broken cache is ignored and rewritten.
 */
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import { createHash, createHmac } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { CLI_IN_PROCESS, Temps, VALID_PICASSO, VALID_POLYTOKEN } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

const FILES = {
  '.subagents.yaml': 'polytoken:\n  subagentDirs: [vendor/agents]\n',
  '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer'),
  '.polytoken/subagents/wrong.md': VALID_POLYTOKEN('other'),
  '.polytoken/subagents/typo.md': VALID_POLYTOKEN('typo', '[file_raed]'),
  // Its name-mismatch message holds characters past ASCII (the cache file escapes them).
  '.polytoken/subagents/accent.md': VALID_POLYTOKEN('café_😀'),
  'vendor/agents/helper.md': VALID_POLYTOKEN('helper'),
  'apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
  'experts/bad.expert.json': '{ "name": "bad", ',
};

/**
 * Runs the CLI with every opening of a file for reading counted. Without cache a definition
 * is opened once (read and analyzed); with a cache, once to hash it, and once more only
 * when it is analyzed.
 */
function runWatched(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) {
  const dir = temps.dir('subagents-watch-');
  const log = path.join(dir, 'opens.log');
  const hook = path.join(dir, 'watch-opens.js');
  fs.writeFileSync(
    hook,
    `const fs = require('fs'); const open = fs.openSync;
fs.openSync = function (file, flags) {
  const reading = flags === undefined || flags === 'r' || (typeof flags === 'number' && (flags & 3) === fs.constants.O_RDONLY);
  if (reading && typeof file === 'string') fs.appendFileSync(${JSON.stringify(log)}, file + '\\n');
  return open.apply(this, arguments);
};
`,
  );
  const r = CLI_IN_PROCESS
    ? watchedInProcess(args, cwd, env, log)
    : temps.run(args, cwd, { env, nodeArgs: ['--require', hook] });
  const opens = new Map<string, number>();
  for (const line of fs.existsSync(log) ? fs.readFileSync(log, 'utf8').split('\n').filter(Boolean) : []) {
    const rel = path.relative(cwd, line).split(path.sep).join('/');
    opens.set(rel, (opens.get(rel) ?? 0) + 1);
  }
  const isDefinition = (p: string) => /(\.md|\.json|agents\/[^/]+\.yaml)$/.test(p);
  const analyzed = [...opens].filter(([p, n]) => isDefinition(p) && n >= 2).map(([p]) => p);
  const hashed = [...opens.keys()];
  return { ...r, analyzed: analyzed.sort(), hashed: hashed.sort() };
}

type Hooked = 'openSync' | 'statSync';

/**
 * Runs `run` with `fs.openSync` and `fs.statSync` of the module itself wrapped: `note` sees each
 * call's arguments first. For the CLI run in the test process (the mutation run), where a
 * process would take the same hook by `--require`.
 */
function withFsHooks<T>(note: (call: Hooked, args: unknown[]) => void, run: () => T): T {
  // The module itself: `fs` here is TypeScript's copy of its bindings, which cannot be assigned.
  const nodeFs = require('fs') as Record<Hooked, (...args: unknown[]) => unknown>;
  const saved = { openSync: nodeFs.openSync, statSync: nodeFs.statSync };
  for (const call of ['openSync', 'statSync'] as const)
    nodeFs[call] = function (this: unknown, ...args: unknown[]) {
      note(call, args);
      return saved[call].apply(this, args);
    };
  try {
    return run();
  } finally {
    Object.assign(nodeFs, saved);
  }
}

/** runWatched's hook, for the CLI run in the test process: the same log, the same rule. */
function watchedInProcess(args: string[], cwd: string, env: NodeJS.ProcessEnv, log: string) {
  return withFsHooks(
    (call, [file, flags]) => {
      const reading =
        flags === undefined || flags === 'r' || (typeof flags === 'number' && (flags & 3) === fs.constants.O_RDONLY);
      if (call === 'openSync' && reading && typeof file === 'string') fs.appendFileSync(log, file + '\n');
    },
    () => temps.run(args, cwd, { env }),
  );
}

/**
 * The workspace's files a run opened: besides them, the CLI opens its bundle, its code cache,
 * the cache's key, the cache file and its folder (to flush the rename of a new cache).
 */
const inWorkspace = (opened: string[]) =>
  opened.filter((f) => f !== '.subagentscache' && f !== '' && !f.startsWith('../'));

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Every file of a workspace changed an hour from now: no run reads one two seconds after its last
 * change, so none is ever stamped (file-digest.ts) and an analyzed file is always opened twice,
 * however slow the machine. For the tests about what a change invalidates, not about stamps.
 */
function neverStamped(ws: string): string {
  const future = new Date(Date.now() + 3600_000);
  for (const name of fs.readdirSync(ws, { recursive: true }) as string[])
    fs.utimesSync(path.join(ws, name), future, future);
  return ws;
}

/** A whole second: utimes can put it back exactly (not a sub-millisecond mtime). */
const PINNED = new Date('2024-01-01T00:00:00Z');
const pinMtime = (file: string) => fs.utimesSync(file, PINNED, PINNED);

/** Rewrites a file (its mtime pinned) with other bytes of the same size and pins its mtime again: only its ctime tells. */
function sameSizeEdit(file: string, from: string, to: string): void {
  const before = fs.statSync(file);
  assert.equal(before.mtimeMs, PINNED.getTime());
  const text = fs.readFileSync(file, 'utf8');
  assert.equal(from.length, to.length);
  assert.ok(text.includes(from), from);
  fs.writeFileSync(file, text.replace(from, to));
  pinMtime(file);
  const after = fs.statSync(file);
  assert.deepEqual([after.size, after.mtimeMs, after.ino], [before.size, before.mtimeMs, before.ino]);
}

const DEFINITIONS = Object.keys(FILES)
  .filter((f) => f !== '.subagents.yaml')
  .sort();
/** Every checked file: the definitions and the configuration found on the way. */
const CHECKED = Object.keys(FILES).sort();

describe('check --cache', function () {
  this.timeout(120000);

  it('a second run on an unchanged workspace prints the same bytes and analyzes none; files written just before are read again', () => {
    const ws = temps.workspace(FILES);
    for (const format of ['text', 'json', 'sarif', 'github']) {
      const plain = temps.run(['check', '-f', format], ws);
      fs.rmSync(path.join(ws, '.subagentscache'), { force: true });
      // Written again, as if just before the run: their mtimes ahead of the clock, so however loaded the
      // machine no run reads them two seconds after their last change, and they get no stamp.
      neverStamped(temps.workspace(FILES, ws));
      const cold = runWatched(['check', '--cache', '-f', format], ws);
      assert.deepEqual(cold.analyzed, DEFINITIONS, 'the first run analyzes everything');
      const warm = runWatched(['check', '--cache', '-f', format], ws);
      for (const r of [cold, warm]) {
        assert.equal(r.stdout, plain.stdout, format);
        assert.equal(r.code, plain.code);
        assert.equal(r.stderr, plain.stderr);
      }
      assert.deepEqual(warm.analyzed, [], `nothing analyzed on the second run (${format})`);
      // Besides the workspace, the CLI opens its own bundle and code cache.
      assert.deepEqual(inWorkspace(warm.hashed), CHECKED, 'every file is still read');
    }
    const cacheBytes = fs.readFileSync(path.join(ws, '.subagentscache'));
    assert.ok(
      cacheBytes.every((b) => b < 0x80),
      'the cache file is ASCII',
    );
    assert.match(cacheBytes.toString(), /caf\\u00e9_\\ud83d\\ude00/);
    assert.match(temps.run(['check', '--cache', '-f', 'json'], ws).stdout, /café_😀/);
  });

  it('a file last changed two seconds before a run read it is not read again while its stamp holds; a same-size edit that puts the mtime back is seen', () => {
    const ws = temps.workspace(FILES);
    pinMtime(path.join(ws, '.polytoken/subagents/typo.md'));
    sleep(2100);
    runWatched(['check', '--cache'], ws);
    const warm = runWatched(['check', '--cache', '-f', 'json'], ws);
    const expected = temps.run(['check', '-f', 'json'], ws).stdout;
    assert.equal(warm.stdout, expected);
    // The configuration is read for its settings (its parse comes from the cache).
    assert.deepEqual(inWorkspace(warm.hashed), ['.subagents.yaml'], 'no definition is read');
    sameSizeEdit(path.join(ws, '.polytoken/subagents/typo.md'), 'file_raed', 'file_read');
    const edited = runWatched(['check', '--cache', '-f', 'json'], ws);
    assert.deepEqual(edited.analyzed, ['.polytoken/subagents/typo.md']);
    assert.equal(edited.stdout, temps.run(['check', '-f', 'json'], ws).stdout);
    assert.notEqual(edited.stdout, expected, 'the typo is gone');
  });

  it('marks each phase in order (the names docs/performance.md reads): a cold run records and writes the cache, a warm one ends with the restore', () => {
    const ws = neverStamped(temps.workspace(FILES));
    const MARKS = Symbol.for('subagents.phaseMarks');
    const phases = () => {
      const marks: [string, NodeJS.CpuUsage][] = [];
      Reflect.set(globalThis, MARKS, marks);
      try {
        temps.runInTestProcess(['check', '--cache', '-f', 'json'], ws);
      } finally {
        Reflect.deleteProperty(globalThis, MARKS);
      }
      return marks.map(([phase]) => phase);
    };
    const run = ['walk', 'config.parse', 'walk', 'walk', 'stamps', 'analysis', 'restore'];
    const end = ['analysis', 'report', 'output'];
    assert.deepEqual(phases(), ['start', ...run, 'record', 'serialize', 'write', ...end]);
    const cache = ['cache.read', 'cache.verify', 'cache.parse', 'cache.check'];
    // Nothing changed: nothing to record or write.
    assert.deepEqual(phases(), ['start', ...cache, ...run, ...end]);
  });

  it('after a fresh checkout (most stamps fail) each file is opened at once, no stat first; a same-size edit is still seen', () => {
    const files: Record<string, string> = { '.subagents.yaml': FILES['.subagents.yaml'] };
    const names = Array.from({ length: 40 }, (_, i) => `agent-${String(i).padStart(2, '0')}`);
    for (const [i, name] of names.entries())
      files[`.polytoken/subagents/${name}.md`] = VALID_POLYTOKEN(name, i % 5 ? undefined : '[file_raed]');
    const ws = temps.workspace(files);
    const definition = (name: string) => path.join(ws, `.polytoken/subagents/${name}.md`);
    for (const file of Object.keys(files)) pinMtime(path.join(ws, file));
    sleep(2100);
    // Both runs in one kind of checker (processes, or the test process), so the cache is reused.
    temps.run(['check', '--cache'], ws, CLI_IN_PROCESS ? {} : { nodeArgs: [] });
    // The first 30 get new times with the same bytes; of the last ten, which keep theirs, two are edited (same size).
    const now = new Date();
    for (const name of names.slice(0, 30)) fs.utimesSync(definition(name), now, now);
    sameSizeEdit(definition('agent-35'), 'file_raed', 'file_read');
    sameSizeEdit(definition('agent-36'), 'grep]', 'grap]');
    sleep(2100);
    // Counts the stat calls and the openings of each definition.
    const dir = temps.dir('subagents-watch-');
    const log = path.join(dir, 'calls.log');
    const hook = path.join(dir, 'watch.js');
    fs.writeFileSync(
      hook,
      `const fs = require('fs'); const { statSync, openSync } = fs;
const note = (what, file) => typeof file === 'string' && file.endsWith('.md') && fs.appendFileSync(${JSON.stringify(log)}, what + ' ' + file + '\\n');
fs.statSync = function (file) { note('stat', file); return statSync.apply(this, arguments); };
fs.openSync = function (file) { note('open', file); return openSync.apply(this, arguments); };
`,
    );
    const args = ['check', '--cache', '-f', 'json'];
    const r = CLI_IN_PROCESS
      ? withFsHooks(
          (call, [file]) =>
            typeof file === 'string' &&
            file.endsWith('.md') &&
            fs.appendFileSync(log, `${call === 'openSync' ? 'open' : 'stat'} ${file}\n`),
          () => temps.run(args, ws),
        )
      : temps.run(args, ws, { nodeArgs: ['--require', hook] });
    assert.equal(r.stdout, temps.run(['check', '-f', 'json'], ws).stdout);
    assert.match(r.stdout, /grap/);
    const calls = fs.readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const count = (what: string, name: string) => calls.filter((c) => c === `${what} ${definition(name)}`).length;
    const analyzed = names.filter((name) => count('open', name) === 2);
    assert.deepEqual(analyzed, ['agent-35', 'agent-36'], 'only the edited files are analyzed');
    assert.ok(
      names.every((name) => count('open', name) >= 1),
      'each file is opened, its stamp compared with the open file',
    );
    const stats = calls.filter((c) => c.startsWith('stat ')).length;
    // The first 16 stamps tried all failed, so from then on each file is opened at once.
    assert.equal(stats, 16, 'a stat for the first 16 stamps, then none');
  });

  it('a same-size edit in the second the file was read, the mtime put back, is seen: the file had no stamp', () => {
    // The other files are never stamped either, however slow the first run is to read them (a loaded machine).
    const ws = neverStamped(temps.workspace(FILES));
    pinMtime(path.join(ws, '.polytoken/subagents/typo.md'));
    runWatched(['check', '--cache'], ws);
    sameSizeEdit(path.join(ws, '.polytoken/subagents/typo.md'), 'file_raed', 'file_read');
    const edited = runWatched(['check', '--cache', '-f', 'json'], ws);
    assert.deepEqual(
      inWorkspace(edited.hashed),
      CHECKED,
      'files changed less than two seconds before they were read are read again',
    );
    assert.deepEqual(edited.analyzed, ['.polytoken/subagents/typo.md']);
    assert.equal(edited.stdout, temps.run(['check', '-f', 'json'], ws).stdout);
    assert.doesNotMatch(edited.stdout, /file_raed/);
  });

  it('a changed file is analyzed again, and only it', () => {
    const ws = temps.workspace(FILES);
    runWatched(['check', '--cache'], ws);
    fs.writeFileSync(path.join(ws, '.polytoken/subagents/wrong.md'), VALID_POLYTOKEN('wrong'));
    const r = runWatched(['check', '--cache', '-f', 'json'], ws);
    assert.deepEqual(r.analyzed, ['.polytoken/subagents/wrong.md']);
    assert.equal(r.stdout, temps.run(['check', '-f', 'json'], ws).stdout);
  });

  it('a changed configuration, or another --config, makes every file it covers be analyzed again', () => {
    const ws = neverStamped(temps.workspace(FILES));
    runWatched(['check', '--cache'], ws);
    fs.appendFileSync(path.join(ws, '.subagents.yaml'), 'rules:\n  polytoken/unknown-tool: off\n');
    const r = runWatched(['check', '--cache', '-f', 'json'], ws);
    assert.deepEqual(r.analyzed, DEFINITIONS);
    assert.equal(r.stdout, temps.run(['check', '-f', 'json'], ws).stdout);
    fs.writeFileSync(path.join(ws, 'other.yaml'), 'rules:\n  polytoken/name-mismatch: warning\n');
    const other = runWatched(['check', '--cache', '--config', 'other.yaml', '-f', 'json'], ws);
    const expected = temps.run(['check', '--config', 'other.yaml', '-f', 'json'], ws).stdout;
    // Without subagentDirs, vendor/agents/helper.md is no definition.
    assert.deepEqual(
      other.analyzed,
      DEFINITIONS.filter((f) => !f.startsWith('vendor/')),
    );
    assert.equal(other.stdout, expected);
  });

  it('an unchanged file is checked again when a same-name Polytoken definition appears or goes', () => {
    const ws = neverStamped(temps.workspace(FILES));
    const first = runWatched(['check', '--cache', '-f', 'json'], ws);
    assert.doesNotMatch(first.stdout, /polytoken\/shadowed/);
    // A project definition named `helper` now shadows the unchanged vendor/agents/helper.md.
    fs.writeFileSync(path.join(ws, '.polytoken/subagents/helper.md'), VALID_POLYTOKEN('helper'));
    const added = runWatched(['check', '--cache', '-f', 'json'], ws);
    assert.deepEqual(added.analyzed, ['.polytoken/subagents/helper.md', 'vendor/agents/helper.md']);
    assert.match(added.stdout, /polytoken\/shadowed/);
    assert.equal(added.stdout, temps.run(['check', '-f', 'json'], ws).stdout);
    // Renamed inside (same path, other name): the vendor file is no longer shadowed.
    fs.writeFileSync(path.join(ws, '.polytoken/subagents/helper.md'), VALID_POLYTOKEN('renamed'));
    const renamed = runWatched(['check', '--cache', '-f', 'json'], ws);
    assert.deepEqual(renamed.analyzed, ['.polytoken/subagents/helper.md', 'vendor/agents/helper.md']);
    assert.doesNotMatch(renamed.stdout, /polytoken\/shadowed/);
    assert.equal(renamed.stdout, temps.run(['check', '-f', 'json'], ws).stdout);
  });

  it('a reused report follows the group of its name as definitions of that name come, go and are swapped in one step', () => {
    const ws = temps.workspace({
      '.subagents.yaml': 'polytoken:\n  subagentDirs: [vendor/agents, vendor2/agents]\n',
      'vendor/agents/helper.md': VALID_POLYTOKEN('helper'),
    });
    const project = path.join(ws, '.polytoken/subagents/helper.md');
    const vendor2 = path.join(ws, 'vendor2/agents/helper.md');
    const same = (step: string) => {
      const cached = temps.run(['check', '--cache', '-f', 'json'], ws);
      assert.equal(cached.stdout, temps.run(['check', '-f', 'json'], ws).stdout, step);
      return cached.stdout;
    };
    same('alone');
    // A later folder's definition shadows it; its own path still sorts first of the two.
    fs.mkdirSync(path.dirname(vendor2), { recursive: true });
    fs.writeFileSync(vendor2, VALID_POLYTOKEN('helper'));
    assert.match(same('shadowed by a later folder'), /polytoken\/shadowed/);
    fs.rmSync(vendor2);
    same('alone again');
    fs.mkdirSync(path.dirname(project), { recursive: true });
    fs.writeFileSync(project, VALID_POLYTOKEN('helper'));
    assert.match(same('shadowed by the project'), /polytoken\/shadowed/);
    // One definition of the name goes and another comes in the same step: two paths either way.
    fs.rmSync(project);
    fs.writeFileSync(vendor2, VALID_POLYTOKEN('helper'));
    same('swapped');
    fs.writeFileSync(project, VALID_POLYTOKEN('helper'));
    same('three');
    fs.rmSync(vendor2);
    same('two again');
  });

  it('a corrupt, truncated, unsigned, foreign or hand-edited cache is ignored (with a note) and written anew', () => {
    const ws = temps.workspace(FILES);
    const expected = temps.run(['check', '-f', 'json'], ws).stdout;
    const cacheFile = path.join(ws, '.subagentscache');
    runWatched(['check', '--cache'], ws);
    // The file is a signature line (HMAC-SHA256 with the user's key), then the JSON.
    const good = fs.readFileSync(cacheFile, 'utf8');
    const json = good.slice(good.indexOf('\n') + 1);
    const key = fs.readFileSync(path.join(temps.xdgCache, 'subagents', 'check-cache.key'));
    // The JSON is written as ASCII: characters past it are escaped.
    const ascii = (text: string) =>
      text.replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const signed = (json: string) => `${createHmac('sha256', key).update(json).digest('base64')}\n${json}`;
    const withSignature = (doc: unknown) => signed(ascii(JSON.stringify(doc)));
    assert.equal(withSignature(JSON.parse(json)), good, 'the first line signs the rest');
    const edited = JSON.parse(json);
    for (const entry of Object.values(edited.files) as unknown[][]) entry[2] = [{ range: null, message: 7 }];
    // A stored diagnostic is [startLine, startCharacter, endLine, endCharacter, severity, rule, message].
    const damaged = good.replace(/,1,"syntax\/json"/, ',2,"syntax/json"');
    assert.notEqual(damaged, good);
    const unsigned = /is not signed with your key/;
    const unlike = (part: string) => new RegExp(`its ${part} is not what this checker writes`);
    const variants: [string, RegExp | undefined][] = [
      ['', unsigned],
      ['not json', unsigned],
      [good.slice(0, good.length / 2), unsigned],
      [json, unsigned],
      ['null\nnull', unsigned],
      [damaged, unsigned],
      // The format before signatures: a plain sha256 of the JSON.
      [`${createHash('sha256').update(json).digest('base64')}\n${json}`, unsigned],
      ['\u0000\u0001', unsigned],
      [signed('not json'), /is not JSON/],
      [withSignature(null), undefined],
      [withSignature([]), undefined],
      [withSignature({ ...JSON.parse(json), files: 7 }), unlike('list of files')],
      [withSignature(edited), unlike('list of files')],
      [withSignature({ ...JSON.parse(json), extra: 1 }), unlike('layout')],
      // This user's own cache from another build: rebuilt without a word.
      [withSignature({ ...JSON.parse(json), checker: 'some other build' }), undefined],
      [withSignature({ ...JSON.parse(json), format: 7 }), undefined],
    ];
    for (const [variant, note] of variants) {
      fs.writeFileSync(cacheFile, variant);
      const r = runWatched(['check', '--cache', '-f', 'json'], ws);
      const label = variant.slice(0, 40);
      if (note) {
        assert.match(r.stderr, /^subagents: ignoring the cache .*\.subagentscache: .*; it will be rebuilt\n$/, label);
        assert.match(r.stderr, note, label);
      } else assert.equal(r.stderr, '', label);
      assert.equal(r.stdout, expected, label);
      assert.deepEqual(r.analyzed, DEFINITIONS, `nothing reused from ${label}`);
      const rewritten = fs.readFileSync(cacheFile, 'utf8');
      assert.equal(withSignature(JSON.parse(rewritten.slice(rewritten.indexOf('\n') + 1))), rewritten, 'signed');
      assert.deepEqual(
        Object.keys(JSON.parse(rewritten.slice(rewritten.indexOf('\n') + 1)).files).length,
        CHECKED.length,
        'rewritten',
      );
    }
    // A file where the cache's folder should be: one warning line, the check itself unchanged.
    fs.writeFileSync(path.join(ws, 'blocker'), '');
    const blocked = temps.run(['check', '--cache', '--cache-location', 'blocker/cache.json', '-f', 'json'], ws);
    assert.equal(blocked.stdout, expected);
    assert.equal(blocked.code, 1);
    assert.match(blocked.stderr, /^subagents: cannot write the cache .*blocker\/cache\.json: .*\n$/);
  });

  it('a definition replaced by a named pipe is reported as without cache, and nothing hangs', function () {
    if (process.platform === 'win32') this.skip();
    // Named on the command line (a walk passes over pipes): first an empty file, then a pipe.
    const ws = temps.workspace({ ...FILES, 'experts/empty.expert.json': '' });
    const args = ['check', 'experts', '-f', 'json'];
    runWatched([...args, '--cache'], ws);
    fs.rmSync(path.join(ws, 'experts/empty.expert.json'));
    execFileSync('mkfifo', [path.join(ws, 'experts/empty.expert.json')]);
    const cached = temps.run([...args, 'experts/empty.expert.json', '--cache'], ws);
    const plain = temps.run([...args, 'experts/empty.expert.json'], ws);
    assert.equal(cached.code, 2);
    assert.match(cached.stderr, /experts\/empty\.expert\.json: is a named pipe/);
    assert.deepEqual([cached.stdout, cached.stderr], [plain.stdout, plain.stderr]);
  });

  it('--cache-location: a file, or a folder to hold .subagentscache; it needs --cache', () => {
    const ws = temps.workspace(FILES);
    fs.mkdirSync(path.join(ws, 'cache-dir'));
    temps.run(['check', '--cache', '--cache-location', 'cache-dir'], ws);
    assert.ok(fs.statSync(path.join(ws, 'cache-dir', '.subagentscache')).isFile());
    temps.run(['check', '--cache', '--cache-location', 'my.cache'], ws);
    assert.ok(fs.statSync(path.join(ws, 'my.cache')).isFile());
    temps.run(['check', '--cache', '--cache-location', '.cache/subagents/'], ws);
    assert.ok(
      fs.statSync(path.join(ws, '.cache', 'subagents', '.subagentscache')).isFile(),
      'missing folders are made',
    );
    assert.ok(!fs.existsSync(path.join(ws, '.subagentscache')));
    const warm = runWatched(['check', '--cache', '--cache-location', 'my.cache'], ws);
    assert.deepEqual(warm.analyzed, []);
    const r = temps.run(['check', '--cache-location', 'my.cache'], ws);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--cache-location needs --cache/);
  });

  it('--cache-strategy content: every file read and hashed, no stamp kept, the cache not rewritten when nothing changed', () => {
    const ws = temps.workspace(FILES);
    for (const file of Object.keys(FILES)) pinMtime(path.join(ws, file));
    // Settled: a metadata run would now stamp every file and skip reading it next time.
    sleep(2100);
    const args = ['check', '--cache', '--cache-strategy', 'content', '-f', 'json'];
    const plain = temps.run(['check', '-f', 'json'], ws);
    const cold = runWatched(args, ws);
    assert.deepEqual(cold.analyzed, DEFINITIONS);
    const cacheFile = path.join(ws, '.subagentscache');
    const written = fs.statSync(cacheFile);
    const warm = runWatched(args, ws);
    assert.deepEqual([warm.stdout, warm.code], [plain.stdout, plain.code]);
    assert.deepEqual(warm.analyzed, []);
    assert.deepEqual(inWorkspace(warm.hashed), CHECKED, 'every file is read again: no stamp answers for one');
    const after = fs.statSync(cacheFile);
    assert.deepEqual([after.ino, after.mtimeMs], [written.ino, written.mtimeMs], 'nothing changed: not rewritten');
    sameSizeEdit(path.join(ws, '.polytoken/subagents/typo.md'), 'file_raed', 'file_read');
    const edited = runWatched(args, ws);
    assert.deepEqual(edited.analyzed, ['.polytoken/subagents/typo.md']);
    assert.equal(edited.stdout, temps.run(['check', '-f', 'json'], ws).stdout);
    // The default strategy on the same cache learns the stamps: the next run reads no definition but the one
    // just edited (which may be too fresh for a stamp).
    runWatched(['check', '--cache', '-f', 'json'], ws);
    const read = inWorkspace(runWatched(['check', '--cache', '-f', 'json'], ws).hashed);
    assert.deepEqual(
      read.filter((f) => f !== '.polytoken/subagents/typo.md'),
      ['.subagents.yaml'],
    );
    // ...which a content run does not trust.
    assert.deepEqual(inWorkspace(runWatched(args, ws).hashed), CHECKED);
    for (const [given, message] of [
      [['--cache', '--cache-strategy', 'fast'], /--cache-strategy is metadata or content, not "fast"/],
      [['--cache-strategy', 'content'], /--cache-strategy needs --cache/],
    ] as const) {
      const r = temps.run(['check', ...given], ws);
      assert.equal(r.code, 2);
      assert.match(r.stderr, message);
    }
  });

  it('SUBAGENTS_MARKS=1: one line of CPU time per phase on stderr at exit, the report unchanged', () => {
    const ws = temps.workspace(FILES);
    const args = ['check', '--cache', '-f', 'json'];
    temps.run(args, ws);
    // As a process: the marks start in the launcher (dist/cli.js), which the in-process runner skips.
    const plain = temps.run(args, ws, { nodeArgs: [] });
    assert.equal(plain.stderr, '');
    const marked = temps.run(args, ws, { env: { SUBAGENTS_MARKS: '1' }, nodeArgs: [] });
    assert.equal(marked.stdout, plain.stdout);
    const line = /^subagents: CPU ms by phase: (\{.*\})\n$/.exec(marked.stderr);
    assert.ok(line, marked.stderr);
    const phases = JSON.parse(line[1]) as Record<string, number>;
    for (const phase of ['launch.compile', 'cache.parse', 'cache.check', 'walk', 'stamps', 'report', 'output'])
      assert.ok(Number.isFinite(phases[phase]) && phases[phase] >= 0, `${phase}: ${line[1]}`);
  });
});
