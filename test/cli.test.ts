/**
 * The built `subagents` CLI (dist/cli.js), run as a child process on temporary
 * workspaces: the documented output shapes, exit statuses and error handling.
 */
import { strict as assert } from 'assert';
import { execFileSync, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import AjvDraft04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { RULES } from '../shared/rules/registry';
import { DIALECT_MODULES } from '../shared/dialects';
import { assertUsageError, CLI_IN_PROCESS, lspSession, runCli, VALID_PICASSO } from './support/cli';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
const RULE_IDS = new Set(RULES.map((r) => r.id));
const SEVERITIES = ['error', 'warning', 'information', 'hint'];

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

interface JsonDiagnostic {
  rule: string;
  severity: string;
  message: string;
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
}
interface JsonFile {
  path: string;
  dialect: string;
  diagnostics: JsonDiagnostic[];
}
interface JsonReport {
  files: JsonFile[];
  summary: { files: number; errors: number; warnings: number; information: number; hints: number };
}

const temps: string[] = [];
/** An empty folder used as XDG_CONFIG_HOME, so the machine's own global folder never leaks in. */
let emptyXdg: string;

function tempDir(prefix = 'subagents-cli-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  temps.push(dir);
  return dir;
}

/** A workspace from a map of relative path → content. */
function workspace(files: Record<string, string | Buffer>): string {
  const dir = tempDir();
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(dir, rel);
    fs.mkdirSync(path.dirname(abs), { recursive: true });
    fs.writeFileSync(abs, content);
  }
  return dir;
}

