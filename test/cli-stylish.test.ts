/**
 * The stylish report's layout, in the test process: the columns, the three ways a row fits the
 * terminal's width (message wrapped beside the rule, rule on its own line, nothing wrapped),
 * identical consecutive rows folded, and the summary's counts and colour. test/cli-output runs
 * the same report through the CLI and a terminal.
 */
import { strict as assert } from 'assert';
import { createColors } from 'picocolors';
import type { Diagnostic } from 'vscode-languageserver-types';
import { buildReport, type JsonReport } from '../cli/report';
import { formatStylish, wrapWords } from '../cli/stylish';

const PLAIN = createColors(false);
const COLOURED = createColors(true);

const LONG =
  'file_raed is not a Polytoken tool, and Polytoken drops an entry it does not know without a word; did you mean file_read?';

function diagnostic(
  line: number,
  character: number,
  severity: 1 | 2 | 3 | 4,
  message: string,
  code: string,
  data?: object,
): Diagnostic {
  const at = { line, character };
  return { range: { start: at, end: at }, severity, message, code, data };
}

/** One file with an error and a warning whose message is long, and a clean file. */
function twoRows(): JsonReport {
  return buildReport([
    {
      path: 'a.md',
      kind: 'polytoken',
      diagnostics: [
        diagnostic(0, 4, 1, '`name` is missing', 'polytoken/missing-name'),
        diagnostic(9, 0, 2, LONG, 'polytoken/unknown-tool'),
      ],
    },
    { path: 'b.md', kind: 'polytoken', diagnostics: [] },
  ]);
}

/** The rows of the first file: the lines between its heading and the blank line before the summary. */
function rowsOf(output: string): string[] {
  const lines = output.split('\n');
  assert.equal(lines[0], '');
  assert.equal(lines[1], 'a.md');
  return lines.slice(2, lines.indexOf('', 2));
}

// Columns: position 4 wide ("10:1"), severity 7 ("warning"), so messages start at column 17;
// the rules are 22 wide.
const HEAD_ERROR = '   1:5  error    ';
const HEAD_WARNING = '  10:1  warning  ';
const INDENT = ' '.repeat(17);

