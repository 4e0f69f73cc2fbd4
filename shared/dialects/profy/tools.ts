/**
 * What a Profy allowlist entry means and what it grants: the main agent's toolset, the three
 * passes (reserved names, globs, exact names) and glob matching. The only place that decides
 * these (docs/runtimes/profy.md, "Allowlist resolution"); rules, resolution, hover and
 * completion read its answers through the model.
 */
import { getProperty, isArray, isString, stringItems, type AstNode } from '../../text/tree';
import { RESERVED_NAMES } from './constants';
import { expandGlob, isGlob, type MatchBudget } from './glob';

export { globMatches, isGlob } from './glob';

/** The main agent's toolset: the Expert's `tools`, else `profy.mainTools`, else unknown. */
export interface Toolset {
  known: boolean;
  /** Unique, in the order declared. Empty when unknown. */
  tools: string[];
  /** The same names, for lookups. */
  has: ReadonlySet<string>;
  source: 'expert' | 'config' | 'unknown';
}

export function mainToolset(expert: AstNode | undefined, configured: readonly unknown[] | undefined): Toolset {
  const own = getProperty(expert, 'tools')?.value;
  // An Expert `tools` that is not a list is an invalid-value problem; the configuration
  // then stands in, as if the key were absent.
  const known = (tools: string[], source: Toolset['source']): Toolset => ({
    known: true,
    tools,
    has: new Set(tools),
    source,
  });
  if (isArray(own)) return known(unique(stringItems(own).map((i) => i.value)), 'expert');
  if (Array.isArray(configured))
    return known(unique(configured.filter((t): t is string => typeof t === 'string')), 'config');
  return { known: false, tools: [], has: new Set(), source: 'unknown' };
}

export type EntryKind = 'reserved' | 'glob' | 'literal' | 'not-a-string';

export interface AllowlistEntry {
  node: AstNode;
  /** The entry's text when it is a string. */
  text?: string;
  kind: EntryKind;
  /** Tools this entry grants (pass 2 for a glob, pass 3 for a literal). */
  granted: string[];
  /** Reserved tools a glob matched and pass 2 removed again. */
  reservedMatches: string[];
  /** The toolset is known and the entry grants nothing (and is not itself a reserved name). */
  unresolved: boolean;
  /**
   * The toolset is unknown (or the file's globs are too many to match here), so whether this entry resolves cannot be
   * told.
   */
  unchecked: boolean;
}

/** Glob match attempts one Expert file may spend (a glob against each tool is one); past it, globs stay unchecked. */
export const GLOB_MATCH_BUDGET = 5_000_000;

/** One entry through the three passes. */
export function allowlistEntry(node: AstNode, toolset: Toolset, budget?: MatchBudget): AllowlistEntry {
  const entry: AllowlistEntry = {
    node,
    kind: 'not-a-string',
    granted: [],
    reservedMatches: [],
    unresolved: false,
    unchecked: false,
  };
  if (!isString(node)) return entry;
  const text = node.value;
  entry.text = text;
  // Pass 1: a fixed list of names, reserved whether or not the toolset has them.
  if (RESERVED_NAMES.has(text)) {
    entry.kind = 'reserved';
    return entry;
  }
  entry.kind = isGlob(text) ? 'glob' : 'literal';
  if (!toolset.known) {
    entry.unchecked = text !== '';
    return entry;
  }
  if (entry.kind === 'glob') {
    // Pass 2: expand against the main toolset, then drop the reserved names it matched.
    const matches = expandGlob(text, toolset.tools, budget);
    if (!matches) {
      entry.unchecked = true;
      return entry;
    }
    entry.reservedMatches = matches.filter((t) => RESERVED_NAMES.has(t));
    entry.granted = matches.filter((t) => !RESERVED_NAMES.has(t));
  } else if (toolset.has.has(text)) {
    // Pass 3: exact names found in the main toolset.
    entry.granted = [text];
  }
  entry.unresolved = entry.granted.length === 0;
  return entry;
}

/** The tools of the toolset a subagent may be granted (reserved names never are). */
export function grantable(toolset: Toolset): string[] {
  return toolset.tools.filter((t) => !RESERVED_NAMES.has(t));
}

export function unique<T>(items: Iterable<T>): T[] {
  return [...new Set(items)];
}

/** What completion offers in a subagent's allowlist: the grantable tools, a glob per MCP server and `*`. */
export function allowlistCandidates(toolset: Toolset): { text: string; kind: 'literal' | 'glob'; granted: string[] }[] {
  // Stryker disable next-line ConditionalExpression: an unknown toolset is empty, which offers nothing either
  if (!toolset.known) return [];
  const names = grantable(toolset);
  const out: { text: string; kind: 'literal' | 'glob'; granted: string[] }[] = names.map((n) => ({
    text: n,
    kind: 'literal' as const,
    granted: [n],
  }));
  const servers = unique(names.map((t) => /^mcp__(.+?)__/.exec(t)?.[1]).filter((s): s is string => !!s));
  for (const server of servers) {
    const glob = `mcp__${server}__*`;
    // Stryker disable next-line ArrayDeclaration: without a budget the expansion always answers
    out.push({ text: glob, kind: 'glob', granted: expandGlob(glob, names) ?? [] });
  }
  if (names.length) out.push({ text: '*', kind: 'glob', granted: names });
  return out;
}