function run(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Run {
  return runCli(args, { cwd, env: { ...process.env, XDG_CONFIG_HOME: emptyXdg, ...env } });
}

function checkJson(args: string[], cwd: string, env?: NodeJS.ProcessEnv): { run: Run; report: JsonReport } {
  const r = run(['check', ...args, '--format', 'json'], cwd, env);
  let report: JsonReport;
  try {
    report = JSON.parse(r.stdout);
  } catch (e) {
    throw new Error(`stdout is not one JSON document (exit ${r.code}, stderr ${r.stderr}): ${r.stdout.slice(0, 500)}`);
  }
  return { run: r, report };
}

/** The official SARIF 2.1.0 schema (draft-04), as Microsoft's SARIF SDK ships it on npm. */
const schemaPath = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

function validator() {
  const schema = JSON.parse(fs.readFileSync(schemaPath, 'utf8'));
  // The published `language` pattern has a stray `]` that is only an error under the `u` flag.
  const ajv = new AjvDraft04({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats(ajv);
  return ajv.compile(schema);
}

const byPath = (report: JsonReport, p: string) => {
  const f = report.files.find((x) => x.path === p);
  assert.ok(f, `${p} is listed; listed: ${report.files.map((x) => x.path).join(', ')}`);
  return f!;
};
const rulesOf = (f: JsonFile) => f.diagnostics.map((d) => d.rule);

// --- Definition texts that are valid for every dialect (no error, no warning). ---

const VALID_POLYTOKEN = (name: string) => `---
name: ${name}
description: Reviews a change.
polytoken:
  tools: [file_read, grep]
  tools_deny: [grep]
  undeferred_tools: [file_read]
---
Review {{ change }}.
`;

const VALID_PROFY = JSON.stringify(
  {
    name: 'bookkeeper',
    description: 'Keeps the books.',
    delegatable: true,
    delegationBrief: 'Posts entries.',
    tools: ['read', 'grep', 'glob'],
    subagents: [
      { name: 'scanner', description: 'Scans.', system_prompt: 'Scan the contract.', tools: ['read', 'grep'] },
    ],
  },
  null,
  2,
);

const BROKEN_FRONTMATTER = `---
name: broken
description: [unclosed
polytoken: {}
---
Body.
`;

before(function () {
  this.timeout(120000);
  emptyXdg = tempDir('subagents-xdg-');
  // Build dist/cli.js when it is missing or older than its sources.
  const newest = (dir: string): number => {
    let t = 0;
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) t = Math.max(t, newest(p));
      else if (/\.(ts|json|mjs)$/.test(e.name)) t = Math.max(t, fs.statSync(p).mtimeMs);
    }
    return t;
  };
  const sources = Math.max(
    newest(path.join(ROOT, 'cli')),
    newest(path.join(ROOT, 'shared')),
    newest(path.join(ROOT, 'schemas')),
    fs.statSync(path.join(ROOT, 'scripts', 'build.mjs')).mtimeMs,
  );
  // In the mutation run the sources are instrumented and the CLI runs in-process: the bundle is not rebuilt.
  if (!CLI_IN_PROCESS && (!fs.existsSync(CLI) || fs.statSync(CLI).mtimeMs < sources)) {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.mjs')], { cwd: ROOT, stdio: 'inherit' });
  }
});

after(() => {
  for (const dir of temps) {
    try {
      fs.chmodSync(dir, 0o700);
    } catch {
      // already gone
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('subagents check --format json (README: Command line)', function () {
  this.timeout(120000); // each test runs the CLI several times
  let ws: string;
  before(() => {
    ws = workspace({
      '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer'),
      '.polytoken/subagents/broken.md': BROKEN_FRONTMATTER,
      'apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
      '.picasso/agents/md_role.md': `---\n${VALID_PICASSO('md_role')}---\n`,
      'experts/bookkeeper.expert.json': VALID_PROFY,
      'experts/bad.expert.json': '{ "name": "bad", ',
      'notes/readme.md': '# Not a definition\n',
      'notes/data.json': '{}',
      'node_modules/pkg/.polytoken/subagents/hidden.md': BROKEN_FRONTMATTER,
      '.git/.polytoken/subagents/hidden.md': BROKEN_FRONTMATTER,
    });
  });

  it('prints exactly one document with the required keys and types', () => {
    const { run: r, report } = checkJson([], ws);
    assert.equal(r.stderr, '');
    assert.deepEqual(Object.keys(report).sort(), ['files', 'summary']);
    assert.deepEqual(Object.keys(report.summary).sort(), ['errors', 'files', 'hints', 'information', 'warnings']);
    for (const v of Object.values(report.summary)) assert.ok(Number.isInteger(v) && v >= 0);
    assert.ok(Array.isArray(report.files));
    for (const f of report.files) {
      assert.deepEqual(Object.keys(f).sort(), ['diagnostics', 'dialect', 'path']);
      assert.ok(['polytoken', 'profy', 'picasso', 'config'].includes(f.dialect), f.dialect);
      for (const d of f.diagnostics) {
        assert.deepEqual(Object.keys(d).sort(), ['message', 'range', 'rule', 'severity']);
        assert.ok((RULE_IDS as Set<string>).has(d.rule), `${d.rule} is a registered rule`);
        assert.ok(SEVERITIES.includes(d.severity), d.severity);
        assert.equal(typeof d.message, 'string');
        assert.ok(d.message.length > 0);
        assert.deepEqual(Object.keys(d.range).sort(), ['end', 'start']);
        for (const p of [d.range.start, d.range.end]) {
          assert.deepEqual(Object.keys(p).sort(), ['character', 'line']);
          assert.ok(Number.isInteger(p.line) && p.line >= 0 && Number.isInteger(p.character) && p.character >= 0);
        }
        const { start, end } = d.range;
        assert.ok(
          start.line < end.line || (start.line === end.line && start.character <= end.character),
          'start <= end',
        );
      }
    }
  });

  it('lists every recognized file, also without diagnostics, and nothing else', () => {
    const { report } = checkJson([], ws);
    assert.deepEqual(
      report.files.map((f) => [f.path, f.dialect]),
      [
        ['.picasso/agents/md_role.md', 'picasso'],
        ['.polytoken/subagents/broken.md', 'polytoken'],
        ['.polytoken/subagents/reviewer.md', 'polytoken'],
        ['apps/cli/agents/runner.yaml', 'picasso'],
        ['experts/bad.expert.json', 'profy'],
        ['experts/bookkeeper.expert.json', 'profy'],
      ],
    );
    assert.equal(report.summary.files, report.files.length);
    // The valid definitions are listed with no error or warning.
    for (const p of [
      '.polytoken/subagents/reviewer.md',
      'apps/cli/agents/runner.yaml',
      'experts/bookkeeper.expert.json',
    ]) {
      const f = byPath(report, p);
      assert.deepEqual(
        f.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning'),
        [],
        p,
      );
    }
  });

  it('counts the summary from the diagnostics', () => {
    const { report } = checkJson([], ws);
    const all = report.files.flatMap((f) => f.diagnostics);
    assert.ok(all.length > 0);
    assert.deepEqual(report.summary, {
      files: report.files.length,
      errors: all.filter((d) => d.severity === 'error').length,
      warnings: all.filter((d) => d.severity === 'warning').length,
      information: all.filter((d) => d.severity === 'information').length,
      hints: all.filter((d) => d.severity === 'hint').length,
    });
  });

  it('reports syntax errors with the rule ids and 0-based positions', () => {
    const { run: r, report } = checkJson([], ws);
    assert.equal(r.code, 1);
    const yaml = byPath(report, '.polytoken/subagents/broken.md').diagnostics.filter((d) => d.rule === 'syntax/yaml');
    assert.ok(yaml.length >= 1, 'syntax/yaml on the broken frontmatter');
    // The frontmatter spans lines 1-3 (0-based); the opening `---` is line 0.
    for (const d of yaml) assert.ok(d.range.start.line >= 1 && d.range.start.line <= 4, `line ${d.range.start.line}`);
    assert.ok(rulesOf(byPath(report, 'experts/bad.expert.json')).includes('syntax/json'));
  });

  it('makes paths relative to the current folder with `/`', () => {
    const parent = path.dirname(ws);
    const name = path.basename(ws);
    const fromParent = checkJson([name], parent).report;
    const fromInside = checkJson(['.'], ws).report;
    assert.deepEqual(
      fromParent.files.map((f) => f.path),
      fromInside.files.map((f) => `${name}/${f.path}`),
    );
    const sub = path.join(ws, 'notes');
    const fromSub = checkJson(['..'], sub).report;
    assert.deepEqual(
      fromSub.files.map((f) => f.path),
      fromInside.files.map((f) => `../${f.path}`),
    );
    for (const f of [...fromParent.files, ...fromSub.files]) {
      assert.ok(!f.path.includes('\\') && !path.isAbsolute(f.path), f.path);
    }
    // The same diagnostics whatever the current folder.
    assert.deepEqual(
      fromParent.files.map((f) => f.diagnostics),
      fromInside.files.map((f) => f.diagnostics),
    );
  });

  it('checks a single file or a subfolder named on the command line', () => {
    const single = checkJson(['.polytoken/subagents/broken.md'], ws).report;
    assert.deepEqual(
      single.files.map((f) => [f.path, f.dialect]),
      [['.polytoken/subagents/broken.md', 'polytoken']],
    );
    assert.ok(rulesOf(single.files[0]).includes('syntax/yaml'));
    const sub = checkJson(['.polytoken'], ws).report;
    assert.deepEqual(
      sub.files.map((f) => f.path),
      ['.polytoken/subagents/broken.md', '.polytoken/subagents/reviewer.md'],
    );
    const several = checkJson(['experts', 'apps', 'experts/bad.expert.json'], ws).report;
    assert.deepEqual(
      several.files.map((f) => f.path),
      ['apps/cli/agents/runner.yaml', 'experts/bad.expert.json', 'experts/bookkeeper.expert.json'],
    );
    // `--` ends the options: a folder whose name starts with `-`.
    const dashed = workspace({ '-odd/apps/cli/agents/runner.yaml': VALID_PICASSO('runner') });
    const dashedRun = run(['check', '--format', 'json', '--', '-odd'], dashed);
    assert.deepEqual(
      (JSON.parse(dashedRun.stdout) as JsonReport).files.map((f) => f.path),
      ['-odd/apps/cli/agents/runner.yaml'],
    );
    assertUsageError(run(['check', '-odd'], dashed), /-odd/);
    // A file that is not a definition is not reported, even when named: naming it is an
    // error (exit 2), unless --no-error-on-unmatched-pattern.
    assertUsageError(run(['check', 'notes/readme.md'], ws), /notes\/readme\.md: not a definition file/);
    const none = checkJson(['notes/readme.md', '--no-error-on-unmatched-pattern'], ws);
    assert.equal(none.run.code, 0);
    assert.deepEqual(none.report.files, []);
    assert.equal(none.report.summary.files, 0);
  });

  it('lists .subagents.yaml with dialect "config", and reports a broken one on itself', () => {
    const good = workspace({
      '.subagents.yaml': 'mcp:\n  github: [create_issue]\n',
      'apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
    });
    const g = checkJson([], good);
    assert.deepEqual(byPath(g.report, '.subagents.yaml'), {
      path: '.subagents.yaml',
      dialect: 'config',
      diagnostics: [],
    });
    assert.equal(g.run.code, 0);
    const bad = workspace({
      '.subagents.yaml': 'mcp: 3\nrules: {\n',
      'apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
    });
    const b = checkJson([], bad);
    const cfg = byPath(b.report, '.subagents.yaml');
    assert.equal(cfg.dialect, 'config');
    assert.ok(cfg.diagnostics.length >= 1);
    assert.ok(cfg.diagnostics.every((d) => d.rule === 'config/invalid' && d.severity === 'error'));
    assert.equal(b.run.code, 1);
    // The checker carries on with the defaults: the definition is still checked.
    byPath(b.report, 'apps/cli/agents/runner.yaml');
  });
});

describe('subagents check --format text', function () {
  this.timeout(120000); // each test runs the CLI several times
  it('prints `path:line:col severity message [rule]` (1-based) per diagnostic, then a summary', () => {
    const ws = workspace({
      '.polytoken/subagents/broken.md': BROKEN_FRONTMATTER,
      'experts/bad.expert.json': '{ "name": ',
      'apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
    });
    const { report } = checkJson([], ws);
    const r = run(['check'], ws);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, '');
    const lines = r.stdout.replace(/\n$/, '').split('\n');
    const all = report.files.flatMap((f) => f.diagnostics.map((d) => ({ f, d })));
    assert.ok(all.length > 0, 'the workspace has diagnostics to print');
    assert.equal(lines.length, all.length + 1);
    const LINE = /^(.+):(\d+):(\d+) (error|warning|information|hint) (.+) \[([a-z]+\/[a-z-]+)\]$/;
    lines.slice(0, -1).forEach((line, i) => {
      const m = LINE.exec(line);
      assert.ok(m, `line shape: ${line}`);
      const { f, d } = all[i];
      assert.equal(m![1], f.path);
      assert.equal(Number(m![2]), d.range.start.line + 1);
      assert.equal(Number(m![3]), d.range.start.character + 1);
      assert.equal(m![4], d.severity);
      assert.equal(m![6], d.rule);
    });
    const summary = lines[lines.length - 1];
    assert.match(
      summary,
      new RegExp(
        `^${report.summary.files} files? checked: ${report.summary.errors} errors?, ${report.summary.warnings} warnings?, ${report.summary.information} information, ${report.summary.hints} hints?\\.$`,
      ),
    );
  });

  it('prints only the summary for a clean workspace', () => {
    const ws = workspace({ 'apps/cli/agents/runner.yaml': VALID_PICASSO('runner') });
    const r = run(['check'], ws);
    assert.equal(r.code, 0, r.stdout);
    const lines = r.stdout.trimEnd().split('\n');
    assert.match(lines[lines.length - 1], /^1 file checked: 0 errors, 0 warnings, \d+ information, \d+ hints?\.$/);
    assert.ok(
      lines.slice(0, -1).every((l) => / (information|hint) /.test(l)),
      r.stdout,
    );
  });
});

describe('exit statuses', function () {
  this.timeout(120000); // each test runs the CLI several times
  it('0 without errors, 1 with errors', () => {
    const clean = workspace({
      'apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
      'experts/bookkeeper.expert.json': VALID_PROFY,
    });
    const c = checkJson([], clean);
    assert.equal(c.report.summary.errors, 0);
    assert.equal(c.run.code, 0);
    const dirty = workspace({ 'apps/cli/agents/runner.yaml': 'name: [unclosed\n' });
    const d = checkJson([], dirty);
    assert.ok(d.report.summary.errors > 0);
    assert.equal(d.run.code, 1);
    assert.equal(run(['check', '--format', 'sarif'], dirty).code, 1);
    assert.equal(run(['check'], dirty).code, 1);
  });

  it('--max-warnings N: 1 when warnings exceed N, else 0', () => {
    // `rules:` turns every rule into a warning, so whatever fires on the broken files is a warning.
    const ws = workspace({
      '.subagents.yaml': `rules:\n${RULES.map((m) => `  ${m.id}: warning\n`).join('')}`,
      'apps/cli/agents/a.yaml': 'name: [unclosed\n',
      'experts/b.expert.json': '{ "name": ',
    });
    const { run: plain, report } = checkJson([], ws);
    assert.equal(report.summary.errors, 0, JSON.stringify(report));
    const w = report.summary.warnings;
    assert.ok(w >= 2, `warnings: ${w}`);
    assert.equal(plain.code, 0, 'warnings alone do not fail without --max-warnings');
    assert.equal(run(['check', '--max-warnings', String(w)], ws).code, 0);
    assert.equal(run(['check', `--max-warnings=${w + 5}`], ws).code, 0);
    assert.equal(run(['check', '--max-warnings', String(w - 1)], ws).code, 1);
    const zero = run(['check', '--max-warnings', '0'], ws);
    assert.equal(zero.code, 1);
    assert.match(zero.stdout, /too many warnings/i);
    assert.equal(run(['check', '--max-warnings', '0', '--format', 'json'], ws).code, 1);
  });

  it('2 for usage errors, with one line on stderr', () => {
    const ws = workspace({ 'apps/cli/agents/runner.yaml': VALID_PICASSO('runner') });
    assertUsageError(run([], ws), /command/);
    assertUsageError(run(['frobnicate'], ws), /frobnicate/);
    assertUsageError(run(['--frobnicate'], ws), /--frobnicate/);
    assertUsageError(run(['check', '--frobnicate'], ws), /--frobnicate/);
    assertUsageError(run(['check', '-x'], ws), /-x/);
    assertUsageError(run(['check', '--format'], ws), /--format/);
    assertUsageError(run(['check', '--format', 'xml'], ws), /xml/);
    assertUsageError(run(['check', '--format=yaml'], ws), /yaml/);
    assertUsageError(run(['check', '--max-warnings'], ws), /--max-warnings/);
    for (const bad of ['abc', '1.5', '-3', ''])
      assertUsageError(run(['check', '--max-warnings', bad], ws), /max-warnings/);
    assertUsageError(run(['check', '--config'], ws), /--config/);
    assertUsageError(run(['check', '--no-global=yes'], ws), /--no-global/);
    assertUsageError(run(['rules', '--format', 'sarif'], ws), /sarif/);
    assertUsageError(run(['rules', 'extra'], ws));
    assertUsageError(run(['resolve'], ws), /FILE/);
    assertUsageError(run(['lsp'], ws), /--stdio/);
    assertUsageError(run(['lsp', '--tcp'], ws), /--tcp/);
    // Each command names itself in an unknown option's message and in the help it points to.
    for (const command of ['check', 'resolve', 'rules', 'new', 'init', 'diff'])
      assertUsageError(
        run([command, '--bogus'], ws),
        new RegExp(
          `^subagents: unknown option --bogus for \`subagents ${command}\`; run \`subagents ${command} --help\`$`,
        ),
      );
    for (const cache of [['--cache'], ['--cache-location', 'c'], ['--cache-strategy', 'content']])
      assertUsageError(
        run(['check', '--stdin', '--stdin-filename', 'a.md', ...cache], ws),
        /^subagents: --cache is not used with --stdin$/,
      );
    for (const fix of ['--fix', '--fix-dry-run'])
      assertUsageError(
        run(['check', '--stdin', '--stdin-filename', 'a.md', fix], ws),
        /^subagents: --fix and --fix-dry-run work on files, not on --stdin$/,
      );
  });

  it('2 for a missing path, also among existing ones', () => {
    const ws = workspace({ 'apps/cli/agents/runner.yaml': VALID_PICASSO('runner') });
    assertUsageError(run(['check', 'does-not-exist'], ws), /does-not-exist/);
    assertUsageError(run(['check', 'apps', 'nope/agents'], ws), /nope\/agents/);
    assertUsageError(run(['check', 'missing', '--format', 'json'], ws), /missing/);
  });

  it('2 for a missing --config file', () => {
    const ws = workspace({ 'apps/cli/agents/runner.yaml': VALID_PICASSO('runner') });
    assertUsageError(run(['check', '--config', 'no-such.yaml'], ws), /no-such\.yaml/);
    assertUsageError(run(['check', '--config', 'apps'], ws), /apps/);
  });

  function assertIoErrorRun(ws: string, unreadable: string) {
    const r = run(['check', '--format', 'json'], ws);
    assert.equal(r.code, 2, r.stderr);
    const lines = r.stderr.split('\n').filter(Boolean);
    assert.equal(lines.length, 1, r.stderr);
    assert.ok(lines[0].startsWith(`subagents: ${unreadable}: `), lines[0]);
    // The report is still printed, with the readable files.
    const report = JSON.parse(r.stdout) as JsonReport;
    assert.deepEqual(
      report.files.map((f) => f.path),
      ['apps/cli/agents/runner.yaml'],
    );
    const text = run(['check'], ws);
    assert.equal(text.code, 2);
    assert.match(text.stdout, /1 file checked/);
    // SARIF records the failed read as a tool execution notification.
    const sarif = run(['check', '--format', 'sarif'], ws);
    assert.equal(sarif.code, 2);
    const log = JSON.parse(sarif.stdout);
    const validate = validator();
    assert.ok((validate as (data: unknown) => boolean)(log), JSON.stringify(validate.errors));
    const invocation = log.runs[0].invocations[0];
    assert.equal(invocation.executionSuccessful, false);
    assert.ok(invocation.toolExecutionNotifications.some((n: any) => n.message.text.startsWith(unreadable)));
  }

  it('2 for an unreadable file (chmod 000), the report still printed', function () {
    if (process.getuid?.() === 0) this.skip(); // root reads a chmod 000 file: covered by the next test
    if (process.platform === 'win32') this.skip(); // no POSIX permissions
    const ws = workspace({
      'apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
      'apps/cli/agents/secret.yaml': VALID_PICASSO('secret'),
    });
    fs.chmodSync(path.join(ws, 'apps/cli/agents/secret.yaml'), 0o000);
    try {
      assertIoErrorRun(ws, 'apps/cli/agents/secret.yaml');
    } finally {
      fs.chmodSync(path.join(ws, 'apps/cli/agents/secret.yaml'), 0o600);
    }
  });

  it('2 for a file whose read fails with an I/O error (a link to /proc/self/mem), also as root', function () {
    if (process.platform !== 'linux' || !fs.existsSync('/proc/self/mem')) this.skip(); // needs Linux's /proc
    const ws = workspace({ 'apps/cli/agents/runner.yaml': VALID_PICASSO('runner') });
    fs.symlinkSync('/proc/self/mem', path.join(ws, 'apps/cli/agents/mem.yaml'));
    assertIoErrorRun(ws, 'apps/cli/agents/mem.yaml');
  });
});

describe('configuration: --config, --no-global, the global folder', function () {
  this.timeout(120000); // each test runs the CLI several times
  it('--config FILE replaces the nearest .subagents.yaml for every file', () => {
    const ws = workspace({
      '.subagents.yaml': 'rules:\n  syntax/yaml: error\n',
      'apps/cli/agents/a.yaml': 'name: [unclosed\n',
      'sub/apps/cli/agents/b.yaml': 'name: [unclosed\n',
      'sub/.subagents.yaml': 'rules:\n  syntax/yaml: error\n',
    });
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'quiet.yaml'), 'rules:\n  syntax/yaml: off\n');
    const without = checkJson([], ws).report;
    assert.ok(rulesOf(byPath(without, 'apps/cli/agents/a.yaml')).includes('syntax/yaml'));
    assert.ok(rulesOf(byPath(without, 'sub/apps/cli/agents/b.yaml')).includes('syntax/yaml'));
    const withConfig = checkJson(['--config', path.join(outside, 'quiet.yaml')], ws);
    assert.ok(!rulesOf(byPath(withConfig.report, 'apps/cli/agents/a.yaml')).includes('syntax/yaml'));
    assert.ok(!rulesOf(byPath(withConfig.report, 'sub/apps/cli/agents/b.yaml')).includes('syntax/yaml'));
    // A relative --config is relative to the current folder.
    fs.writeFileSync(path.join(ws, 'quiet.yaml'), 'rules:\n  syntax/yaml: hint\n');
    const relative = checkJson(['--config', 'quiet.yaml'], ws).report;
    const a = byPath(relative, 'apps/cli/agents/a.yaml').diagnostics.filter((d) => d.rule === 'syntax/yaml');
    assert.ok(a.length > 0 && a.every((d) => d.severity === 'hint'));
  });

  it('a broken --config file is reported on itself (config/invalid) and the defaults are used', () => {
    const ws = workspace({ 'apps/cli/agents/runner.yaml': VALID_PICASSO('runner') });
    const outside = tempDir();
    fs.writeFileSync(path.join(outside, 'broken.yaml'), 'rules: [\n');
    const { run: r, report } = checkJson(['--config', path.join(outside, 'broken.yaml')], ws);
    assert.equal(r.code, 1);
    const cfg = report.files.find((f) => f.dialect === 'config');
    assert.ok(cfg, 'the configuration is listed');
    assert.equal(cfg!.path, path.posix.relative(ws, path.join(outside, 'broken.yaml').split(path.sep).join('/')));
    assert.ok(cfg!.diagnostics.length > 0 && cfg!.diagnostics.every((d) => d.rule === 'config/invalid'));
    byPath(report, 'apps/cli/agents/runner.yaml');
    // Also when no checked file uses it (an empty folder, allowed to hold no definition).
    const empty = checkJson(
      ['--config', path.join(outside, 'broken.yaml'), '--no-error-on-unmatched-pattern'],
      tempDir(),
    );
    assert.equal(empty.run.code, 1);
    assert.deepEqual(
      empty.report.files.map((f) => f.dialect),
      ['config'],
    );
  });

  it('never reports files of the global folder (XDG_CONFIG_HOME), with or without --no-global', () => {
    const xdg = tempDir('subagents-xdg-');
    fs.mkdirSync(path.join(xdg, 'polytoken', 'subagents'), { recursive: true });
    fs.writeFileSync(path.join(xdg, 'polytoken', 'subagents', 'reviewer.md'), BROKEN_FRONTMATTER);
    fs.writeFileSync(path.join(xdg, 'polytoken', 'subagents', 'other.md'), VALID_POLYTOKEN('other'));
    const ws = workspace({ '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer') });
    for (const extra of [[], ['--no-global']]) {
      const { run: r, report } = checkJson(extra, ws, { XDG_CONFIG_HOME: xdg });
      assert.deepEqual(
        report.files.map((f) => f.path),
        ['.polytoken/subagents/reviewer.md'],
      );
      assert.equal(r.stderr, '');
      assert.equal(report.summary.errors, 0, JSON.stringify(report));
    }
    // Checking the global folder itself reports nothing either: it is read only for shadowing,
    // so it holds no definition to check (exit 2, unless allowed).
    const globalDir = path.join(xdg, 'polytoken', 'subagents');
    assertUsageError(run(['check', globalDir], ws, { XDG_CONFIG_HOME: xdg }), /no definition file in this folder/);
    const inGlobal = checkJson([globalDir, '--no-error-on-unmatched-pattern'], ws, { XDG_CONFIG_HOME: xdg }).report;
    assert.deepEqual(inGlobal.files, []);
  });

  it('--no-global turns the global folder off: its files become ordinary definitions', () => {
    // The global folder named in the configuration lies inside the workspace and matches the default globs.
    const ws = workspace({
      '.subagents.yaml': 'polytoken:\n  globalDir: shared/.polytoken/subagents\n',
      'shared/.polytoken/subagents/helper.md': VALID_POLYTOKEN('helper'),
      '.polytoken/subagents/helper.md': VALID_POLYTOKEN('helper'),
    });
    const withGlobal = checkJson([], ws).report;
    assert.deepEqual(
      withGlobal.files.map((f) => f.path),
      ['.polytoken/subagents/helper.md', '.subagents.yaml'],
    );
    const noGlobal = checkJson(['--no-global'], ws).report;
    assert.deepEqual(
      noGlobal.files.map((f) => f.path),
      ['.polytoken/subagents/helper.md', '.subagents.yaml', 'shared/.polytoken/subagents/helper.md'],
    );
    // Two projects never shadow each other.
    assert.ok(
      noGlobal.files.every((f) => !rulesOf(f).includes('polytoken/shadowed')),
      JSON.stringify(noGlobal),
    );
  });

  it('polytoken/shadowed: a subagentDirs definition replaced by the project one', function () {
    // The rule is in the registry, so it must be implemented: a missing rule fails here rather than skipping.
    assert.ok(
      DIALECT_MODULES.polytoken.rules.some((r) => r.ids.includes('polytoken/shadowed')),
      'polytoken/shadowed is implemented',
    );
    const ws = workspace({
      '.subagents.yaml': 'polytoken:\n  subagentDirs: [vendor/agents]\n',
      'vendor/agents/helper.md': VALID_POLYTOKEN('helper'),
      '.polytoken/subagents/helper.md': VALID_POLYTOKEN('helper'),
    });
    const xdg = tempDir('subagents-xdg-');
    const { report } = checkJson([], ws, { XDG_CONFIG_HOME: xdg });
    const vendor = byPath(report, 'vendor/agents/helper.md');
    const shadowed = vendor.diagnostics.filter((d) => d.rule === 'polytoken/shadowed');
    assert.equal(shadowed.length, 1, JSON.stringify(vendor));
    assert.equal(shadowed[0].severity, 'information');
    assert.match(shadowed[0].message, /\.polytoken\/subagents\/helper\.md/);
    assert.ok(!rulesOf(byPath(report, '.polytoken/subagents/helper.md')).includes('polytoken/shadowed'));
  });
});

