/** What `subagents diff` reports: the changes between two sides' resolutions, as JSON, text or Markdown. */
import type { Dialect, ResolveStatus, ResolvedDefinition } from '../shared';
import { printable, toolCount } from '../shared';
import type { SideDefinition } from './diff-sides';

export interface Grant {
  tool: string;
  /** The key or shorthand that grants it (the resolution's provenance). */
  by: string;
  /**
   * Only when true: the catalog does not know the tool (the resolution's `unknown`), so the runtime likely has no such
   * tool.
   */
  unknown?: true;
}

export interface DefinitionChange {
  file: string;
  dialect: Dialect;
  name: string;
  /**
   * `renamed`: the definition's name changed within its file (`previousName`); its tools are compared as for `changed`.
   */
  change: 'added' | 'removed' | 'changed' | 'renamed';
  /** Only for `renamed`: the name on the base side. */
  previousName?: string;
  status: { from: ResolveStatus | null; to: ResolveStatus | null };
  granted: Grant[];
  revoked: string[];
}

export interface DiffReport {
  base: string;
  head: string;
  changes: DefinitionChange[];
}

/** Definitions are matched by file, name and, for repeated names in one file, their order. */
function keyed(definitions: readonly SideDefinition[]): Map<string, SideDefinition> {
  const out = new Map<string, SideDefinition>();
  const seen = new Map<string, number>();
  for (const d of definitions) {
    const base = `${d.file}\0${d.definition.name}`;
    const nth = seen.get(base) ?? 0;
    // Stryker disable next-line ArithmeticOperator: any count that gives each repeat its own key works, both sides count alike
    seen.set(base, nth + 1);
    out.set(`${base}\0${nth}`, d);
  }
  return out;
}

const grantOf = (definition: ResolvedDefinition, tool: string): Grant => ({
  tool,
  by: definition.provenance?.[tool]?.join('; ') || 'tools',
  ...(definition.unknown?.includes(tool) ? { unknown: true } : {}),
});

/**
 * `; granted 2 tools + 1 unknown, revoked 1 tool`: a definition's changes counted, the unknown
 * grants apart; said only when some granted tool is unknown (the rows say the rest).
 */
function grantCounts(c: DefinitionChange): string {
  if (!c.granted.some((g) => g.unknown)) return '';
  // Some tool was granted (an unknown one), so there is always a first part.
  const parts = [`granted ${toolCount(c.granted.length, c.granted.filter((g) => g.unknown).length)}`];
  if (c.revoked.length) parts.push(`revoked ${toolCount(c.revoked.length)}`);
  return `; ${parts.join(', ')}`;
}

const grantedWord = (g: Grant) => (g.unknown ? 'granted (unknown tool)' : 'granted');

/** One definition's change from `b` (none: added) to `h`; undefined when neither its status nor its tools changed. */
function changeOf(b: SideDefinition | undefined, h: SideDefinition): DefinitionChange | undefined {
  const was = new Set(b?.definition.tools);
  const now = new Set(h.definition.tools);
  const granted = h.definition.tools.filter((t) => !was.has(t)).map((t) => grantOf(h.definition, t));
  const revoked = (b?.definition.tools ?? []).filter((t) => !now.has(t));
  const renamed = !!b && b.definition.name !== h.definition.name;
  if (b && !renamed && b.definition.status === h.definition.status && !granted.length && !revoked.length)
    return undefined;
  return {
    file: h.file,
    dialect: h.dialect,
    name: h.definition.name,
    change: renamed ? 'renamed' : b ? 'changed' : 'added',
    ...(renamed ? { previousName: b.definition.name } : {}),
    status: { from: b?.definition.status ?? null, to: h.definition.status },
    granted,
    revoked,
  };
}

/**
 * The definitions of one side that the other side lacks (by file, name and order), paired by
 * file: the n-th one removed from a file with the n-th one added to it is a rename there.
 */
function pairRenames(
  removed: readonly SideDefinition[],
  added: readonly SideDefinition[],
): { pairs: [SideDefinition, SideDefinition][]; removed: SideDefinition[]; added: SideDefinition[] } {
  const byFile = new Map<string, SideDefinition[]>();
  for (const b of removed) {
    const inFile = byFile.get(b.file);
    if (inFile) inFile.push(b);
    else byFile.set(b.file, [b]);
  }
  const pairs: [SideDefinition, SideDefinition][] = [];
  const unpaired: SideDefinition[] = [];
  for (const h of added) {
    const b = byFile.get(h.file)?.shift();
    if (b && b.dialect === h.dialect) pairs.push([b, h]);
    else unpaired.push(h);
  }
  const paired = new Set(pairs.map(([b]) => b));
  return { pairs, removed: removed.filter((b) => !paired.has(b)), added: unpaired };
}

