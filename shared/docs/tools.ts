/** Tool, shorthand and glob documentation for hover and completion. */
import type { Catalog, CatalogTool } from '../catalog/catalog';
import { BUILTIN_TOOLS } from '../catalog/builtins';
import type { SubagentsConfig } from '../config/config';
import { SHORTHAND_ALL, SHORTHAND_ALL_MCP, STATUS_FAMILIES, statusFamily } from '../dialects/polytoken/constants';
import { DIALECTS, type Dialect } from '../types';
import { dialectTitle } from './keys';

/** The runtimes whose built-in catalog holds this name. */
export function runtimesKnowing(name: string): Dialect[] {
  return DIALECTS.filter((d) => BUILTIN_TOOLS[d].some((t) => t.name === name));
}

export type PolytokenShorthand =
  | { kind: 'all' }
  | { kind: 'all-mcp' }
  | { kind: 'tag'; tag: string }
  | { kind: 'server'; server: string };

/** A Polytoken shorthand (`tag!…`, or `mcp__<server>` without a tool part); undefined for literal names. */
export function polytokenShorthand(entry: string): PolytokenShorthand | undefined {
  if (entry === SHORTHAND_ALL) return { kind: 'all' };
  if (entry === SHORTHAND_ALL_MCP) return { kind: 'all-mcp' };
  if (entry.startsWith('tag!')) return { kind: 'tag', tag: entry.slice(4) };
  const m = /^mcp__(.+)$/.exec(entry);
  if (m && !m[1].includes('__')) return { kind: 'server', server: m[1] };
  return undefined;
}

/** What a shorthand expands to with this catalog; undefined when it cannot expand (unknown server). */
export function expandShorthand(catalog: Catalog, shorthand: PolytokenShorthand): string[] | undefined {
  switch (shorthand.kind) {
    case 'all':
      return catalog.names().sort();
    case 'all-mcp':
      return catalog.mcpTools().sort();
    case 'tag':
      return catalog.tagged(shorthand.tag).sort();
    case 'server':
      return catalog.servers.get(shorthand.server)?.slice().sort();
  }
}

/** Profy glob matching: `*` any run (also none), `?` one character; case-sensitive. */
export function globToRegExp(glob: string): RegExp {
  let re = '';
  for (const ch of glob) re += ch === '*' ? '.*' : ch === '?' ? '.' : ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${re}$`, 's');
}

export const isGlob = (entry: string) => entry.includes('*') || entry.includes('?');

/** The Profy main agent toolset: the Expert's `tools`, else `profy.mainTools`; undefined when unknown. */
export function profyMainToolset(expertTools: unknown, config: SubagentsConfig): string[] | undefined {
  if (Array.isArray(expertTools)) return expertTools.filter((t): t is string => typeof t === 'string');
  return config.profy.mainTools;
}

const fence = (names: string[], max = 40) =>
  names.length ? names.slice(0, max).map((n) => `\`${n}\``).join(', ') + (names.length > max ? `, \u2026 (${names.length - max} more)` : '') : '*(nothing)*';