describe('subagents check --format sarif', function () {
  this.timeout(120000); // each test runs the CLI several times
  it('is valid SARIF 2.1.0 with one result per diagnostic and one descriptor per rule', function () {
    const ws = workspace({
      '.polytoken/subagents/broken.md': BROKEN_FRONTMATTER,
      '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer'),
      'experts/bad.expert.json': '{ "name": ',
      'apps/cli/agents/my role.yaml': 'name: [unclosed\n',
    });
    const { report } = checkJson([], ws);
    const r = run(['check', '--format', 'sarif'], ws);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, '');
    const log = JSON.parse(r.stdout);
    const validate = validator();
    const valid = (validate as (data: unknown) => boolean)(log);
    assert.ok(valid, JSON.stringify(validate.errors, null, 2));
    assert.equal(log.version, '2.1.0');
    assert.equal(log.runs.length, 1);
    const runObj = log.runs[0];
    const rules = runObj.tool.driver.rules as {
      id: string;
      shortDescription: { text: string };
      helpUri: string;
      defaultConfiguration: { level: string };
    }[];
    const ids = rules.map((x) => x.id);
    assert.equal(new Set(ids).size, ids.length, 'one descriptor per rule');
    for (const id of RULE_IDS) assert.ok(ids.includes(id), `descriptor for ${id}`);
    for (const d of rules) {
      const meta = RULES.find((m) => m.id === d.id)!;
      assert.equal(d.shortDescription.text, meta.summary);
      assert.ok(d.helpUri.endsWith(`/${d.id}.md`), d.helpUri);
      assert.equal(
        d.defaultConfiguration.level,
        { error: 'error', warning: 'warning', information: 'note', hint: 'note' }[meta.defaultSeverity],
      );
    }
    const all = report.files.flatMap((f) => f.diagnostics.map((d) => ({ f, d })));
    assert.ok(all.length > 0);
    assert.equal(runObj.results.length, all.length);
    runObj.results.forEach((res: any, i: number) => {
      const { f, d } = all[i];
      assert.equal(res.ruleId, d.rule);
      assert.equal(ids[res.ruleIndex], d.rule);
      const loc = res.locations[0].physicalLocation;
      assert.equal(decodeURIComponent(loc.artifactLocation.uri), f.path);
      assert.ok(!loc.artifactLocation.uri.includes('\\') && !/^[a-z]+:/.test(loc.artifactLocation.uri), 'relative URI');
      assert.deepEqual(loc.region, {
        startLine: d.range.start.line + 1,
        startColumn: d.range.start.character + 1,
        endLine: d.range.end.line + 1,
        endColumn: d.range.end.character + 1,
      });
      assert.equal(res.message.text, d.message);
    });
    // The space in `my role.yaml` is percent-encoded.
    assert.ok(
      runObj.results.some(
        (res: any) => res.locations[0].physicalLocation.artifactLocation.uri === 'apps/cli/agents/my%20role.yaml',
      ),
    );
  });

  it('a clean workspace gives a valid log with no results', function () {
    const ws = workspace({ 'apps/cli/agents/runner.yaml': VALID_PICASSO('runner') });
    const r = run(['check', '--format', 'sarif'], ws);
    const log = JSON.parse(r.stdout);
    const validate = validator();
    const valid = (validate as (data: unknown) => boolean)(log);
    assert.ok(valid, JSON.stringify(validate.errors, null, 2));
    assert.equal(r.code, 0);
    assert.equal(log.runs[0].results.filter((x: any) => x.level === 'error' || x.level === 'warning').length, 0);
  });

  it('the schema fixture rejects a malformed log (the validation can fail)', function () {
    const validate = validator();
    assert.equal(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] }), false);
    assert.equal(validate({ version: '9.9', runs: [] }), false);
    assert.equal(validate({ version: '2.1.0', runs: [] }), true);
    const region = (r: object) => ({
      version: '2.1.0',
      runs: [
        {
          tool: { driver: { name: 'x' } },
          results: [
            {
              message: { text: 'm' },
              locations: [{ physicalLocation: { artifactLocation: { uri: 'a b' }, region: r } }],
            },
          ],
        },
      ],
    });
    assert.equal(validate(region({ startLine: 1 })), false, 'a URI with a space is not a uri-reference');
    const ok = region({ startLine: 1, startColumn: 1 });
    ok.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri = 'a%20b';
    assert.equal(validate(ok), true);
    const zero = region({ startLine: 0 });
    zero.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri = 'a%20b';
    assert.equal(validate(zero), false, 'lines are 1-based');
    const badLevel = region({ startLine: 1 });
    badLevel.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri = 'a%20b';
    (badLevel.runs[0].results[0] as Record<string, unknown>).level = 'fatal';
    assert.equal(validate(badLevel), false, 'level is one of none, note, warning, error');
  });
});

