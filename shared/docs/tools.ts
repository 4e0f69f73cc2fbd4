/**
 * Markdown for tool names, shorthands, globs and status values (hover and completion). It only
 * renders: what an entry means, expands to or matches is decided by the dialects' tools.ts
 * and handed in.
 */
import type { Catalog, CatalogTool } from '../catalog/catalog';
import { dialectModules } from '../dialects';
import { STATUS_FAMILIES, statusFamily } from '../dialects/polytoken/constants';
import type { ToolMeaning } from '../dialects/polytoken/tools';
import type { Dialect } from '../basics';
import { dialectTitle } from './keys';

/** The runtimes whose built-in catalog holds this name. */
export function runtimesKnowing(name: string): Dialect[] {
  return dialectModules()
    .filter((m) => m.tools.some((t) => t.name === name))
    .map((m) => m.id);
}

/** `a`, `b`, … at most `max` names, then how many more. */
export function nameFence(names: readonly string[], max = 40): string {
  return names.length ? names.slice(0, max).map((n) => `\`${n}\``).join(', ') + (names.length > max ? `, \u2026 (${names.length - max} more)` : '') : '*(nothing)*';
}

/** "Expands now to 2 tools: `a`, `b`" (sorted): the line hover and the inlay hints' tooltip share. */
export function expansionLine(verb: string, names: readonly string[], what = ''): string {
  const sorted = [...names].sort();
  return `${verb} ${sorted.length} tool${sorted.length === 1 ? '' : 's'}${what}: ${nameFence(sorted)}`;
}

/** Hover text for a tool name of a dialect; `near` is the catalog's nearest name when it does not know it. */
export function toolMarkdown(dialect: Dialect, catalog: Catalog, name: string, near?: string): string {
  const tool: CatalogTool | undefined = catalog.get(name);
  const parts: string[] = [];
  if (!tool) {
    parts.push(`**${name}** \u2014 not in the ${dialectTitle(dialect)} catalog`);
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

/** Why a Polytoken shorthand expands to nothing (hover and the inlay hints' tooltip). */
export function emptyExpansionLine(meaning: Exclude<ToolMeaning, { kind: 'name' }>): string {
  if (meaning.kind === 'server') return `Expands to nothing: the server \`${meaning.server}\` is not listed under \`mcp\` in \`.subagents.yaml\`.`;
  if (meaning.kind === 'tag') return `Expands to nothing: no catalog tool carries the tag \`${meaning.tag}\`.`;
  return 'Expands to nothing: the catalog holds no such tool.';
}

/** Hover text for a Polytoken shorthand with its expansion right now (undefined: it cannot be expanded). */
export function shorthandMarkdown(entry: string, meaning: Exclude<ToolMeaning, { kind: 'name' }>, expansion: readonly string[] | undefined, near?: string): string {
  const what =
    meaning.kind === 'all'
      ? 'every catalog tool and every MCP tool'
      : meaning.kind === 'all-mcp'
        ? 'every MCP tool'
        : meaning.kind === 'tag'
          ? `every catalog tool tagged \`${meaning.tag}\``
          : `every tool of the MCP server \`${meaning.server}\``;
  const parts = [`**${entry}** \u2014 Polytoken shorthand: ${what}`];
  parts.push(expansion ? expansionLine('Expands now to', expansion) : emptyExpansionLine(meaning));
  if (near) parts.push(`Did you mean \`${near}\`?`);
  parts.push('Valid only in `tools`; `tools_deny` and `undeferred_tools` take literal names.');
  return parts.join('\n\n');
}

/** What a Profy glob matches, as the allowlist resolution found it. */
export interface GlobFacts {
  /** The main toolset is known. */
  known: boolean;
  granted: readonly string[];
  reservedMatches: readonly string[];
}

/** Hover text for a Profy glob, with what it matches in the main toolset. */
export function globMarkdown(glob: string, facts: GlobFacts): string {
  return [`**${glob}** \u2014 Profy glob (\`*\` any run of characters, \`?\` one character)`, ...globMatchLines(facts)].join('\n\n');
}

/** What a glob matches, as paragraphs (hover and the inlay hints' tooltip). */
export function globMatchLines(facts: GlobFacts): string[] {
  if (!facts.known) return ['The main agent toolset is unknown (no Expert `tools`, no `profy.mainTools`), so what it matches is unknown.'];
  const lines = [expansionLine('Matches now', facts.granted, ' of the main toolset')];
  if (facts.reservedMatches.length) lines.push(`Reserved names it also matches are never granted: ${nameFence(facts.reservedMatches)}`);
  return lines;
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
