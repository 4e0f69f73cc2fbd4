/**
 * File names a hostile repository can hold, through the real CLI on real files: a `\` that is
 * part of a name on POSIX (never a separator), names with control characters (which must
 * never start a line of output or reach the terminal), names that are not valid UTF-8.
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';
import { CLI, git, Temps, VALID_POLYTOKEN } from '../support/cli';
import { walkFiles, type UndecodableFile, type WalkProblem } from '../../shared/node/walk';

const temps = new Temps();
after(() => temps.remove());

const posixOnly = function (this: Mocha.Context) {
  if (process.platform === 'win32') this.skip(); // `\` separates folders there: no such names
};
const linuxOnly = function (this: Mocha.Context) {
  if (process.platform !== 'linux') this.skip(); // macOS refuses names that are not UTF-8
};

const SUBAGENTS = '.polytoken/subagents';
/** A definition named `name` with one hint (an unknown tool), so every format names its file. */
const WITH_HINT = (name: string) => VALID_POLYTOKEN(name, '[file_read, no_such_tool]');
/** A YAML double-quoted scalar for `name` (backslashes and control characters escaped). */
const quoted = (name: string) => JSON.stringify(name);

/** Raw control characters (besides the line feeds that end lines): none may reach the output. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029]/;

interface JsonReport {
  files: { path: string; diagnostics: { rule: string; message: string }[] }[];
}

function json(args: string[], cwd: string): JsonReport {
  const r = temps.run(['check', ...args, '-f', 'json'], cwd);
  assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

describe('hardening: a `\\` in a file name is part of the name (POSIX)', function () {
  this.timeout(60_000);
  beforeEach(posixOnly);

  const NAMES = ['a\\b', '..\\..\\victim\\zz'];
  const files = (def: (name: string) => string) =>
    Object.fromEntries(NAMES.map((n) => [`${SUBAGENTS}/${n}.md`, def(quoted(n))]));

  it('check reports the true name in text, JSON, SARIF and GitHub annotations, with no false name mismatch', () => {
    const ws = temps.workspace(files(WITH_HINT));
    const report = json([], ws);
    assert.deepEqual(
      report.files.map((f) => f.path),
      NAMES.map((n) => `${SUBAGENTS}/${n}.md`).sort(),
    );
    for (const f of report.files)
      assert.deepEqual(
        f.diagnostics.map((d) => d.rule),
        ['polytoken/unknown-tool'],
      );

    const text = temps.run(['check'], ws).stdout;
    for (const n of NAMES) assert.match(text, new RegExp(`^${escapeRe(`${SUBAGENTS}/${n}.md`)}:5:\\d+ hint `, 'm'));
    assert.doesNotMatch(text, /name-mismatch|victim\/zz|a\/b/);

    const log = JSON.parse(temps.run(['check', '-f', 'sarif'], ws).stdout);
    const base = log.runs[0].originalUriBaseIds.SRCROOT.uri;
    const uris = log.runs[0].artifacts.map((a: { location: { uri: string } }) => a.location.uri).sort();
    assert.deepEqual(uris, [`${SUBAGENTS}/..%5C..%5Cvictim%5Czz.md`, `${SUBAGENTS}/a%5Cb.md`]);
    // Each URI, resolved against SRCROOT, is the file itself.
    for (const uri of uris) assert.ok(fs.existsSync(fileURLToPath(new URL(uri, base))), uri);

    const github = temps.run(['check', '-f', 'github'], ws).stdout;
    for (const n of NAMES) assert.ok(github.includes(`::notice file=${SUBAGENTS}/${n}.md,line=5,`), github);
  });

  it('a name that differs is still reported, against the whole name', () => {
    const ws = temps.workspace({ [`${SUBAGENTS}/a\\b.md`]: VALID_POLYTOKEN('b') });
    const [file] = json([], ws).files;
    assert.equal(file.path, `${SUBAGENTS}/a\\b.md`);
    assert.deepEqual(
      file.diagnostics.map((d) => d.rule),
      ['polytoken/name-mismatch'],
    );
    assert.match(file.diagnostics[0].message, /the file is a\\b\.md/);
  });

  it('--fix leaves definitions that load alone; resolve says they load', () => {
    const ws = temps.workspace(files((n) => VALID_POLYTOKEN(n)));
    const before = NAMES.map((n) => fs.readFileSync(path.join(ws, SUBAGENTS, `${n}.md`)));
    const r = temps.run(['check', '--fix'], ws);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(r.stderr, '', 'no fix applied');
    NAMES.forEach((n, i) => assert.deepEqual(fs.readFileSync(path.join(ws, SUBAGENTS, `${n}.md`)), before[i]));
    const resolved = temps.run(['resolve', `${SUBAGENTS}/a\\b.md`], ws);
    assert.equal(resolved.code, 0, resolved.stderr);
    assert.match(resolved.stdout, /^\.polytoken\/subagents\/a\\b\.md \(polytoken\): 1 definition\n\na\\b: loads\n/);
  });
});

describe('hardening: control characters in file names never shape the output', function () {
  this.timeout(60_000);
  beforeEach(posixOnly);

  /** Names that would forge a report line, move the cursor, clear the screen, or break a line in other ways. */
  const NAMES = [
    'x\nforged.md:1:1 error pwned [forged-rule]',
    'cr\rover',
    'esc\u001b[2J\u001b]0;title\u0007',
    'csi\u009b31m',
    'sep\u2028par\u2029',
    'tab\tnul-free',
  ];
  const workspace = () =>
    temps.workspace(
      Object.fromEntries(NAMES.map((n, i) => [`${SUBAGENTS}/${n}.md`, WITH_HINT(`other${i}`)])), // and a mismatch
    );

  it('text: one line per diagnostic, the names escaped in paths and messages; stderr too', () => {
    const ws = workspace();
    for (const env of [{}, { FORCE_COLOR: '1' }]) {
      const r = temps.run(['check'], ws, { env });
      assert.equal(r.code, 1);
      const lines = r.stdout.split('\n').slice(0, -2); // the summary, the final newline
      assert.equal(lines.length, NAMES.length * 2, r.stdout);
      // Colour codes are the only escape sequences (SGR: ESC [ digits m).
      const plain = r.stdout.replace(/\u001b\[\d+(;\d+)*m/g, '');
      assert.doesNotMatch(plain, RAW_CONTROL);
      assert.ok(!plain.includes('\u001b'));
      for (const line of plain.split('\n').slice(0, -2))
        assert.match(line, /^\.polytoken\/subagents\/\S.*:\d+:\d+ (error|hint) .* \[polytoken\/[a-z-]+\]$/);
      assert.ok(plain.includes(`${SUBAGENTS}/x\\x0aforged.md:1:1 error pwned [forged-rule].md:2:7 error`));
      assert.ok(plain.includes('the file is esc\\x1b[2J\\x1b]0;title\\x07.md'));
      assert.ok(plain.includes(`${SUBAGENTS}/csi\\x9b31m.md:`));
      assert.ok(plain.includes(`${SUBAGENTS}/sep\\u2028par\\u2029.md:`));
      assert.ok(plain.includes(`${SUBAGENTS}/tab\\x09nul-free.md:`));
    }
    // An I/O error names the file on stderr, escaped the same way.
    fs.chmodSync(path.join(ws, SUBAGENTS, `${NAMES[0]}.md`), 0);
    const r = temps.run(['check'], ws);
    if (process.getuid?.() !== 0) {
      assert.equal(r.code, 2);
      assert.equal(
        r.stderr,
        `subagents: ${SUBAGENTS}/x\\x0aforged.md:1:1 error pwned [forged-rule].md: permission denied\n`,
      );
    }
  });

  it('GitHub annotations: CR and LF by GitHub escapes, other controls shown as \\xNN; one command per line', () => {
    const ws = workspace();
    const out = temps.run(['check', '-f', 'github'], ws).stdout;
    const lines = out.split('\n').slice(0, -1);
    assert.equal(lines.length, NAMES.length * 2);
    for (const line of lines)
      assert.match(line, /^::(error|notice) file=[^:]*,line=\d+,col=\d+,endLine=\d+,endColumn=\d+,title=[^:,]+::/);
    assert.doesNotMatch(out, RAW_CONTROL);
    assert.ok(out.includes(`file=${SUBAGENTS}/x%0Aforged.md%3A1%3A1 error pwned [forged-rule].md,`));
    assert.ok(out.includes(`file=${SUBAGENTS}/cr%0Dover.md,`));
    assert.ok(out.includes(`file=${SUBAGENTS}/esc\\x1b[2J\\x1b]0;title\\x07.md,`));
    assert.ok(out.includes('the file is x%0Aforged.md:1:1 error pwned'));
  });

  it('JSON and SARIF: the true names, every URI valid and pointing at its file, no raw control character', () => {
    const ws = workspace();
    const r = temps.run(['check', '-f', 'json'], ws);
    assert.doesNotMatch(r.stdout, RAW_CONTROL);
    const report: JsonReport = JSON.parse(r.stdout);
    assert.deepEqual(report.files.map((f) => f.path).sort(), NAMES.map((n) => `${SUBAGENTS}/${n}.md`).sort());

    const sarif = temps.run(['check', '-f', 'sarif'], ws).stdout;
    assert.doesNotMatch(sarif, RAW_CONTROL);
    const run = JSON.parse(sarif).runs[0];
    const base = run.originalUriBaseIds.SRCROOT.uri;
    for (const result of run.results) {
      const uri: string = result.locations[0].physicalLocation.artifactLocation.uri;
      assert.match(uri, /^[A-Za-z0-9\-._~!$&'()*+,;=:@/%]+$/, `a URI reference: ${uri}`);
      assert.ok(fs.existsSync(fileURLToPath(new URL(uri, base))), uri);
    }
  });

  it('--fix-dry-run names the file in quoted patch headers (as git does): no forged line', () => {
    const text = VALID_POLYTOKEN(quoted('x\ny')).replace('description:', 'descripton:');
    const ws = temps.workspace({ [`${SUBAGENTS}/x\ny.md`]: text });
    const patch = temps.run(['check', '--fix-dry-run'], ws).stdout;
    assert.match(
      patch,
      /^--- "a\/\.polytoken\/subagents\/x\\ny\.md"\n\+\+\+ "b\/\.polytoken\/subagents\/x\\ny\.md"\n@@ /,
    );
    for (const line of patch.split('\n').slice(0, -1)) assert.match(line, /^(--- |\+\+\+ |@@ | |-|\+)/);
  });

  it('diff (text, Markdown) and resolve show the names escaped', () => {
    const ws = temps.workspace({ [`${SUBAGENTS}/x\ny.md`]: VALID_POLYTOKEN(quoted('x\ny')) });
    git(ws, 'init', '-q');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'one');
    fs.writeFileSync(path.join(ws, SUBAGENTS, 'x\ny.md'), VALID_POLYTOKEN(quoted('x\ny'), '[file_read, grep, glob]'));
    const text = temps.run(['diff'], ws).stdout;
    assert.match(text, /^\.polytoken\/subagents\/x\\x0ay\.md: x\\x0ay \(polytoken\) changed, status loads$/m);
    const md = temps.run(['diff', '-f', 'markdown'], ws).stdout;
    assert.match(md, /^#### `x\\x0ay` \(polytoken\): changed\n\n`\.polytoken\/subagents\/x\\x0ay\.md`, status/m);
    const resolved = temps.run(['resolve', `${SUBAGENTS}/x\ny.md`], ws).stdout;
    assert.equal(resolved.split('\n')[0], '.polytoken/subagents/x\\x0ay.md (polytoken): 1 definition');
    assert.match(resolved, /^x\\x0ay: loads$/m);
  });
});

describe('hardening: diff tables keep their shape whatever a tool is called', function () {
  this.timeout(60_000);
  it('pipes, backslashes, backticks and line breaks in tool names stay inside their cell', () => {
    const tools = ['we|ird', 'back\\|slash', 'tick`s', 'new\nline'];
    const config = `tools:\n  polytoken:\n${tools.map((t) => `    - ${JSON.stringify(t)}\n`).join('')}`;
    const ws = temps.workspace({ '.subagents.yaml': config, [`${SUBAGENTS}/t.md`]: VALID_POLYTOKEN('t') });
    git(ws, 'init', '-q');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'one');
    const list = tools.map((t) => JSON.stringify(t)).join(', ');
    fs.writeFileSync(path.join(ws, SUBAGENTS, 't.md'), VALID_POLYTOKEN('t', `[file_read, ${list}]`));
    const md = temps.run(['diff', '-f', 'markdown'], ws).stdout;
    const rows = md.split('\n').filter((l) => l.startsWith('| ➕'));
    assert.equal(rows.length, tools.length, md);
    // Rendered as GitHub does (markdown-it's table rule splits cells as GFM does for these).
    const MarkdownIt = require('markdown-it');
    const html: string = new MarkdownIt().render(md);
    const cells = [...html.matchAll(/<tr>\n<td>➕ granted<\/td>\n<td>(.*?)<\/td>\n<td>tools<\/td>\n<\/tr>/g)].map((m) =>
      m[1].replace(/<\/?code>/g, ''),
    );
    assert.deepEqual(cells.sort(), ['back\\|slash', 'new\\x0aline', 'tick`s', 'we|ird'].sort());
  });
});