describe('subagents resolve', function () {
  this.timeout(120000); // each test runs the CLI several times
  it('prints { file, dialect, definitions } for a Picasso role (Picasso resolution)', () => {
    const ws = workspace({
      'apps/cli/agents/refactorer.yaml': `name: refactorer
invocation: "@refactorer"
model: some-model
tools: [read_file, edit_file, delete_file, query_memory, grep]
deny: [grep]
memory: read-only
max_steps: 5
max_depth: 0
`,
    });
    const r = run(['resolve', 'apps/cli/agents/refactorer.yaml', '--format', 'json'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    const res = JSON.parse(r.stdout);
    assert.equal(res.file, 'apps/cli/agents/refactorer.yaml');
    assert.equal(res.dialect, 'picasso');
    assert.equal(res.definitions.length, 1);
    const d = res.definitions[0];
    assert.equal(d.name, 'refactorer');
    // tools minus deny minus the memory scope's denials (read-only has nothing to deny here)
    assert.deepEqual(d.tools, ['delete_file', 'edit_file', 'query_memory', 'read_file']);
    assert.ok(Array.isArray(d.removed));
    assert.ok(d.removed.some((x: any) => x.tool === 'grep'));
    assert.ok(['loads', 'rejected', 'dropped'].includes(d.status));
    // The same from another folder: `file` is relative to the current folder.
    fs.mkdirSync(path.join(ws, 'notes'));
    const fromSub = run(['resolve', '../apps/cli/agents/refactorer.yaml', '--format=json'], path.join(ws, 'notes'));
    assert.equal(JSON.parse(fromSub.stdout).file, '../apps/cli/agents/refactorer.yaml');
    const fromApps = run(['resolve', 'cli/agents/refactorer.yaml', '--format=json'], path.join(ws, 'apps'));
    assert.equal(JSON.parse(fromApps.stdout).file, 'cli/agents/refactorer.yaml');
  });

  it('every definition has the required fields; a Profy file has one per subagent, in order', () => {
    const ws = workspace({
      'experts/bookkeeper.expert.json': VALID_PROFY,
      '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer'),
    });
    for (const [file, dialect] of [
      ['experts/bookkeeper.expert.json', 'profy'],
      ['.polytoken/subagents/reviewer.md', 'polytoken'],
    ]) {
      const r = run(['resolve', file, '--format', 'json'], ws);
      assert.equal(r.code, 0, r.stderr);
      const res = JSON.parse(r.stdout);
      assert.equal(res.file, file);
      assert.equal(res.dialect, dialect);
      assert.ok(Array.isArray(res.definitions));
      for (const d of res.definitions) {
        assert.equal(typeof d.name, 'string');
        assert.ok(['loads', 'rejected', 'dropped'].includes(d.status));
        assert.ok(Array.isArray(d.tools) && Array.isArray(d.removed));
        assert.deepEqual(d.tools, [...new Set(d.tools as string[])].sort(), 'tools sorted and unique');
      }
      assert.deepEqual(
        res.definitions.map((d: any) => d.name),
        dialect === 'profy' ? ['scanner'] : ['reviewer'],
      );
    }
  });

  it('Polytoken resolution follows docs/runtimes/polytoken.md', () => {
    const ws = workspace({ '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer') });
    const res = JSON.parse(run(['resolve', '.polytoken/subagents/reviewer.md', '--format', 'json'], ws).stdout);
    assert.equal(res.definitions.length, 1);
    const d = res.definitions[0];
    assert.equal(d.name, 'reviewer');
    assert.equal(d.status, 'loads');
    assert.deepEqual(d.tools, ['exit_tool', 'file_read']);
    assert.deepEqual(d.undeferred, ['file_read']);
    assert.deepEqual(d.unexpanded, []);
    assert.ok(d.removed.some((x: any) => x.tool === 'grep' && x.by === 'tools_deny'));
  });

  it('prints a readable text summary', () => {
    const ws = workspace({ 'apps/cli/agents/runner.yaml': VALID_PICASSO('runner') });
    const r = run(['resolve', 'apps/cli/agents/runner.yaml'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^apps\/cli\/agents\/runner\.yaml \(picasso\)/);
    assert.match(r.stdout, /\nrunner: (loads|rejected)/);
    assert.match(r.stdout, /tools: +grep, read_file\n/);
  });

  it('prints what was removed and by which key, one line per part', () => {
    const ws = workspace({ '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer') });
    const r = run(['resolve', '.polytoken/subagents/reviewer.md'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        '.polytoken/subagents/reviewer.md (polytoken): 1 definition',
        '',
        'reviewer: loads',
        '  tools:      exit_tool, file_read',
        '  undeferred: file_read',
        '  removed:    grep (by tools_deny)',
        '  unexpanded: (none)',
        '',
      ].join('\n'),
    );
  });

  it('2 for a missing file, a folder, a file that is not a definition, or the configuration', () => {
    const ws = workspace({
      'apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
      'notes/readme.md': '# hi\n',
      '.subagents.yaml': 'mcp: {}\n',
    });
    assertUsageError(run(['resolve', 'nope.yaml'], ws), /nope\.yaml/);
    assertUsageError(run(['resolve', 'apps'], ws), /apps/);
    assertUsageError(run(['resolve', 'notes/readme.md'], ws), /notes\/readme\.md/);
    assertUsageError(run(['resolve', '.subagents.yaml'], ws), /subagents\.yaml/);
    assertUsageError(run(['resolve', 'apps/cli/agents/runner.yaml', 'notes/readme.md'], ws));
    assertUsageError(run(['resolve', 'apps/cli/agents/runner.yaml', '--format', 'sarif'], ws), /sarif/);
  });
});

