/**
 * Markdown for tool names (hover and completion), whatever the dialect: the catalog's facts,
 * the notes the runtime's module gives its built-in tools, and which runtimes have the tool
 * built in. What an entry means, expands to or matches is the dialect's to say (its editor/).
 */
import type { Catalog, CatalogTool } from '../catalog/catalog';
import type { Dialect } from '../basics';
import { dialectModule, dialectModules } from '../dialects';

const titleOf = (dialect: Dialect) => dialectModule(dialect)?.title ?? dialect;

/** The runtimes whose built-in catalog holds this name. */
export function runtimesKnowing(name: string): Dialect[] {
  return dialectModules()
    .filter((m) => m.tools.some((t) => t.name === name))
    .map((m) => m.id);
}

/** Hover text for a tool name of a dialect; `near` is the catalog's nearest name when it does not know it. */
export function toolMarkdown(dialect: Dialect, catalog: Catalog, name: string, near?: string): string {
  const tool: CatalogTool | undefined = catalog.get(name);
  const title = titleOf(dialect);
  const parts: string[] = [];
  if (!tool) {
    parts.push(`**${name}** \u2014 not in the ${title} catalog`);
    if (near) parts.push(`Did you mean \`${near}\`?`);
    // A dialect's catalog always holds its own built-ins, so a name it lacks is never one of them: the filter only says so.
    // Stryker disable next-line MethodExpression: see above
    const elsewhere = runtimesKnowing(name)
      // Stryker disable next-line ConditionalExpression: see above
      .filter((d) => d !== dialect)
      .map(titleOf);
    if (elsewhere.length) parts.push(`It is a built-in tool of ${elsewhere.join(' and ')}, not of ${title}.`);
    parts.push('Add it under `tools.' + dialect + '` (or `mcp`) in `.subagents.yaml` if the runtime provides it.');
    return parts.join('\n\n');
  }
  const origin =
    tool.origin === 'builtin'
      ? 'built-in'
      : tool.origin === 'mcp'
        ? `MCP tool of server \`${tool.server}\``
        : 'from `.subagents.yaml`';
  parts.push(`**${name}** \u2014 ${title} tool (${origin})`);
  if (tool.description) parts.push(tool.description);
  if (tool.tags.length) parts.push(`Tags: ${tool.tags.map((t) => `\`${t}\``).join(', ')}`);
  for (const note of tool.notes ?? []) parts.push(note);
  const known = runtimesKnowing(name).map(titleOf);
  if (known.length) parts.push(`Built into: ${known.join(', ')}`);
  return parts.join('\n\n');
}