describe('hardening: file names that are not valid UTF-8', function () {
  this.timeout(60_000);
  beforeEach(linuxOnly);

  const bytesName = (ws: string, rel: string, name: Buffer) =>
    Buffer.concat([Buffer.from(`${path.join(ws, rel)}/`), name]);
  const BAD = Buffer.from([0x62, 0x61, 0x64, 0xff, 0x2e, 0x6d, 0x64]); // bad\xff.md

  it('a definition so named is reported by its bytes, not checked, never "no such file"; the rest is checked', () => {
    const ws = temps.workspace({ [`${SUBAGENTS}/ok.md`]: VALID_POLYTOKEN('ok') });
    fs.writeFileSync(bytesName(ws, SUBAGENTS, BAD), VALID_POLYTOKEN('bad'));
    const message = `file name is not valid UTF-8 (bad\\xff.md); not checked`;
    for (const input of [[], ['.polytoken'], ['.polytoken/**/*.md']]) {
      const r = temps.run(['check', ...input], ws);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stderr, `subagents: ${SUBAGENTS}/bad\ufffd.md: ${message}\n`);
      assert.equal(r.stdout, '1 file checked: 0 errors, 0 warnings, 0 information, 0 hints.\n');
    }
    const sarif = JSON.parse(temps.run(['check', '-f', 'sarif'], ws).stdout);
    assert.deepEqual(
      sarif.runs[0].invocations[0].toolExecutionNotifications.map((n: { message: { text: string } }) => n.message.text),
      [`${SUBAGENTS}/bad\ufffd.md: ${message}`],
    );
    // Named on the command line (the shell passes the bytes, Node decodes them with U+FFFD).
    const r = spawnSync('sh', ['-c', `"${process.execPath}" "${CLI}" check ${SUBAGENTS}/bad*`], {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, XDG_CONFIG_HOME: temps.xdg },
    });
    assert.equal(r.status, 2);
    assert.match(
      r.stderr,
      /^subagents: .*: no such file or folder \(if the name holds bytes that are not valid UTF-8: such a file cannot be checked; name its folder to have it reported\)\n$/,
    );
  });

  it('a name that really holds U+FFFD is checked; an undecodable file that is no definition is passed over', () => {
    const ws = temps.workspace({ [`${SUBAGENTS}/real\ufffd.md`]: VALID_POLYTOKEN('real\ufffd') });
    fs.mkdirSync(path.join(ws, 'docs'));
    fs.writeFileSync(bytesName(ws, 'docs', Buffer.from([0x6e, 0xe9, 0x2e, 0x74, 0x78, 0x74])), 'latin-1 name'); // né.txt
    const r = temps.run(['check', '-f', 'json'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(
      JSON.parse(r.stdout).files.map((f: { path: string; diagnostics: unknown[] }) => [f.path, f.diagnostics.length]),
      [[`${SUBAGENTS}/real\ufffd.md`, 0]],
    );
  });

  it('the walk follows a link so named to a regular file: undecodable, or (a real U+FFFD) a linked file', () => {
    const ws = temps.workspace({ 'd/ok.md': 'x' });
    fs.symlinkSync('ok.md', bytesName(ws, 'd', Buffer.from([0x6c, 0xff, 0x2e, 0x6d, 0x64]))); // l\xff.md
    fs.symlinkSync('ok.md', path.join(ws, 'd/real\ufffd.md'));
    const problems: WalkProblem[] = [];
    const undecodable: UndecodableFile[] = [];
    const links = new Set<string>();
    const files = walkFiles(ws, problems, undecodable, undefined, links);
    assert.deepEqual(files, [`${ws}/d/ok.md`, `${ws}/d/real\ufffd.md`]);
    assert.deepEqual(undecodable, [{ path: `${ws}/d/l\ufffd.md`, name: 'l\\xff.md' }]);
    assert.deepEqual([...links], [`${ws}/d/real\ufffd.md`]);
    assert.deepEqual(problems, []);
  });

  it('a folder so named is reported as not searched', () => {
    const ws = temps.workspace({ [`${SUBAGENTS}/ok.md`]: VALID_POLYTOKEN('ok') });
    fs.mkdirSync(bytesName(ws, '.', Buffer.from([0x78, 0xfe])));
    const r = temps.run(['check'], ws);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, `subagents: x\ufffd: folder name is not valid UTF-8 (x\\xfe); not searched\n`);
  });

  it('diff reports such a file the same way on a git revision as in the working tree', () => {
    const ws = temps.workspace({ [`${SUBAGENTS}/ok.md`]: VALID_POLYTOKEN('ok') });
    fs.writeFileSync(bytesName(ws, SUBAGENTS, BAD), VALID_POLYTOKEN('bad'));
    git(ws, 'init', '-q');
    git(ws, 'add', '-A');
    git(ws, 'commit', '-q', '-m', 'one');
    const message = `${SUBAGENTS}/bad\ufffd.md: file name is not valid UTF-8 (bad\\xff.md); not checked`;
    const worktree = temps.run(['diff', '.', 'HEAD', '--'], ws); // the folder side first
    assert.equal(worktree.code, 2);
    assert.equal(worktree.stderr, `subagents: .: ${message}\n`);
    // Gone from the working tree, it is still reported on the revision (not checked under another name).
    fs.rmSync(bytesName(ws, SUBAGENTS, BAD));
    const revision = temps.run(['diff'], ws);
    assert.equal(revision.code, 2);
    assert.equal(revision.stderr, `subagents: HEAD: ${message}\n`);
  });
});

function escapeRe(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