describe('subagents rules', function () {
  this.timeout(120000); // each test runs the CLI several times
  it('--format json lists every registered rule with id, severity, summary and docs', () => {
    const ws = tempDir();
    const r = run(['rules', '--format', 'json'], ws);
    assert.equal(r.code, 0);
    const out = JSON.parse(r.stdout);
    assert.deepEqual(Object.keys(out), ['rules']);
    assert.deepEqual(
      out.rules.map((x: any) => x.id),
      RULES.map((x) => x.id),
    );
    for (const x of out.rules) {
      assert.deepEqual(Object.keys(x).sort(), ['docs', 'id', 'severity', 'summary']);
      const meta = RULES.find((m) => m.id === x.id)!;
      assert.equal(x.severity, meta.defaultSeverity);
      assert.equal(x.summary, meta.summary);
      assert.ok(x.summary.length > 0 && !x.summary.includes('\n'));
      assert.ok(x.docs.endsWith(`/${x.id}.md`), x.docs);
    }
  });

  it('text lists one line per rule', () => {
    const r = run(['rules'], tempDir());
    assert.equal(r.code, 0);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, RULES.length);
    const docs = JSON.parse(run(['rules', '--format', 'json'], tempDir()).stdout).rules.map((x: any) => x.docs);
    // Columns two spaces apart: the ids padded to the longest, the severities to `deprecated` and more.
    const severityAt = Math.max(...RULES.map((m) => m.id.length)) + 2;
    RULES.forEach((m, i) => {
      assert.ok(lines[i].startsWith(m.id + ' '), lines[i]);
      assert.ok(lines[i].startsWith(`${m.defaultSeverity} `, severityAt), lines[i]);
      assert.ok(lines[i].startsWith(`${m.summary}  ${docs[i]}`, severityAt + 13), lines[i]);
      assert.ok(lines[i].endsWith(docs[i]), lines[i]);
    });
  });

  it('the README rule table is the one the registry generates', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'gen-rules-table.mjs'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });
});

