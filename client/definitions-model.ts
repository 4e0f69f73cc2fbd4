/**
 * What the Subagents view says about a definition, as plain data (no `vscode` here, so the
 * wording is tested without an editor): the description line, the status sentence, whether the
 * "Only problems" filter keeps it, and the rows under an expanded definition.
 */
import type { WorkspaceDefinition, WorkspaceRuntime } from '../shared/protocol';
import { toolCount, type ResolvedDefinition } from '../shared/protocol';

/** A runtime's id (`WorkspaceDefinition.dialect`). */
export type Runtime = WorkspaceDefinition['dialect'];

/** What the view shows of a runtime the server has not described (an older server): its id. */
export function runtimeInfo(runtimes: ReadonlyMap<string, WorkspaceRuntime>, id: Runtime): WorkspaceRuntime {
  return runtimes.get(id) ?? { id, title: id, icon: 'symbol-misc', tooltip: id, groupKind: 'folder' };
}

const plural = (n: number, word: string, words = `${word}s`) => `${n} ${n === 1 ? word : words}`;

/**
 * What the "Only problems" filter keeps: anything the runtime does not load, or any problem the editor shows (hints are
 * not problems).
 */
export function hasProblems(d: WorkspaceDefinition): boolean {
  const p = d.problems;
  return d.status !== 'loads' || p.errors + p.warnings + p.information > 0;
}

/**
 * "4 tools · 2 ✕ 1 ⚠" (✕ errors, ⚠ warnings, ℹ information; counts that are zero are left out; the tooltip has the
 * words).
 */
export function definitionDescription(d: WorkspaceDefinition): string {
  const p = d.problems;
  const problems = [
    p.errors ? `${p.errors} ✕` : '',
    p.warnings ? `${p.warnings} ⚠` : '',
    p.information ? `${p.information} ℹ` : '',
  ].filter(Boolean);
  return [toolCount(d.tools, d.unknown), ...(problems.length ? [problems.join(' ')] : [])].join(' · ');
}

/** "2 errors, 1 warning" (the words behind the description's marks); undefined when there is none. */
export function problemsLine(d: WorkspaceDefinition): string | undefined {
  const p = d.problems;
  const words = [
    p.errors ? plural(p.errors, 'error') : '',
    p.warnings ? plural(p.warnings, 'warning') : '',
    p.information ? `${p.information} info` : '',
  ].filter(Boolean);
  return words.length ? words.join(', ') : undefined;
}

/** The status as a sentence (Markdown), for the tooltip. */
export function statusLine(d: WorkspaceDefinition): string {
  switch (d.status) {
    case 'loads':
      return `**Loads**: the runtime grants it ${toolCount(d.tools, d.unknown)}${d.unknown ? ' (not in the catalog: likely no such tool)' : ''}.`;
    case 'rejected':
      return '**Rejected**: the runtime refuses to load it.';
    case 'dropped':
      return '**Dropped**: the runtime skips it without any error.';
    case 'shadowed':
      return `**Shadowed**: a definition of the same name later in the discovery order replaces it${d.shadowedBy ? ` (${d.shadowedBy})` : ''}.`;
  }
}

export interface ToolRow {
  kind: 'granted' | 'unknown' | 'removed' | 'dropped' | 'unexpanded' | 'note';
  label: string;
  description?: string;
  tooltip?: string;
}

/**
 * Under an expanded definition: each granted tool with where it comes from, then what was removed, dropped or not
 * expanded.
 */
export function toolRows(d: ResolvedDefinition): ToolRow[] {
  const rows: ToolRow[] = [];
  const undeferred = new Set(d.undeferred ?? []);
  const unknown = new Set(d.unknown ?? []);
  for (const tool of d.tools) {
    const from = d.provenance?.[tool]?.join(', ');
    const isUnknown = unknown.has(tool);
    const description = [isUnknown ? 'unknown tool' : '', from, undeferred.has(tool) ? 'undeferred' : '']
      .filter(Boolean)
      .join(' · ');
    rows.push({
      kind: isUnknown ? 'unknown' : 'granted',
      label: tool,
      description,
      tooltip: `${tool}: granted${from ? ` by ${from}` : ''}${undeferred.has(tool) ? ', undeferred (loaded up front)' : ''}${isUnknown ? '; the catalog does not know it, so the runtime will likely have no such tool (declare it in .subagents.yaml if it exists)' : ''}`,
    });
  }
  for (const r of d.removed)
    rows.push({
      kind: 'removed',
      label: r.tool,
      description: `removed by ${r.by}`,
      tooltip: `${r.tool} — removed by ${r.by}`,
    });
  for (const r of d.dropped ?? [])
    rows.push({
      kind: 'dropped',
      label: r.entry,
      description: `dropped: ${r.reason}`,
      tooltip: `${r.entry} — dropped: ${r.reason}`,
    });
  for (const u of d.unexpanded ?? [])
    rows.push({
      kind: 'unexpanded',
      label: u,
      description: 'not expanded',
      tooltip: `${u}: the catalog cannot expand it, so what it grants is not known`,
    });
  if (!rows.length) rows.push({ kind: 'note', label: 'No tools' });
  return rows;
}
