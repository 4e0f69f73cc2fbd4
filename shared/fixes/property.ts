/**
 * The property every preferred fix holds: applied, it gains no finding of the same or higher
 * severity than the one it fixes, nor any error or warning (the fix of an error may not leave
 * a warning in its place: a name lower-cased in a file that keeps its old name), and no
 * definition of the file is granted a tool it was not granted before (a key renamed onto one
 * that grants, a value that starts to count). What is compared: the findings counted by rule
 * and default severity (the runtime's verdict reads those, whatever the display settings), and
 * each definition's resolved tool set (its dialect's `resolve`).
 */
import type { Range } from 'vscode-languageserver-types';
import type { SeverityName } from '../basics';
import { resolveAnalysis } from '../engine';
import { defaultSeverity } from '../rules/registry';
import type { Analysis } from '../types';

/** What a fix is judged against: the state of the file before it. */
export interface FixBaseline {
  /** Findings by `rule severity`. */
  counts: Map<string, number>;
  /** Each definition's name, granted tools and place, in file order. */
  grants: { name: string; tools: ReadonlySet<string>; range?: Range }[];
  parses: boolean;
}

/** How a fix breaks the property: why (for people), and what grew (to find which fix of a group did it). */
export interface Worsening {
  reason: string;
  /** The `rule severity` keys whose findings grew. */
  grownKeys: Set<string>;
  /** The places of the definitions granted more (indexes into the later baseline's `grants`). */
  grownDefinitions: number[];
}

export const SEVERITY_RANK: Record<SeverityName, number> = { hint: 1, information: 2, warning: 3, error: 4 };

export function baselineOf(analysis: Analysis): FixBaseline {
  const counts = new Map<string, number>();
  for (const f of analysis.findings) {
    const key = `${f.rule} ${defaultSeverity(f)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  const path = analysis.context?.path ?? analysis.input?.path ?? '';
  const definitions = resolveAnalysis(analysis, path)?.definitions ?? [];
  return {
    counts,
    grants: definitions.map((d) => ({ name: d.name, tools: new Set(d.tools), range: d.range })),
    parses: !analysis.findings.some((f) => f.rule.startsWith('syntax/')),
  };
}

/**
 * How `after` breaks the property against `before`, for fixes whose findings' lowest default
 * severity is `fixed`; undefined when it holds.
 */
export function worsening(before: FixBaseline, after: FixBaseline, fixed: SeverityName): Worsening | undefined {
  const floor = SEVERITY_RANK[fixed] < SEVERITY_RANK.warning ? fixed : 'warning';
  const grownKeys = new Set<string>();
  for (const [key, n] of after.counts) {
    const severity = key.slice(key.lastIndexOf(' ') + 1) as SeverityName;
    if (SEVERITY_RANK[severity] >= SEVERITY_RANK[floor] && n > (before.counts.get(key) ?? 0)) grownKeys.add(key);
  }
  const grown = grownTools(before.grants, after.grants);
  const stopsParsing = before.parses && !after.parses;
  if (!grownKeys.size && !grown.length && !stopsParsing) return undefined;
  let reason: string;
  if (stopsParsing) reason = 'the file would no longer parse';
  else if (grownKeys.size) {
    const key = [...grownKeys][0];
    reason = `it would add ${key.replace(' ', ' (')})`;
  } else {
    const { index, tool } = grown[0];
    const name = after.grants[index].name;
    reason = `it would grant \`${tool}\` to ${name ? `\`${name}\`` : 'the definition'}`;
  }
  return { reason, grownKeys, grownDefinitions: grown.map((g) => g.index) };
}

/**
 * The definitions granted a tool after that they were not before (one tool each). They are
 * matched by position when the file holds as many as before (a fix may rename one), else by
 * name; one that matches none was granted nothing before.
 */
function grownTools(before: FixBaseline['grants'], after: FixBaseline['grants']): { index: number; tool: string }[] {
  const out: { index: number; tool: string }[] = [];
  const used = new Set<number>();
  for (let i = 0; i < after.length; i++) {
    const match =
      before.length === after.length ? i : before.findIndex((b, j) => !used.has(j) && b.name === after[i].name);
    if (match >= 0) used.add(match);
    const had = match >= 0 ? before[match].tools : undefined;
    for (const tool of after[i].tools)
      if (!had?.has(tool)) {
        out.push({ index: i, tool });
        break;
      }
  }
  return out;
}