describe('subagents lsp --stdio', function () {
  this.timeout(60000);
  it('answers initialize with the server capabilities and exits on shutdown/exit', async () => {
    const session = await lspSession(process.execPath, [CLI, 'lsp', '--stdio'], tempDir(), {
      ...process.env,
      XDG_CONFIG_HOME: emptyXdg,
    });
    assert.ok(session.init.result?.capabilities, JSON.stringify(session.init));
    assert.equal(session.code, 0);
    assert.doesNotMatch(session.stderr, /\n\s+at /);
  });
});

describe('help and version', function () {
  this.timeout(120000); // each test runs the CLI several times
  it('--version prints the package version', () => {
    const r = run(['--version'], tempDir());
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim(), PKG.version);
  });

  it('--help and -h print usage for the program and each command', () => {
    const ws = tempDir();
    for (const args of [
      ['--help'],
      ['-h'],
      ['check', '--help'],
      ['resolve', '-h'],
      ['rules', '--help'],
      ['lsp', '--help'],
    ]) {
      const r = run(args, ws);
      assert.equal(r.code, 0, args.join(' '));
      assert.equal(r.stderr, '');
      assert.match(r.stdout, /[Uu]sage/);
    }
    const main = run(['--help'], ws).stdout;
    for (const c of ['check', 'resolve', 'rules', 'lsp']) assert.match(main, new RegExp(`subagents ${c}`));
    assert.match(run(['check', '--help'], ws).stdout, /--max-warnings/);
  });
});

