/**
 * `subagents diff`'s report as data, text and Markdown (cli/diff-report.ts), from resolutions
 * made by hand: the matching of repeated names, renames, the order of files and every line of
 * both formats. test/cli-diff.test.ts runs the command on real git repositories.
 */
import { strict as assert } from 'assert';
import { compare, formatDiffMarkdown, formatDiffText, type DiffReport } from '../cli/diff-report';
import type { SideDefinition } from '../cli/diff-sides';
import type { Dialect, ResolveStatus } from '../shared';

function side(
  file: string,
  name: string,
  tools: string[],
  extra: { status?: ResolveStatus; dialect?: Dialect; unknown?: string[]; provenance?: Record<string, string[]> } = {},
): SideDefinition {
  return {
    file,
    dialect: extra.dialect ?? 'profy',
    definition: {
      name,
      status: extra.status ?? 'loads',
      tools,
      removed: [],
      ...(extra.unknown ? { unknown: extra.unknown } : {}),
      ...(extra.provenance ? { provenance: extra.provenance } : {}),
    },
  };
}

const labels = { base: 'main', head: 'worktree' };

describe('subagents diff: the report', () => {
  it('matches repeated names in one file by their order', () => {
    const base = [side('a.json', 'dup', ['read']), side('a.json', 'dup', ['grep'])];
    const head = [side('a.json', 'dup', ['read']), side('a.json', 'dup', ['grep', 'write'])];
    const report = compare(base, head, labels);
    assert.deepEqual(
      report.changes.map((c) => [c.change, c.granted.map((g) => g.tool), c.revoked]),
      [['changed', ['write'], []]],
    );
  });

  it('pairs a removed and an added definition of one file and runtime as a rename, others not', () => {
    const base = [side('a.json', 'old', ['read']), side('b.md', 'gone', ['read'], { dialect: 'polytoken' })];
    const head = [side('a.json', 'new', ['read']), side('b.md', 'other', ['read'], { dialect: 'picasso' })];
    const report = compare(base, head, labels);
    assert.deepEqual(
      report.changes.map((c) => [c.file, c.name, c.change, c.previousName]),
      [
        ['a.json', 'new', 'renamed', 'old'],
        ['b.md', 'other', 'added', undefined],
        ['b.md', 'gone', 'removed', undefined],
      ],
    );
  });

  it('lists changes in file order, whatever order the sides came in', () => {
    const head = ['c.json', 'a.json', 'b.json'].map((f) => side(f, f, ['read']));
    assert.deepEqual(
      compare([], head, labels).changes.map((c) => c.file),
      ['a.json', 'b.json', 'c.json'],
    );
    assert.deepEqual(
      compare(head, [], labels).changes.map((c) => c.file),
      ['a.json', 'b.json', 'c.json'],
    );
  });

  it('pairs thousands of removals in one file without copying the list each time', function () {
    this.timeout(10_000);
    const n = 50_000;
    const base = Array.from({ length: n }, (_, i) => side('big.json', `old${i}`, ['read']));
    const head = Array.from({ length: n }, (_, i) => side('big.json', `new${i}`, ['read']));
    const report = compare(base, head, labels);
    assert.equal(report.changes.length, n);
    assert.ok(report.changes.every((c) => c.change === 'renamed'));
  });

  const unchanged: DiffReport = { base: 'main', head: 'worktree', changes: [] };

  it('a grant whose entries are not known is said to come from `tools`', () => {
    const base = [side('a.json', 'x', []), side('b.json', 'y', [])];
    // No provenance at all, and one that does not name the tool.
    const head = [side('a.json', 'x', ['grep']), side('b.json', 'y', ['read'], { provenance: {} })];
    assert.deepEqual(
      compare(base, head, labels).changes.map((c) => c.granted),
      [[{ tool: 'grep', by: 'tools' }], [{ tool: 'read', by: 'tools' }]],
    );
  });

  it('says when nothing changed, in text and Markdown', () => {
    assert.equal(
      formatDiffText(unchanged),
      'subagents diff main..worktree: no definition changed its tools or status.\n',
    );
    assert.equal(
      formatDiffMarkdown(unchanged),
      '### Subagent permission changes: `main` → `worktree`\n\nNo definition changed its tools or status.\n',
    );
  });

  it('writes every line of a report in text and Markdown', () => {
    const base = [
      side('a.json', 'scout', ['read', 'write']),
      side('b.json', 'quiet', ['read'], { status: 'rejected' }),
    ];
    const head = [
      side('a.json', 'scout', ['read', 'mystery', 'grep'], {
        unknown: ['mystery'],
        provenance: { mystery: ['tools'], grep: ['tools: tag!search', 'always'] },
      }),
      side('b.json', 'quiet', ['read'], { status: 'loads' }),
      side('c.json', '', [], { status: 'dropped' }),
    ];
    const report = compare(base, head, { base: 'v1', head: 'we`ird' });
    assert.equal(
      formatDiffText(report),
      [
        'subagents diff v1..we`ird: 3 definitions changed (1 added, 0 removed, 2 changed)',
        '',
        'a.json: scout (profy) changed, status loads; granted 1 tool + 1 unknown, revoked 1 tool',
        '  + mystery  granted (unknown tool) by tools',
        '  + grep     granted by tools: tag!search; always',
        '  - write    revoked',
        '',
        'b.json: quiet (profy) changed, status rejected → loads',
        '',
        'c.json: (unnamed) (profy) added, status (none) → dropped',
        '',
      ].join('\n'),
    );
    assert.equal(
      formatDiffMarkdown(report),
      [
        '### Subagent permission changes: `v1` → ``we`ird``',
        '',
        '3 definitions changed (1 added, 0 removed, 2 changed).',
        '',
        '#### `scout` (profy): changed',
        '',
        '`a.json`, status: **loads**; granted 1 tool + 1 unknown, revoked 1 tool',
        '',
        '| change | tool | granted by |',
        '| --- | --- | --- |',
        '| ➕ granted (unknown tool) | `mystery` | tools |',
        '| ➕ granted | `grep` | tools: tag!search; always |',
        '| ➖ revoked | `write` | |',
        '',
        '#### `quiet` (profy): changed',
        '',
        '`b.json`, status: **rejected → loads**',
        '',
        'No tool granted or revoked.',
        '',
        '#### `(unnamed)` (profy): added',
        '',
        '`c.json`, status: **(none) → dropped**',
        '',
        'No tool granted or revoked.',
        '',
      ].join('\n'),
    );
  });

  it('pads inline code that starts or ends with a backtick', () => {
    const report: DiffReport = { base: '`a', head: 'b`', changes: [] };
    assert.match(formatDiffMarkdown(report), /^### Subagent permission changes: `` `a `` → `` b` ``\n/);
  });

  it('fences inline code with one backtick more than its longest run of them', () => {
    const report: DiffReport = { base: 'a``b`c', head: 'd', changes: [] };
    assert.match(formatDiffMarkdown(report), /^### Subagent permission changes: ```a``b`c``` → `d`\n/);
  });

  it('a removed definition: its status goes to (none) and every tool is revoked', () => {
    const report = compare([side('a.json', 'gone', ['read'])], [], labels);
    assert.equal(
      formatDiffText(report),
      [
        'subagents diff main..worktree: 1 definition changed (0 added, 1 removed, 0 changed)',
        '',
        'a.json: gone (profy) removed, status loads → (none)',
        '  - read  revoked',
        '',
      ].join('\n'),
    );
  });
});