/** Hover text for a tool name in a dialect. */
export function toolMarkdown(dialect: Dialect, catalog: Catalog, name: string): string {
  const tool: CatalogTool | undefined = catalog.get(name);
  const parts: string[] = [];
  if (!tool) {
    parts.push(`**${name}** \u2014 not in the ${dialectTitle(dialect)} catalog`);
    const near = catalog.nearest(name);
    if (near) parts.push(`Did you mean \`${near}\`?`);
    const elsewhere = runtimesKnowing(name).filter((d) => d !== dialect).map(dialectTitle);
    if (elsewhere.length) parts.push(`It is a built-in tool of ${elsewhere.join(' and ')}, not of ${dialectTitle(dialect)}.`);
    parts.push('Add it under `tools.' + dialect + '` (or `mcp`) in `.subagents.yaml` if the runtime provides it.');
    return parts.join('\n\n');
  }
  const origin = tool.origin === 'builtin' ? 'built-in' : tool.origin === 'mcp' ? `MCP tool of server \`${tool.server}\`` : 'from `.subagents.yaml`';
  parts.push(`**${name}** \u2014 ${dialectTitle(dialect)} tool (${origin})`);
  if (tool.description) parts.push(tool.description);
  if (tool.tags.length) parts.push(`Tags: ${tool.tags.map((t) => `\`${t}\``).join(', ')}`);
  if (tool.undeniable) parts.push('May not be listed in `tools_deny`: Polytoken rejects a definition that denies it.');
  if (name === 'exit_tool' && dialect === 'polytoken') parts.push('Registered for every subagent: never list it in `tools`.');
  if (name === 'switch_facet' && dialect === 'polytoken') parts.push('Never granted to a subagent: listing it in `tools` or `undeferred_tools` rejects the definition.');
  if (tool.reserved) parts.push('Reserved: Profy never grants it to a subagent, also not through a glob.');
  const known = runtimesKnowing(name).map(dialectTitle);
  if (known.length) parts.push(`Built into: ${known.join(', ')}`);
  return parts.join('\n\n');
}

/** Hover text for a Polytoken shorthand, with its expansion right now. */
export function shorthandMarkdown(catalog: Catalog, entry: string, shorthand: PolytokenShorthand): string {
  const expansion = expandShorthand(catalog, shorthand);
  const what =
    shorthand.kind === 'all'
      ? 'every catalog tool and every MCP tool'
      : shorthand.kind === 'all-mcp'
        ? 'every MCP tool'
        : shorthand.kind === 'tag'
          ? `every catalog tool tagged \`${shorthand.tag}\``
          : `every tool of the MCP server \`${shorthand.server}\``;
  const parts = [`**${entry}** \u2014 Polytoken shorthand: ${what}`];
  if (!expansion) parts.push(`The server \`${(shorthand as { server: string }).server}\` is not listed under \`mcp\` in \`.subagents.yaml\`, so the expansion is unknown.`);
  else parts.push(`Expands now to ${expansion.length} tool${expansion.length === 1 ? '' : 's'}: ${fence(expansion)}`);
  parts.push('Valid only in `tools`; `tools_deny` and `undeferred_tools` take literal names.');
  return parts.join('\n\n');
}

/** Hover text for a Profy glob, with what it matches in the main toolset. */
export function globMarkdown(glob: string, toolset: string[] | undefined, reserved: ReadonlySet<string>): string {
  const parts = [`**${glob}** \u2014 Profy glob (\`*\` any run of characters, \`?\` one character)`];
  if (!toolset) {
    parts.push('The main agent toolset is unknown (no Expert `tools`, no `profy.mainTools`), so what it matches is unknown.');
    return parts.join('\n\n');
  }
  const re = globToRegExp(glob);
  const matched = toolset.filter((t) => re.test(t));
  const granted = matched.filter((t) => !reserved.has(t));
  const blocked = matched.filter((t) => reserved.has(t));
  parts.push(`Matches now ${granted.length} tool${granted.length === 1 ? '' : 's'} of the main toolset: ${fence(granted)}`);
  if (blocked.length) parts.push(`Reserved names it also matches are never granted: ${fence(blocked)}`);
  return parts.join('\n\n');
}

/** Hover text for a status enum value of an `exit_tool_schema`. */
export function statusValueMarkdown(value: string): string {
  const family = statusFamily(value);
  const families = Object.entries(STATUS_FAMILIES)
    .map(([f, vs]) => `${f}: ${vs.map((v) => `\`${v}\``).join(', ')}`)
    .join('; ');
  if (family) return `**${value}** \u2014 recognized status: Polytoken classifies it as **${family}**.\n\nFamilies (compared lower-cased): ${families}.`;
  return `**${value}** \u2014 unrecognized status: Polytoken cannot classify it, rejects an exit that uses it and makes the model retry.\n\nUse a value of the families (${families}) or add a \`success\` boolean property.`;
}