describe('bad input sweep', function () {
  this.timeout(120000); // each test runs the CLI several times
  it('empty, binary, huge, broken, CRLF and BOM files give diagnostics, exit <= 1 and nothing on stderr', function () {
    this.timeout(60000);
    const huge = `---\nname: huge\ndescription: x\npolytoken: {}\n---\n${'word '.repeat(2 * 1024 * 1024)}\n`; // 10 MB
    const crlf = VALID_POLYTOKEN('crlf').replace(/\n/g, '\r\n');
    const ws = workspace({
      '.polytoken/subagents/empty.md': '',
      'experts/empty.expert.json': '',
      'apps/cli/agents/empty.yaml': '',
      'apps/cli/agents/binary.yaml': Buffer.from([
        0x6e, 0x61, 0x6d, 0x65, 0x3a, 0x00, 0x01, 0x02, 0xff, 0xfe, 0x00, 0x0a,
      ]),
      'experts/binary.expert.json': Buffer.from([0x7b, 0x00, 0x00, 0x7d]),
      '.polytoken/subagents/huge.md': huge,
      'apps/cli/agents/broken.yaml': 'name: runner\ntools: [read_file\n  : - ]\n',
      'apps/cli/agents/dupe.yaml': 'name: a\nname: b\n',
      'experts/broken.expert.json': '{ "name": "x", "tools": [ }',
      'experts/array.expert.json': '[1, 2, 3]',
      '.picasso/agents/unclosed.md': '---\nname: unclosed\n',
      '.polytoken/subagents/unclosed.md': '---\nname: unclosed\ndescription: x\n',
      '.polytoken/subagents/crlf.md': crlf,
      'experts/bom.expert.json': '\uFEFF' + VALID_PROFY,
      'apps/cli/agents/bom.yaml': '\uFEFF' + VALID_PICASSO('bom'),
      '.polytoken/subagents/tabs.md': '---\nname:\ttabs\n\tdescription: x\n---\n',
      '.polytoken/subagents/deep.md': `---\nname: deep\ndescription: x\npolytoken: ${'['.repeat(5000)}${']'.repeat(5000)}\n---\n`,
      'apps/cli/agents/alias.yaml':
        'a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\ne: [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n',
    });
    const { run: r, report } = checkJson([], ws);
    assert.equal(r.stderr, '');
    assert.ok(r.code === 0 || r.code === 1, `exit ${r.code}`);
    assert.equal(report.files.length, 18);
    const withSyntax = (p: string) => rulesOf(byPath(report, p)).some((x) => x.startsWith('syntax/'));
    for (const p of [
      'experts/empty.expert.json',
      'apps/cli/agents/binary.yaml',
      'experts/binary.expert.json',
      '.polytoken/subagents/huge.md',
      'apps/cli/agents/broken.yaml',
      'apps/cli/agents/dupe.yaml',
      'experts/broken.expert.json',
      '.polytoken/subagents/unclosed.md',
    ]) {
      assert.ok(withSyntax(p), `${p} has a syntax diagnostic: ${JSON.stringify(byPath(report, p).diagnostics)}`);
    }
    for (const p of [
      '.polytoken/subagents/empty.md',
      'apps/cli/agents/empty.yaml',
      'experts/array.expert.json',
      '.polytoken/subagents/tabs.md',
      'apps/cli/agents/alias.yaml',
      '.picasso/agents/unclosed.md',
    ]) {
      assert.ok(byPath(report, p).diagnostics.length > 0, `${p} has diagnostics`);
    }
    // CRLF and BOM files parse like any other.
    for (const p of ['.polytoken/subagents/crlf.md', 'experts/bom.expert.json', 'apps/cli/agents/bom.yaml']) {
      assert.ok(!withSyntax(p), `${p}: ${JSON.stringify(byPath(report, p).diagnostics)}`);
    }
    // The text and SARIF formats survive the same input.
    for (const format of ['text', 'sarif']) {
      const o = run(['check', '--format', format], ws);
      assert.equal(o.stderr, '');
      assert.equal(o.code, r.code);
    }
    // resolve never crashes on them either.
    const resolved: string[] = [];
    for (const f of report.files) {
      const res = run(['resolve', f.path, '--format', 'json'], ws);
      assert.doesNotMatch(res.stderr, /\n\s+at |internal error/, `${f.path}: ${res.stderr}`);
      assert.ok(res.code === 0 || res.code === 2, `${f.path}: exit ${res.code}`);
      if (res.code === 0) {
        assert.equal(JSON.parse(res.stdout).file, f.path);
        resolved.push(f.path);
      }
    }
    // The well-formed ones (CRLF, BOM) do resolve, so the check above is not vacuous.
    for (const p of ['.polytoken/subagents/crlf.md', 'experts/bom.expert.json', 'apps/cli/agents/bom.yaml'])
      assert.ok(resolved.includes(p), `${p} resolves; resolved: ${resolved.join(', ')}`);
  });
});

