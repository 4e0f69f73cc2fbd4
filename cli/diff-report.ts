/** What `subagents diff` reports: the changes between two sides' resolutions, as JSON, text or Markdown. */
import type { Dialect, ResolveStatus, ResolvedDefinition } from '../shared';
import type { SideDefinition } from './diff-sides';

export interface Grant {
  tool: string;
  /** The key or shorthand that grants it (the resolution's provenance). */
  by: string;
}

export interface DefinitionChange {
  file: string;
  dialect: Dialect;
  name: string;
  change: 'added' | 'removed' | 'changed';
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
    seen.set(base, nth + 1);
    out.set(`${base}\0${nth}`, d);
  }
  return out;
}

const grantOf = (definition: ResolvedDefinition, tool: string): Grant => ({
  tool,
  by: definition.provenance?.[tool]?.join('; ') || 'tools',
});

/** Added, removed and changed definitions (status or tools), in file order; unchanged ones are left out. */
export function compare(
  base: readonly SideDefinition[],
  head: readonly SideDefinition[],
  labels: { base: string; head: string },
): DiffReport {
  const before = keyed(base);
  const after = keyed(head);
  const changes: DefinitionChange[] = [];
  for (const [key, h] of after) {
    const b = before.get(key);
    const was = new Set(b?.definition.tools ?? []);
    const now = new Set(h.definition.tools);
    const granted = h.definition.tools.filter((t) => !was.has(t)).map((t) => grantOf(h.definition, t));
    const revoked = (b?.definition.tools ?? []).filter((t) => !now.has(t));
    if (b && b.definition.status === h.definition.status && !granted.length && !revoked.length) continue;
    changes.push({
      file: h.file,
      dialect: h.dialect,
      name: h.definition.name,
      change: b ? 'changed' : 'added',
      status: { from: b?.definition.status ?? null, to: h.definition.status },
      granted,
      revoked,
    });
  }
  for (const [key, b] of before) {
    if (after.has(key)) continue;
    changes.push({
      file: b.file,
      dialect: b.dialect,
      name: b.definition.name,
      change: 'removed',
      status: { from: b.definition.status, to: null },
      granted: [],
      revoked: [...b.definition.tools],
    });
  }
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
  return `${total} definition${total === 1 ? '' : 's'} changed (${n('added')} added, ${n('removed')} removed, ${n('changed')} changed)`;
}

const statusText = (c: DefinitionChange) =>
  c.status.from === c.status.to ? `${c.status.to}` : `${c.status.from ?? '(none)'} → ${c.status.to ?? '(none)'}`;

export function formatDiffText(report: DiffReport): string {
  const title = `subagents diff ${report.base}..${report.head}`;
  if (!report.changes.length) return `${title}: no definition changed its tools or status.\n`;
  const lines = [`${title}: ${counts(report)}`];
  for (const c of report.changes) {
    lines.push('', `${c.file}: ${c.name || '(unnamed)'} (${c.dialect}) ${c.change}, status ${statusText(c)}`);
    const width = Math.max(0, ...c.granted.map((g) => g.tool.length), ...c.revoked.map((t) => t.length));
    for (const g of c.granted) lines.push(`  + ${g.tool.padEnd(width)}  granted by ${g.by}`);
    for (const t of c.revoked) lines.push(`  - ${t.padEnd(width)}  revoked`);
  }
  return lines.join('\n') + '\n';
}

/** Inline code that survives backticks and pipes in the text (a table cell). */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(longest + 1);
  const padded = text.startsWith('`') || text.endsWith('`') ? ` ${text} ` : text;
  return `${fence}${padded.replace(/\|/g, '\\|')}${fence}`;
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/** A pull-request comment: a summary, then one table per definition. */
export function formatDiffMarkdown(report: DiffReport): string {
  const lines = [`### Subagent permission changes: ${code(report.base)} → ${code(report.head)}`, ''];
  if (!report.changes.length) return lines.concat('No definition changed its tools or status.', '').join('\n');
  lines.push(`${counts(report)}.`);
  for (const c of report.changes) {
    lines.push(
      '',
      `#### ${code(c.name || '(unnamed)')} (${c.dialect}): ${c.change}`,
      '',
      `${code(c.file)}, status: **${cell(statusText(c))}**`,
      '',
    );
    if (!c.granted.length && !c.revoked.length) {
      lines.push('No tool granted or revoked.');
      continue;
    }
    lines.push('| change | tool | granted by |', '| --- | --- | --- |');
    for (const g of c.granted) lines.push(`| ➕ granted | ${code(g.tool)} | ${cell(g.by)} |`);
    for (const t of c.revoked) lines.push(`| ➖ revoked | ${code(t)} | |`);
  }
  return lines.join('\n') + '\n';
}
