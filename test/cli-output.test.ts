/**
 * The check report people read, through the real CLI: `stylish` (grouped by file, identical
 * consecutive messages folded, a summary with the problems and those `--fix` would fix), the
 * default on a terminal and wrapped to its width, while piped output keeps the contract's `text`;
 * format names in any case; did-you-mean for a misspelt option or command; the `files:` hint.
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import { assertUsageError, CLI, Temps, VALID_POLYTOKEN } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

const A = '.polytoken/subagents/a.md';
const B = '.polytoken/subagents/b.md';
/** a: exit_tool listed (an error whose preferred fix removes it) and file_raed (a warning, its suggestion only offered); c: an unknown tool nothing is near (a hint). */
const WORKSPACE = {
  [A]: VALID_POLYTOKEN('a', '[file_read, exit_tool, file_raed]'),
  [B]: VALID_POLYTOKEN('b'),
  // The same unknown tool three times in a row: one row.
  '.polytoken/subagents/c.md': VALID_POLYTOKEN('c', '[zzz_tool, zzz_tool, zzz_tool]'),
};

const ANSI = /\u001b\[[0-9;]*m/g;

describe('check: the stylish report and the text contract', function () {
  this.timeout(60000);

  it('-f stylish groups rows under each file, folds identical messages and counts what --fix fixes', () => {
    const ws = temps.workspace(WORKSPACE);
    const r = temps.run(['check', '-f', 'stylish'], ws);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.split('\n');
    // A heading per file with problems, none for the clean one.
    assert.ok(lines.includes(A), r.stdout);
    assert.ok(!lines.includes(B), r.stdout);
    const rows = lines.filter((l) => /^ +\d+:\d+ {2}/.test(l));
    assert.ok(
      rows.some((l) => /^ +5:\d+ {2}error {4}.*polytoken\/exit-tool-listed$/.test(l)),
      rows.join('\n'),
    );
    assert.ok(rows.some((l) => /^ +5:\d+ {2}warning {2}.*polytoken\/unknown-tool$/.test(l)));
    // The rule column lines up within a file.
    const aRows = rows.slice(0, 2);
    assert.equal(aRows[0].indexOf('polytoken/'), aRows[1].indexOf('polytoken/'));
    const folded = rows.filter((l) => l.includes('zzz_tool'));
    assert.equal(folded.length, 1, rows.join('\n'));
    assert.match(folded[0], /\(×3: also 5:\d+, 5:\d+\)/);
    assert.match(r.stdout, /\n✖ 5 problems \(1 error, 1 warning, 3 hints\) in 3 files checked\n/);
    assert.match(r.stdout, /\n {2}1 of them fixable with `--fix`/);
  });

  it('SARIF marks the one result --fix fixes (`fixable`), as stylish counts it', () => {
    const ws = temps.workspace(WORKSPACE);
    const r = temps.run(['check', '-f', 'sarif'], ws);
    const results = JSON.parse(r.stdout).runs[0].results as { ruleId: string; properties?: { fixable?: unknown } }[];
    assert.equal(results.length, 5, r.stdout);
    assert.deepEqual(
      results.filter((x) => x.properties && 'fixable' in x.properties).map((x) => [x.ruleId, x.properties?.fixable]),
      [['polytoken/exit-tool-listed', true]],
    );
  });

  it('a clean workspace: one line', () => {
    const ws = temps.workspace({ [B]: VALID_POLYTOKEN('b') });
    const r = temps.run(['check', '-f', 'stylish'], ws);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, '\n✔ no problems in 1 file checked\n');
  });

  it('piped, the default stays the contract: one `path:line:col severity message [rule]` line each', () => {
    const ws = temps.workspace(WORKSPACE);
    const r = temps.run(['check'], ws);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 6);
    for (const line of lines.slice(0, -1))
      assert.match(line, /^\S+:\d+:\d+ (error|warning|hint) .+ \[[a-z]+\/[a-z-]+\]$/);
    assert.match(lines[5], /^3 files checked: 1 error, 1 warning, 0 information, 3 hints/);
  });

  it('the cache keeps what the report counts', () => {
    const ws = temps.workspace(WORKSPACE);
    const first = temps.run(['check', '-f', 'stylish', '--cache'], ws);
    const second = temps.run(['check', '-f', 'stylish', '--cache'], ws);
    assert.match(first.stdout, /1 of them fixable/);
    assert.equal(second.stdout, first.stdout);
  });

  it('format names in any case', () => {
    const ws = temps.workspace(WORKSPACE);
    assert.equal(JSON.parse(temps.run(['check', '--format=SARIF'], ws).stdout).version, '2.1.0');
    assert.match(temps.run(['check', '-f', 'Stylish'], ws).stdout, /✖ 5 problems/);
    assert.equal(JSON.parse(temps.run(['resolve', A, '-f', 'JSON'], ws).stdout).file, A);
  });

  it('on a terminal the default is stylish, wrapped to its width', function () {
    if (spawnSync('script', ['--version']).status !== 0) this.skip(); // util-linux script(1) gives the CLI a terminal
    const ws = temps.workspace(WORKSPACE);
    const out = spawnSync('script', ['-qec', `stty cols 70; "${process.execPath}" "${CLI}" check`, '/dev/null'], {
      cwd: ws,
      encoding: 'utf8',
      env: { ...process.env, XDG_CONFIG_HOME: temps.xdg, NO_COLOR: '1', FORCE_COLOR: '' },
    }).stdout.replace(ANSI, '');
    const lines = out.split(/\r?\n/);
    assert.ok(lines.includes(A), out);
    assert.ok(
      lines.every((l) => l.length <= 70),
      lines.filter((l) => l.length > 70).join('\n'),
    );
    // A message longer than the row is continued on the next lines, under the message column.
    assert.ok(
      lines.some((l) => /^ {10,}\S/.test(l)),
      out,
    );
  });

  it('did you mean: a misspelt option, command or format', () => {
    const ws = temps.workspace(WORKSPACE);
    assertUsageError(temps.run(['check', '--formt', 'json'], ws), /unknown option --formt .*did you mean `--format`\?/);
    assertUsageError(temps.run(['chek'], ws), /unknown command "chek" \(did you mean `check`\?\)/);
    assertUsageError(temps.run(['check', '-f', 'jsn'], ws), /unknown format "jsn" .*did you mean `json`\?/);
    assertUsageError(temps.run(['zzzzzz'], ws), /unknown command "zzzzzz"; run/);
  });

  it('a file outside the known patterns: the hint names `files:`', () => {
    const ws = temps.workspace({ ...WORKSPACE, 'agents/helper.md': VALID_POLYTOKEN('helper') });
    assertUsageError(
      temps.run(['check', 'agents/helper.md'], ws),
      /agents\/helper\.md: not a definition file by its path .*add a glob that matches it under `files:` in \.subagents\.yaml/,
    );
  });

  it('nothing found: a file that looks meant as a definition is named, with where its runtime reads them', () => {
    const ws = temps.workspace({
      'docs/readme.md': '# notes\n',
      '.polytoken/agents/helper.md': VALID_POLYTOKEN('helper'),
      'experts/triage-expert.json': '{}\n',
      'apps/cli/agents/runner.md': 'name: runner\n',
      'node_modules/x/.polytoken/agents/skip.md': VALID_POLYTOKEN('skip'),
    });
    assertUsageError(
      temps.run(['check', '.'], ws),
      /^subagents: \.: no definition file in this folder \(see the file patterns in `subagents --help`\); \.polytoken\/agents\/helper\.md looks like a Polytoken subagent, but Polytoken reads only \*\*\/\.polytoken\/subagents\/\*\.md; pass --no-error-on-unmatched-pattern to allow this$/,
    );
    assertUsageError(
      temps.run(['check', '.polytoken/agents/helper.md'], ws),
      /^subagents: \.polytoken\/agents\/helper\.md: not a definition file by its path: it looks like a Polytoken subagent, but Polytoken reads only \*\*\/\.polytoken\/subagents\/\*\.md; move it there, or add a glob/,
    );
    assertUsageError(
      temps.run(['check', 'experts'], ws),
      /; experts\/triage-expert\.json looks like a Profy Expert, but Profy reads only \*\*\/\*\.expert\.json;/,
    );
    assertUsageError(
      temps.run(['check', 'apps/**/*.md'], ws),
      /^subagents: apps\/\*\*\/\*\.md: no definition file matches this pattern; apps\/cli\/agents\/runner\.md looks like a Picasso role, but Picasso reads only \*\*\/\.picasso\/agents\/\*\.md, \*\*\/apps\/cli\/agents\/\*\.yaml, \*\*\/apps\/cli\/agents\/\*\.yml;/,
    );
    assertUsageError(
      temps.run(['check', '--stdin', '--stdin-filename', '.polytoken/agents/new.md'], ws, {
        input: VALID_POLYTOKEN('new'),
      }),
      /^subagents: \.polytoken\/agents\/new\.md: not a definition file by its path: it looks like a Polytoken subagent/,
    );
    assertUsageError(
      temps.run(['resolve', '.polytoken/agents/helper.md'], ws),
      /^subagents: \.polytoken\/agents\/helper\.md: not a recognized definition file: it looks like a Polytoken subagent, but Polytoken reads only \*\*\/\.polytoken\/subagents\/\*\.md; move it there/,
    );
    // Nothing that looks like one: the message stays as it was; below node_modules nothing is looked at.
    assertUsageError(
      temps.run(['check', 'docs'], ws),
      /^subagents: docs: no definition file in this folder \(see the file patterns in `subagents --help`\); pass/,
    );
    assertUsageError(
      temps.run(['check', 'node_modules'], ws),
      /^subagents: node_modules: no definition file in this folder \(see the file patterns in `subagents --help`\); pass/,
    );
  });
});