describe('the examples workspace', function () {
  this.timeout(120000); // each test runs the CLI several times
  it('the README examples show real output', () => {
    const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const jsonAfter = (marker: string) => {
      const at = readme.indexOf(marker);
      assert.ok(at >= 0, marker);
      const start = readme.indexOf('```json\n', at) + '```json\n'.length;
      return JSON.parse(readme.slice(start, readme.indexOf('```', start)));
    };
    const shown = jsonAfter('resolve examples/.polytoken/subagents/code-reviewer.md --format json');
    const real = JSON.parse(
      run(['resolve', 'examples/.polytoken/subagents/code-reviewer.md', '--format', 'json'], ROOT).stdout,
    );
    assert.equal(shown.file, real.file);
    assert.equal(shown.dialect, real.dialect);
    for (const key of ['name', 'status', 'tools', 'undeferred', 'unexpanded', 'removed'])
      assert.deepEqual(shown.definitions[0][key], real.definitions[0][key], key);
    const check = jsonAfter('The JSON report (`check examples/.polytoken/subagents/triage.md -f json`, shortened):');
    const triage = byPath(
      checkJson(['examples/.polytoken/subagents/triage.md'], ROOT).report,
      'examples/.polytoken/subagents/triage.md',
    );
    const d = triage.diagnostics.find((x) => x.rule === 'polytoken/name-mismatch')!;
    assert.deepEqual(check.files[0].diagnostics[0].range, d.range);
    assert.equal(check.files[0].path, triage.path);
  });

  it('shows real problems in every dialect and exits 1', () => {
    const { run: r, report } = checkJson(['examples'], ROOT);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, '');
    for (const dialect of ['polytoken', 'profy', 'picasso']) {
      assert.ok(
        report.files.some((f) => f.dialect === dialect),
        `a ${dialect} file`,
      );
    }
    for (const f of report.files) assert.ok(f.path.startsWith('examples/'), f.path);
    // The mistakes each example was written to show (README, "The example workspace").
    const expected: Record<string, string[]> = {
      'examples/.polytoken/subagents/triage.md': ['polytoken/name-mismatch', 'polytoken/exit-tool-listed'],
      'examples/.polytoken/subagents/release-helper.md': [
        'polytoken/switch-facet',
        'polytoken/undeniable-tool',
        'polytoken/unknown-tool',
      ],
      'examples/.polytoken/subagents/status-reporter.md': [
        'polytoken/unrecognized-status-enum',
        'polytoken/template-syntax',
      ],
      'examples/apps/cli/agents/DocWriter.yaml': ['picasso/name-format', 'picasso/invocation-mismatch'],
      'examples/apps/cli/agents/refactorer.yaml': ['picasso/tools-deny-overlap', 'picasso/memory-conflict'],
      'examples/experts/ledger-auditor.expert.json': [
        'profy/reserved-tool',
        'profy/unresolved-tool',
        'profy/duplicate-name',
        'profy/no-tools',
        'profy/whitelist-cap',
      ],
    };
    for (const [file, rules] of Object.entries(expected)) {
      const found = rulesOf(byPath(report, file));
      for (const rule of rules) assert.ok(found.includes(rule), `${file}: ${rule} (found ${found.join(', ')})`);
    }
    // The valid examples are clean (code-reviewer.md also shows a suppression comment at work).
    for (const file of [
      'examples/.polytoken/subagents/code-reviewer.md',
      'examples/.picasso/agents/test_runner.md',
      'examples/experts/bookkeeper.expert.json',
      'examples/.subagents.yaml',
    ]) {
      const f = byPath(report, file);
      assert.deepEqual(
        f.diagnostics.filter((d) => d.severity === 'error' || d.severity === 'warning'),
        [],
        file,
      );
    }
  });
});