describe('stylish report: layout and summary', () => {
  it('wrapWords cuts at spaces, keeps a longer word whole, and never starts a line with a space', () => {
    assert.deepEqual(wrapWords('aa bb cc', 5), ['aa bb', 'cc']);
    assert.deepEqual(wrapWords('aa bb cc', 4), ['aa', 'bb', 'cc']);
    assert.deepEqual(wrapWords('abcdefgh ij', 3), ['abcdefgh', 'ij']);
    assert.deepEqual(wrapWords('one', 10), ['one']);
    assert.deepEqual(wrapWords('', 10), ['']);
  });

  it('no width (piped, a file): one row per problem, the messages padded so the rules line up', () => {
    const rows = rowsOf(formatStylish(twoRows(), { colors: PLAIN }));
    assert.deepEqual(rows, [
      `${HEAD_ERROR}${'`name` is missing'.padEnd(LONG.length)}  polytoken/missing-name`,
      `${HEAD_WARNING}${LONG}  polytoken/unknown-tool`,
    ]);
  });

  it('wide enough: the message wraps in its column with the rule beside its first line', () => {
    // 80 - 17 - 2 - 22 = 39 columns for the message.
    const out = formatStylish(twoRows(), { colors: PLAIN, width: 80 });
    const rows = rowsOf(out);
    const wrapped = wrapWords(LONG, 39);
    assert.ok(wrapped.length > 2);
    assert.deepEqual(rows, [
      `${HEAD_ERROR}${'`name` is missing'.padEnd(39)}  polytoken/missing-name`,
      `${HEAD_WARNING}${wrapped[0].padEnd(39)}  polytoken/unknown-tool`,
      ...wrapped.slice(1).map((l) => INDENT + l),
    ]);
    for (const line of out.split('\n')) assert.ok(line.length <= 80, line);
  });

  it('at exactly 30 columns beside the rule it still wraps there; one less and the rule moves below', () => {
    // 71 - 17 - 2 - 22 = 30.
    const beside = rowsOf(formatStylish(twoRows(), { colors: PLAIN, width: 71 }));
    assert.equal(beside[1], `${HEAD_WARNING}${wrapWords(LONG, 30)[0].padEnd(30)}  polytoken/unknown-tool`);
    const below = rowsOf(formatStylish(twoRows(), { colors: PLAIN, width: 70 }));
    assert.equal(below[2], `${HEAD_WARNING}${wrapWords(LONG, 53)[0]}`);
  });

  it('narrower: the message takes the whole width and the rule a line of its own', () => {
    // 60 - 17 = 43 columns for the message, too few beside a rule (19).
    const rows = rowsOf(formatStylish(twoRows(), { colors: PLAIN, width: 60 }));
    const wrapped = wrapWords(LONG, 43);
    assert.deepEqual(rows, [
      `${HEAD_ERROR}\`name\` is missing`,
      `${INDENT}polytoken/missing-name`,
      `${HEAD_WARNING}${wrapped[0]}`,
      ...wrapped.slice(1).map((l) => INDENT + l),
      `${INDENT}polytoken/unknown-tool`,
    ]);
  });

  it('narrower still: nothing wraps (a column of single words would help nobody)', () => {
    // 47 - 17 = 30 columns alone: still wraps; 46 leaves 29: not any more.
    assert.equal(
      rowsOf(formatStylish(twoRows(), { colors: PLAIN, width: 47 }))[2],
      `${HEAD_WARNING}${wrapWords(LONG, 30)[0]}`,
    );
    const rows = rowsOf(formatStylish(twoRows(), { colors: PLAIN, width: 46 }));
    assert.deepEqual(rows, rowsOf(formatStylish(twoRows(), { colors: PLAIN })));
  });

  it('folds identical consecutive problems into one row naming at most four more positions', () => {
    const same = (line: number) => diagnostic(line, 2, 4, 'zzz is not a tool', 'polytoken/unknown-tool');
    const report = buildReport([
      {
        path: 'a.md',
        kind: 'polytoken',
        diagnostics: [
          same(0),
          same(1),
          same(2),
          diagnostic(3, 0, 4, 'zzz is not a tool', 'polytoken/other-rule'),
          same(4),
          same(5),
          same(6),
          same(7),
          same(8),
          same(9),
          same(10),
          diagnostic(11, 0, 2, 'zzz is not a tool', 'polytoken/unknown-tool'),
          same(12),
        ],
      },
    ]);
    const rows = rowsOf(formatStylish(report, { colors: PLAIN })).map((r) => r.trimEnd());
    assert.deepEqual(
      rows.map((r) => r.trim().replace(/ {2,}/g, ' | ')),
      [
        '1:3 | hint | zzz is not a tool (×3: also 2:3, 3:3) | polytoken/unknown-tool',
        '4:1 | hint | zzz is not a tool | polytoken/other-rule',
        '5:3 | hint | zzz is not a tool (×7: also 6:3, 7:3, 8:3, 9:3 and 2 more) | polytoken/unknown-tool',
        '12:1 | warning | zzz is not a tool | polytoken/unknown-tool',
        '13:3 | hint | zzz is not a tool | polytoken/unknown-tool',
      ],
    );
  });

  it('escapes control characters in paths, messages and rules: one problem is one row', () => {
    const report = buildReport([
      { path: 'a\nb.md', kind: 'polytoken', diagnostics: [diagnostic(0, 0, 1, 'bad\ttab\u001b[31m', 'x/\ry')] },
    ]);
    const out = formatStylish(report, { colors: PLAIN });
    assert.doesNotMatch(out, /[\t\r\u001b]/);
    assert.equal(out.split('\n').length, 6, out);
  });

  it('the summary counts each severity, in the plural when more than one, and what --fix fixes', () => {
    const report = buildReport([
      {
        path: 'a.md',
        kind: 'polytoken',
        diagnostics: [
          diagnostic(0, 0, 1, 'e1', 'r/e', { fixable: true }),
          diagnostic(1, 0, 2, 'w1', 'r/w', { fixable: true }),
          diagnostic(2, 0, 2, 'w2', 'r/w'),
          diagnostic(3, 0, 3, 'i1', 'r/i'),
          diagnostic(4, 0, 4, 'h1', 'r/h', { fixable: false }),
        ],
      },
      { path: 'b.md', kind: 'polytoken', diagnostics: [] },
    ]);
    const tail = formatStylish(report, { colors: PLAIN }).split('\n').slice(-4);
    assert.deepEqual(tail, [
      '',
      '✖ 5 problems (1 error, 2 warnings, 1 information, 1 hint) in 2 files checked',
      '  2 of them fixable with `--fix` (`--fix-dry-run` shows the changes).',
      '',
    ]);
    const one = buildReport([{ path: 'a.md', kind: 'polytoken', diagnostics: [diagnostic(0, 0, 4, 'h', 'r/h')] }]);
    assert.deepEqual(formatStylish(one, { colors: PLAIN }).split('\n').slice(-2), [
      '✖ 1 problem (0 errors, 0 warnings, 1 hint) in 1 file checked',
      '',
    ]);
    const none = buildReport([{ path: 'a.md', kind: 'polytoken', diagnostics: [] }]);
    assert.equal(formatStylish(none, { colors: PLAIN }), '\n✔ no problems in 1 file checked\n');
  });

  it('colours: the severity words, the summary by its worst severity, dim positions and rules', () => {
    const summaryOf = (severity: 1 | 2 | 3 | 4) => {
      const report = buildReport([
        { path: 'a.md', kind: 'polytoken', diagnostics: [diagnostic(0, 0, severity, 'm', 'r/x')] },
      ]);
      const out = formatStylish(report, { colors: COLOURED });
      return { out, last: out.trimEnd().split('\n').pop()! };
    };
    const counts = [
      '1 error, 0 warnings',
      '0 errors, 1 warning',
      '0 errors, 0 warnings, 1 information',
      '0 errors, 0 warnings, 1 hint',
    ];
    const paints = [COLOURED.red, COLOURED.yellow, COLOURED.blue, COLOURED.blue];
    const words = [
      COLOURED.red('error'),
      COLOURED.yellow('warning'),
      COLOURED.blue('information'),
      COLOURED.dim('hint'),
    ];
    for (const severity of [1, 2, 3, 4] as const) {
      const { out, last } = summaryOf(severity);
      const summary = `✖ 1 problem (${counts[severity - 1]}) in 1 file checked`;
      assert.equal(last, paints[severity - 1](COLOURED.bold(summary)), `severity ${severity}`);
      assert.ok(out.includes(words[severity - 1]), `severity ${severity}`);
      assert.ok(out.includes(COLOURED.dim('r/x')));
      assert.ok(out.includes(COLOURED.dim('1:1')));
      assert.ok(out.includes(COLOURED.underline('a.md')));
    }
    const clean = formatStylish(buildReport([{ path: 'a.md', kind: 'polytoken', diagnostics: [] }]), {
      colors: COLOURED,
    });
    assert.ok(clean.includes(COLOURED.green('✔ no problems in 1 file checked')));
  });
});
