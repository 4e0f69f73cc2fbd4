import type { RuleContext } from '../../engine';
import type { Finding, SeverityName } from '../../types';
import { getProperty, isObject, stringItems, type AstNode, type AstProperty } from '../../text/tree';
import { findingAt } from '../common';
import { SHORTHAND_ALL, SHORTHAND_ALL_MCP } from './constants';

/** The frontmatter mapping and its `polytoken` mapping, when they are mappings. */
export interface PolytokenDefinition {
  root: AstNode & { properties: AstProperty[] };
  /** The `polytoken` mapping; undefined when absent or not a mapping. */
  poly?: AstNode & { properties: AstProperty[] };
}

/**
 * The definition's mappings. While the frontmatter's YAML does not parse, the parser's
 * partial tree would only produce follow-on noise (`name: [x` read as a list), so rules
 * see nothing until syntax/yaml is fixed; resolution passes `partial` to use what there is.
 */
export function definitionOf(ctx: RuleContext, partial = false): PolytokenDefinition | undefined {
  if (!partial && yamlIsBroken(ctx)) return undefined;
  const root = ctx.file.root;
  if (!isObject(root)) return undefined;
  const polyNode = getProperty(root, 'polytoken')?.value;
  return { root, poly: isObject(polyNode) ? polyNode : undefined };
}

export function yamlIsBroken(ctx: RuleContext): boolean {
  return ctx.file.syntax.some((f) => f.rule === 'syntax/yaml');
}

/** A `polytoken.<key>` property. */
export function polyProperty(def: PolytokenDefinition | undefined, key: string): AstProperty | undefined {
  return def?.poly ? getProperty(def.poly, key) : undefined;
}

/** `inherit_tools: true` (anything else, including a malformed value, does not inherit). */
export function inheritsTools(def: PolytokenDefinition | undefined): boolean {
  const inherit = polyProperty(def, 'inherit_tools')?.value;
  return inherit?.kind === 'boolean' && inherit.value === true;
}

/** The string entries of `polytoken.<key>` when it is a list. */
export function polyList(def: PolytokenDefinition | undefined, key: string): { value: string; node: AstNode }[] {
  return stringItems(polyProperty(def, key)?.value);
}

/** A finding whose range is exactly the node. */
export function at(ctx: RuleContext, rule: string, node: AstNode, message: string, data?: Record<string, unknown>, severity?: SeverityName): Finding {
  return findingAt(rule, nodeRange(ctx, node), message, data, severity);
}

/** The node's range; a block collection's span stops at its last character, not the line break after it. */
export function nodeRange(ctx: RuleContext, node: AstNode) {
  const text = ctx.file.source.text;
  let end = node.end;
  while (end > node.start && /\s/.test(text[end - 1] ?? '')) end--;
  return ctx.file.source.range(node.start, end);
}

export const isTagRef = (name: string): boolean => name.startsWith('tag!');

/** `mcp__<server>` or `mcp__<server>__<tool>`, split; undefined for other names. */
export function parseMcpName(name: string, knownServers: Iterable<string> = []): { server: string; tool?: string } | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice('mcp__'.length);
  if (!rest) return undefined;
  // Prefer a configured server name (it may itself hold `__`), the longest first.
  let best: string | undefined;
  for (const s of knownServers) {
    if ((rest === s || rest.startsWith(`${s}__`)) && (!best || s.length > best.length)) best = s;
  }
  if (best !== undefined) {
    const tool = rest.slice(best.length + 2);
    return tool ? { server: best, tool } : { server: best };
  }
  const sep = rest.indexOf('__');
  if (sep < 0) return { server: rest };
  if (sep === 0) return undefined;
  const tool = rest.slice(sep + 2);
  return tool ? { server: rest.slice(0, sep), tool } : { server: rest.slice(0, sep) };
}

/** A `tools` entry that the runtime expands: a `tag!` reference or an `mcp__<server>` shorthand. */
export function isShorthand(name: string, knownServers: Iterable<string> = []): boolean {
  if (isTagRef(name)) return true;
  const mcp = parseMcpName(name, knownServers);
  return !!mcp && mcp.tool === undefined;
}

export const ALWAYS_VALID_IN_TOOLS = new Set<string>([SHORTHAND_ALL, SHORTHAND_ALL_MCP]);
