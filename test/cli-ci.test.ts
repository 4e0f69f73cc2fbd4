/**
 * What CI users expect of `subagents check` (ESLint and ruff conventions), on the built
 * CLI run as a process: unmatched inputs, quoted globs, --quiet, -f/-o, --format github,
 * colour, --stdin, --max-warnings -1, one-write reports.
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CHECK_OPTIONS } from '../cli/check';
import { DIFF_OPTIONS } from '../cli/diff';
import { assertUsageError, CLI, ROOT, Temps, VALID_PICASSO, VALID_POLYTOKEN } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

/** One error (name-mismatch), one warning (unknown tool), one information (missing-recommended). */
const MIXED = {
  '.polytoken/subagents/wrong.md': VALID_POLYTOKEN('other'),
  '.polytoken/subagents/typo.md': VALID_POLYTOKEN('typo', '[file_raed]'),
  'apps/cli/agents/runner.yaml': VALID_PICASSO('runner').replace(/^when_to_use:.*\n/m, ''),
};

function json(stdout: string): {
  files: { path: string; diagnostics: { rule: string; severity: string }[] }[];
  summary: Record<string, number>;
} {
  return JSON.parse(stdout);
}

describe('check: nothing matched is an error', function () {
  this.timeout(60000);

  it('a folder without definitions: exit 2 with a one-line reason naming it', () => {
    const ws = temps.workspace({ 'docs/README.md': '# Docs\n', 'src/index.ts': 'export {};\n' });
    assertUsageError(
      temps.run(['check', 'docs'], ws),
      /docs: no definition file in this folder.*--no-error-on-unmatched-pattern/,
    );
    assertUsageError(temps.run(['check'], ws), /^subagents: \.: no definition file/);
  });

  it('a file that is not a definition, and a glob matching nothing, are errors too', () => {
    const ws = temps.workspace({ ...MIXED, 'docs/README.md': '# Docs\n' });
    assertUsageError(temps.run(['check', 'docs/README.md'], ws), /docs\/README\.md: not a definition file/);
    assertUsageError(
      temps.run(['check', 'nowhere/**/*.md'], ws),
      /nowhere\/\*\*\/\*\.md: no definition file matches this pattern/,
    );
    // One unmatched input among matched ones is enough, and nothing is checked then.
    assertUsageError(temps.run(['check', '.polytoken', 'docs'], ws), /docs: no definition file/);
  });

  it('--no-error-on-unmatched-pattern: `0 files checked`, exit 0', () => {
    const ws = temps.workspace({ 'docs/README.md': '# Docs\n' });
    for (const args of [['docs'], ['docs/README.md'], ['nowhere/**/*.md'], []]) {
      const r = temps.run(['check', ...args, '--no-error-on-unmatched-pattern'], ws);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      assert.equal(r.stdout, '0 files checked: 0 errors, 0 warnings, 0 information, 0 hints.\n');
    }
  });

  it('a missing path stays a usage error, also with --no-error-on-unmatched-pattern', () => {
    const ws = temps.workspace(MIXED);
    assertUsageError(temps.run(['check', 'missing'], ws), /missing: no such file or folder/);
    assertUsageError(
      temps.run(['check', 'missing', '--no-error-on-unmatched-pattern'], ws),
      /missing: no such file or folder/,
    );
  });

  it('a configuration file named on its own counts as matched; a folder holding only one does not', () => {
    const ws = temps.workspace({ 'conf/.subagents.yaml': 'rules: {}\n' });
    const r = temps.run(['check', 'conf/.subagents.yaml', '--format', 'json'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      json(r.stdout).files.map((f) => f.path),
      ['conf/.subagents.yaml'],
    );
    assertUsageError(temps.run(['check', 'conf'], ws), /conf: no definition file/);
  });
});

describe('check: quoted globs are expanded by the checker', function () {
  this.timeout(60000);
  let ws: string;
  before(() => {
    ws = temps.workspace({
      'team-a/.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer'),
      'team-a/.polytoken/subagents/wrong.md': VALID_POLYTOKEN('other'),
      'team-b/apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
      'team-b/apps/cli/agents/notes.md': '# not a definition\n',
      'team-b/node_modules/pkg/.polytoken/subagents/dep.md': VALID_POLYTOKEN('other-name'),
      'team-c/.git/.polytoken/subagents/in-git.md': VALID_POLYTOKEN('x'),
    });
  });
  const listed = (args: string[]) => {
    const r = temps.run(['check', ...args, '--format', 'json'], ws);
    assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}: ${r.stderr}`);
    return json(r.stdout).files.map((f) => f.path);
  };

  it('`**` crosses dot folders and keeps only definition files', () => {
    assert.deepEqual(listed(['team-*/**/*.md']), [
      'team-a/.polytoken/subagents/reviewer.md',
      'team-a/.polytoken/subagents/wrong.md',
    ]);
    assert.deepEqual(listed(['**/*.yaml']), ['team-b/apps/cli/agents/runner.yaml']);
  });

  it('gives the same files as the folder itself; node_modules and .git are never searched', () => {
    assert.deepEqual(listed(['team-b/**']), listed(['team-b']));
    assert.deepEqual(
      listed(['**/*.md']),
      listed(['.']).filter((p) => p.endsWith('.md')),
    );
    assert.ok(!listed(['**/*.md']).some((p) => /node_modules|\.git\//.test(p)));
  });

  it('a pattern matching folders selects the files below them; a literal path wins over a pattern', () => {
    assert.deepEqual(listed(['team-[ab]']), listed(['.']));
    const odd = temps.workspace({ 'x[1]/.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer') });
    const r = temps.run(['check', 'x[1]', '--format', 'json'], odd);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      json(r.stdout).files.map((f) => f.path),
      ['x[1]/.polytoken/subagents/reviewer.md'],
    );
  });

  it('a pattern with more than three wildcards is refused as configuration globs are (exit 2)', () => {
    assertUsageError(
      temps.run(['check', '**/*a*b*c*.md'], ws),
      /\*\*\/\*a\*b\*c\*\.md: this pattern is refused: it has 5 wildcards/,
    );
  });

  it('a single file is checked on its own, and overlapping inputs list a file once', () => {
    assert.deepEqual(listed(['team-a/.polytoken/subagents/wrong.md']), ['team-a/.polytoken/subagents/wrong.md']);
    assert.deepEqual(listed(['team-a', 'team-a/**/*.md', 'team-a/.polytoken/subagents/wrong.md']), listed(['team-a']));
  });
});

describe('check: --quiet, -f, -o, --max-warnings -1', function () {
  this.timeout(60000);
  let ws: string;
  before(() => {
    ws = temps.workspace(MIXED);
  });

  it('--quiet reports errors only, in every format, and counts only them', () => {
    const all = json(temps.run(['check', '-f', 'json'], ws).stdout);
    assert.ok(
      all.summary.warnings > 0 && all.summary.information > 0 && all.summary.errors > 0,
      JSON.stringify(all.summary),
    );
    const quiet = temps.run(['check', '--quiet', '-f', 'json'], ws);
    assert.equal(quiet.code, 1);
    const report = json(quiet.stdout);
    assert.deepEqual(report.summary, {
      files: all.summary.files,
      errors: all.summary.errors,
      warnings: 0,
      information: 0,
      hints: 0,
    });
    assert.ok(report.files.every((f) => f.diagnostics.every((d) => d.severity === 'error')));
    const text = temps.run(['check', '--quiet'], ws).stdout;
    assert.doesNotMatch(text, / (warning|information|hint) /);
    assert.match(text, / error /);
  });

  it('-f is --format and -o FILE writes the report there, nothing on stdout', () => {
    const long = temps.run(['check', '--format', 'sarif'], ws);
    fs.writeFileSync(path.join(ws, 'blocker'), '');
    assertUsageError(
      temps.run(['check', '-f', 'sarif', '-o', 'blocker/report.sarif'], ws),
      /cannot write the report to blocker\/report\.sarif: /,
    );
    // As ESLint: missing folders are made.
    const written = temps.run(['check', '-f', 'sarif', '-o', 'out/report.sarif'], ws);
    assert.equal(written.code, long.code);
    assert.equal(written.stdout, '');
    assert.equal(fs.readFileSync(path.join(ws, 'out', 'report.sarif'), 'utf8'), long.stdout);
    assert.deepEqual(fs.readdirSync(path.join(ws, 'out')), ['report.sarif'], 'no temporary file is left');
    const eq = temps.run(['check', '--format=json', '--output-file=out/report.json'], ws);
    assert.equal(eq.stdout, '');
    assert.deepEqual(
      json(fs.readFileSync(path.join(ws, 'out', 'report.json'), 'utf8')).summary,
      json(temps.run(['check', '-f', 'json'], ws).stdout).summary,
    );
  });

  it('-o replaces an existing report whole', () => {
    const file = path.join(ws, 'old.json');
    fs.writeFileSync(file, 'x'.repeat(1_000_000));
    temps.run(['check', '-f', 'json', '-o', 'old.json'], ws);
    assert.ok(json(fs.readFileSync(file, 'utf8')).summary.files > 0);
  });

  it('--max-warnings -1 means no limit and is documented in --help', () => {
    const clean = temps.workspace({ '.polytoken/subagents/typo.md': VALID_POLYTOKEN('typo', '[file_raed]') });
    assert.equal(temps.run(['check', '--max-warnings', '0'], clean).code, 1);
    assert.equal(temps.run(['check', '--max-warnings', '-1'], clean).code, 0);
    assert.match(temps.run(['check', '--help'], clean).stdout, /--max-warnings N .*\n.*-1/);
  });
});

describe('check --format github', function () {
  this.timeout(60000);

  it('prints one workflow command per diagnostic with 1-based positions and the rule as title', () => {
    const ws = temps.workspace(MIXED);
    const report = json(temps.run(['check', '-f', 'json'], ws).stdout);
    const r = temps.run(['check', '-f', 'github'], ws);
    assert.equal(r.code, 1);
    const lines = r.stdout.trimEnd().split('\n');
    const count = report.files.reduce((n, f) => n + f.diagnostics.length, 0);
    assert.equal(lines.length, count);
    const pattern =
      /^::(error|warning|notice) file=([^,]+),line=(\d+),col=(\d+),endLine=(\d+),endColumn=(\d+),title=([^,:]+)::(.+)$/;
    const seen = new Set<string>();
    for (const line of lines) {
      const m = pattern.exec(line);
      assert.ok(m, line);
      seen.add(m![1]);
      assert.ok(Number(m![3]) >= 1 && Number(m![4]) >= 1, line);
      assert.ok(
        report.files.some((f) => f.path === m![2] && f.diagnostics.some((d) => d.rule === m![7].replace('%2F', '/'))),
        line,
      );
    }
    assert.deepEqual([...seen].sort(), ['error', 'notice', 'warning']);
    const mismatch = lines.find((l) => l.includes('title=polytoken/name-mismatch'));
    assert.match(mismatch!, /^::error file=\.polytoken\/subagents\/wrong\.md,line=2,col=7,endLine=2,endColumn=12,/);
  });

  it('escapes %, CR and LF in the message and `:` and `,` in properties', () => {
    // The name, quoted in the message, holds a `%` and a line break.
    const ws = temps.workspace({ 'a,b:c%/.polytoken/subagents/wrong.md': VALID_POLYTOKEN('"50%\\nmore"') });
    const line = temps
      .run(['check', '-f', 'github'], ws)
      .stdout.split('\n')
      .find((l) => l.includes('name-mismatch'))!;
    assert.match(
      line,
      /^::error file=a%2Cb%3Ac%25\/\.polytoken\/subagents\/wrong\.md,line=2,col=7,endLine=2,endColumn=\d+,title=polytoken\/name-mismatch::/,
    );
    const message = line.slice(line.indexOf('::', 2) + 2);
    assert.ok(message.includes('50%25%0Amore'), message);
    assert.ok(!/%(?!25|0D|0A)/.test(message), message);
  });
});

describe('check: colour', function () {
  this.timeout(60000);
  const ESC = '\u001b[';

  it('none when not a terminal; FORCE_COLOR turns it on (text only); NO_COLOR and FORCE_COLOR=0 keep it off', () => {
    const ws = temps.workspace(MIXED);
    const plain = temps.run(['check'], ws).stdout;
    assert.ok(!plain.includes(ESC));
    const forced = temps.run(['check'], ws, { env: { FORCE_COLOR: '1' } }).stdout;
    assert.ok(forced.includes(`${ESC}31merror${ESC}39m`), forced);
    assert.equal(forced.replace(/\u001b\[\d+m/g, ''), plain, 'colour only adds escapes');
    assert.equal(temps.run(['check'], ws, { env: { FORCE_COLOR: '0' } }).stdout, plain);
    assert.equal(temps.run(['check'], ws, { env: { NO_COLOR: '1' } }).stdout, plain);
    for (const format of ['json', 'github', 'sarif'])
      assert.ok(!temps.run(['check', '-f', format], ws, { env: { FORCE_COLOR: '1' } }).stdout.includes(ESC), format);
    temps.run(['check', '-o', 'report.txt'], ws, { env: { FORCE_COLOR: '1' } });
    assert.equal(fs.readFileSync(path.join(ws, 'report.txt'), 'utf8'), plain, 'a report file is never coloured');
  });
});

describe('check: colour on a terminal', function () {
  this.timeout(60000);
  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;

  it('on a pseudo-terminal (script(1)) the text report is coloured, unless NO_COLOR', function () {
    if (!hasScript) this.skip(); // util-linux script(1) gives the CLI a terminal
    const ws = temps.workspace(MIXED);
    const onTerminal = (env: NodeJS.ProcessEnv) =>
      spawnSync('script', ['-qec', `"${process.execPath}" "${CLI}" check`, '/dev/null'], {
        cwd: ws,
        encoding: 'utf8',
        env: { ...process.env, XDG_CONFIG_HOME: temps.xdg, NO_COLOR: '', FORCE_COLOR: '', ...env },
      }).stdout;
    assert.ok(onTerminal({}).includes('\u001b[31merror\u001b[39m'), 'coloured on a terminal');
    assert.ok(!onTerminal({ NO_COLOR: '1' }).includes('\u001b['), 'NO_COLOR turns it off');
    assert.ok(!onTerminal({ FORCE_COLOR: '0' }).includes('\u001b['), 'FORCE_COLOR=0 turns it off');
  });
});

describe('check --stdin --stdin-filename PATH', function () {
  this.timeout(60000);

  it("reads PATH's neighbours through links inside PATH's folder, also when PATH is outside the current folder", () => {
    const ws = temps.workspace({
      'apps/cli/agents/real/b.yaml': VALID_PICASSO('runner'),
      'notes/readme.md': '# notes\n',
    });
    fs.symlinkSync('real/b.yaml', path.join(ws, 'apps/cli/agents/b.yaml'));
    for (const [cwd, given] of [
      ['.', 'apps/cli/agents/runner.yaml'],
      ['notes', '../apps/cli/agents/runner.yaml'],
    ]) {
      const r = temps.run(['check', '--stdin', '--stdin-filename', given, '-f', 'json'], path.join(ws, cwd), {
        input: VALID_PICASSO('runner'),
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stderr, '');
      assert.deepEqual(
        json(r.stdout).files.map((f) => [f.path, f.diagnostics.map((d) => d.rule)]),
        [[given, ['picasso/duplicate-role']]],
        `from ${cwd}`,
      );
    }
  });

  it('checks standard input as PATH: dialect and configuration from PATH, the report names PATH', () => {
    const ws = temps.workspace({
      'team/.subagents.yaml': 'tools:\n  polytoken: [deploy]\n',
      'team/.polytoken/subagents/on-disk.md': VALID_POLYTOKEN('on-disk'),
    });
    // `deploy` is known only through team/.subagents.yaml; the file need not exist.
    const text = VALID_POLYTOKEN('new-one', '[deploy, file_raed]');
    const r = temps.run(
      ['check', '--stdin', '--stdin-filename', 'team/.polytoken/subagents/new-one.md', '-f', 'json'],
      ws,
      { input: text },
    );
    assert.equal(r.code, 0, r.stderr);
    const report = json(r.stdout);
    assert.deepEqual(
      report.files.map((f) => f.path),
      ['team/.polytoken/subagents/new-one.md'],
    );
    assert.deepEqual(
      report.files[0].diagnostics.map((d) => d.rule),
      ['polytoken/unknown-tool'],
    );
    // Standard input wins over the file on disk; the name-mismatch comes from PATH.
    const over = temps.run(['check', '--stdin', '--stdin-filename', 'team/.polytoken/subagents/on-disk.md'], ws, {
      input: VALID_POLYTOKEN('elsewhere'),
    });
    assert.equal(over.code, 1);
    assert.match(
      over.stdout,
      /^team\/\.polytoken\/subagents\/on-disk\.md:2:7 error .*\[polytoken\/name-mismatch\]\n1 file checked/,
    );
  });

  it('the same text as a Picasso path is checked as Picasso', () => {
    const ws = temps.workspace({});
    const r = temps.run(['check', '--stdin', '--stdin-filename', 'apps/cli/agents/runner.yaml', '-f', 'json'], ws, {
      input: VALID_PICASSO('other_name'),
    });
    assert.deepEqual(
      json(r.stdout).files[0].diagnostics.map((d) => d.rule),
      ['picasso/name-mismatch'],
    );
  });

  it('usage errors: no --stdin-filename, PATHs besides --stdin, a PATH that is no definition', () => {
    const ws = temps.workspace({});
    assertUsageError(temps.run(['check', '--stdin'], ws, { input: '' }), /--stdin needs --stdin-filename/);
    assertUsageError(
      temps.run(['check', '--stdin', '--stdin-filename', 'a.expert.json', 'x'], ws, { input: '' }),
      /drop "x"/,
    );
    assertUsageError(temps.run(['check', '--stdin-filename', 'a.expert.json'], ws), /only used with --stdin/);
    assertUsageError(
      temps.run(['check', '--stdin', '--stdin-filename', 'notes.md'], ws, { input: '# x' }),
      /notes\.md: not a definition file/,
    );
    const allowed = temps.run(
      ['check', '--stdin', '--stdin-filename', 'notes.md', '--no-error-on-unmatched-pattern'],
      ws,
      { input: '# x' },
    );
    assert.equal(allowed.code, 0);
    assert.match(allowed.stdout, /^0 files checked/);
  });
});

describe('check: reports on stdout are written in one piece', function () {
  this.timeout(120000);

  it('a 1,000-file JSON or SARIF report is one write() of one complete document', () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 1000; i++)
      files[`p${i % 10}/.polytoken/subagents/agent-${i}.md`] = VALID_POLYTOKEN(i % 3 ? `agent-${i}` : `x-${i}`);
    const ws = temps.workspace(files);
    // Counts the CLI's calls of process.stdout.write.
    const counter = path.join(temps.dir(), 'count-writes.js');
    fs.writeFileSync(
      counter,
      'let n = 0; const write = process.stdout.write.bind(process.stdout);\n' +
        'process.stdout.write = (...a) => { n++; return write(...a); };\n' +
        "process.on('exit', () => process.stderr.write(`WRITES=${n}\\n`));\n",
    );
    for (const format of ['json', 'sarif']) {
      const r = temps.run(['check', '-f', format], ws, { nodeArgs: ['--require', counter] });
      assert.equal(r.code, 1);
      assert.equal(r.stderr, 'WRITES=1\n', format);
      const doc = JSON.parse(r.stdout);
      assert.ok(format === 'json' ? doc.files.length === 1000 : doc.runs[0].results.length === 334, format);
    }
  });
});

describe('every option is documented', function () {
  this.timeout(60000);

  it('in `--help` and in the README', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const ws = temps.dir();
    for (const [command, spec] of [
      ['check', CHECK_OPTIONS],
      ['diff', DIFF_OPTIONS],
    ] as const) {
      const help = temps.run([command, '--help'], ws).stdout;
      for (const option of [...spec.values, ...spec.flags, ...Object.keys(spec.aliases ?? {})]) {
        assert.ok(help.includes(option), `${command} --help names ${option}`);
        assert.ok(readme.includes(`\`${option}`), `the README names ${option} of ${command}`);
      }
    }
  });
});
