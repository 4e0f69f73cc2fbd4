/** What the engine reports: findings before display settings, and resolutions. */
import type { DiagnosticTag, Range } from 'vscode-languageserver-types';
import type { Dialect, SeverityName } from './basics';

/**
 * What a rule reports before severity overrides and suppression are applied; each dialect narrows `Id` to its own rule
 * ids.
 */
export interface Finding<Id extends string = string> {
  rule: Id;
  range: Range;
  message: string;
  /** For rules whose severity depends on the case (e.g. unknown-tool). */
  severity?: SeverityName;
  tags?: DiagnosticTag[];
  /** Facts a quick fix needs (suggested name, entry text, …). Must be JSON-serializable. */
  data?: Record<string, unknown>;
}

export type ResolveStatus = 'loads' | 'rejected' | 'dropped';

export interface RemovedTool {
  tool: string;
  /** The key or mechanism that removed it: tools_deny, deny, memory, switch_facet, reserved, … */
  by: string;
}

export interface DroppedEntry {
  entry: string;
  reason: string;
}

export interface ResolvedDefinition {
  name: string;
  status: ResolveStatus;
  /** Sorted and unique. */
  tools: string[];
  /**
   * The entries of `tools` the catalog does not know (sorted, unique; `Catalog.unknownAmong`):
   * they stay in `tools`, since the catalog may be incomplete, and every view marks them and
   * counts them apart (`toolCount`). Set by the engine for every definition.
   */
  unknown?: string[];
  undeferred?: string[];
  unexpanded?: string[];
  removed: RemovedTool[];
  dropped?: DroppedEntry[];
  /** For each granted tool, the entries that granted it (e.g. "tools: tag!ALL", "inherit_tools", "always"). */
  provenance?: Record<string, string[]>;
  /** Why the status is not `loads`: the rule ids that rejected or dropped it. */
  reasons?: string[];
  /**
   * The rules among `reasons` whose diagnostics the author's settings hide or downgrade
   * (`rules:`, editor settings, suppression comments): the runtime reads none of those.
   */
  silenced?: string[];
  /** Polytoken: the definition that replaces this one in discovery order (absolute path); it then never runs. */
  shadowedBy?: string;
  range?: Range;
}

/** The verdict the workspace view shows: the status, or `shadowed` for a definition that loads but never runs. */
export function shownStatus(d: Pick<ResolvedDefinition, 'status' | 'shadowedBy'>): ResolveStatus | 'shadowed' {
  return d.status === 'loads' && d.shadowedBy ? 'shadowed' : d.status;
}

/**
 * A tool set's size as every view says it, the unknown entries counted apart: `4 tools`,
 * `4 tools + 1 unknown`, `1 unknown tool`. `tools` counts them all, `unknown` those the
 * catalog does not know.
 */
export function toolCount(tools: number, unknown = 0): string {
  const known = tools - unknown;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  if (!unknown) return plural(tools, 'tool');
  if (!known) return plural(unknown, 'unknown tool');
  return `${plural(known, 'tool')} + ${unknown} unknown`;
}

export interface Resolution {
  file: string;
  dialect: Dialect;
  definitions: ResolvedDefinition[];
}