/** Added, removed, renamed and changed definitions (status or tools), in file order; unchanged ones are left out. */
export function compare(
  base: readonly SideDefinition[],
  head: readonly SideDefinition[],
  labels: { base: string; head: string },
): DiffReport {
  const before = keyed(base);
  const after = keyed(head);
  const changes: DefinitionChange[] = [];
  const added: SideDefinition[] = [];
  for (const [key, h] of after) {
    const b = before.get(key);
    if (!b) {
      added.push(h);
      continue;
    }
    const change = changeOf(b, h);
    if (change) changes.push(change);
  }
  const paired = pairRenames(
    [...before].filter(([key]) => !after.has(key)).map(([, b]) => b),
    added,
  );
  for (const [b, h] of paired.pairs) changes.push(changeOf(b, h)!);
  for (const h of paired.added) changes.push(changeOf(undefined, h)!);
  for (const b of paired.removed)
    changes.push({
      file: b.file,
      dialect: b.dialect,
      name: b.definition.name,
      change: 'removed',
      status: { from: b.definition.status, to: null },
      granted: [],
      revoked: [...b.definition.tools],
    });
  changes.sort((x, y) => (x.file < y.file ? -1 : x.file > y.file ? 1 : 0));
  return { base: labels.base, head: labels.head, changes };
}

/** `--fail-on-grant`: a definition gains a tool or starts to load. */
export function grantsSomething(report: DiffReport): boolean {
  return report.changes.some((c) => c.granted.length > 0 || (c.status.to === 'loads' && c.status.from !== 'loads'));
}

function counts(report: DiffReport): string {
  const n = (change: DefinitionChange['change']) => report.changes.filter((c) => c.change === change).length;
  const total = report.changes.length;
  const renamed = n('renamed') ? `, ${n('renamed')} renamed` : '';
  return `${total} definition${total === 1 ? '' : 's'} changed (${n('added')} added, ${n('removed')} removed${renamed}, ${n('changed')} changed)`;
}

const statusText = (c: DefinitionChange) =>
  c.status.from === c.status.to ? `${c.status.to}` : `${c.status.from ?? '(none)'} → ${c.status.to ?? '(none)'}`;

export function formatDiffText(report: DiffReport): string {
  const title = `subagents diff ${printable(report.base)}..${printable(report.head)}`;
  if (!report.changes.length) return `${title}: no definition changed its tools or status.\n`;
  const lines = [`${title}: ${counts(report)}`];
  for (const c of report.changes) {
    lines.push(
      '',
      `${printable(c.file)}: ${printable(c.name) || '(unnamed)'} (${c.dialect}) ${changeText(c, printable)}, status ${statusText(c)}${grantCounts(c)}`,
    );
    const granted = c.granted.map((g) => ({ tool: printable(g.tool), by: printable(g.by), word: grantedWord(g) }));
    const revoked = c.revoked.map(printable);
    const width = [...granted.map((g) => g.tool), ...revoked].reduce((w, t) => Math.max(w, t.length), 0);
    for (const g of granted) lines.push(`  + ${g.tool.padEnd(width)}  ${g.word} by ${g.by}`);
    for (const t of revoked) lines.push(`  - ${t.padEnd(width)}  revoked`);
  }
  return lines.join('\n') + '\n';
}

/**
 * Inline code on one line (a heading, a paragraph), control characters escaped; backticks in the text get a longer
 * fence.
 */
function code(text: string): string {
  const shown = printable(text);
  const longest = (shown.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length), 0);
  const fence = '`'.repeat(longest + 1);
  const padded = shown.startsWith('`') || shown.endsWith('`') ? ` ${shown} ` : shown;
  return `${fence}${padded}${fence}`;
}

/** `renamed from \`old\`` (only a rename has a previous name), or the change as it is. */
const changeText = (c: DefinitionChange, quote: (s: string) => string) =>
  c.previousName !== undefined ? `renamed from ${quote(c.previousName)}` : c.change;

/** Plain text in a table cell: `\` and `|` escaped, which GitHub and markdown-it read alike. */
const cell = (text: string) => printable(text).replace(/[\\|]/g, '\\$&');

/**
 * Inline code in a table cell: each `|` as `\|`, which the table parser turns back. A `\` just
 * before a `|` cannot be kept in a code span there (GitHub reads `\\|` as a backslash and a
 * cell boundary, markdown-it as an escaped pipe), so such text is a plain cell instead.
 */
function codeCell(text: string): string {
  return /\\\|/.test(printable(text)) ? cell(text) : code(text).replace(/\|/g, '\\|');
}

/** A pull-request comment: a summary, then one table per definition. */
export function formatDiffMarkdown(report: DiffReport): string {
  const lines = [`### Subagent permission changes: ${code(report.base)} → ${code(report.head)}`, ''];
  if (!report.changes.length) return lines.concat('No definition changed its tools or status.', '').join('\n');
  lines.push(`${counts(report)}.`);
  for (const c of report.changes) {
    lines.push(
      '',
      `#### ${code(c.name || '(unnamed)')} (${c.dialect}): ${changeText(c, code)}`,
      '',
      `${code(c.file)}, status: **${cell(statusText(c))}**${cell(grantCounts(c))}`,
      '',
    );
    if (!c.granted.length && !c.revoked.length) {
      lines.push('No tool granted or revoked.');
      continue;
    }
    lines.push('| change | tool | granted by |', '| --- | --- | --- |');
    for (const g of c.granted) lines.push(`| ➕ ${grantedWord(g)} | ${codeCell(g.tool)} | ${cell(g.by)} |`);
    for (const t of c.revoked) lines.push(`| ➖ revoked | ${codeCell(t)} | |`);
  }
  return lines.join('\n') + '\n';
}
