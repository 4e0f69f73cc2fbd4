/**
 * Markdown for Polytoken's shorthands and status values (hover, completion, inlay hints); what they mean comes from
 * tools.ts.
 */
import { expansionLine } from '../../../features/kit/tool-lines';
import { STATUS_FAMILIES, statusFamily } from '../constants';
import type { ToolMeaning } from '../tools';

/** Why a Polytoken shorthand expands to nothing (hover and the inlay hints' tooltip). */
export function emptyExpansionLine(meaning: Exclude<ToolMeaning, { kind: 'name' }>): string {
  if (meaning.kind === 'server')
    return `Expands to nothing: the server \`${meaning.server}\` is not listed under \`mcp\` in \`.subagents.yaml\`.`;
  if (meaning.kind === 'tag') return `Expands to nothing: no catalog tool carries the tag \`${meaning.tag}\`.`;
  return 'Expands to nothing: the catalog holds no such tool.';
}

/** Hover text for a Polytoken shorthand with its expansion right now (undefined: it cannot be expanded). */
export function shorthandMarkdown(
  entry: string,
  meaning: Exclude<ToolMeaning, { kind: 'name' }>,
  expansion: readonly string[] | undefined,
  near?: string,
): string {
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

/** Hover text for a status enum value of an `exit_tool_schema`. */
export function statusValueMarkdown(value: string): string {
  const family = statusFamily(value);
  const families = Object.entries(STATUS_FAMILIES)
    .map(([f, vs]) => `${f}: ${vs.map((v) => `\`${v}\``).join(', ')}`)
    .join('; ');
  if (family)
    return `**${value}** \u2014 recognized status: Polytoken classifies it as **${family}**.\n\nFamilies (compared lower-cased): ${families}.`;
  return `**${value}** \u2014 unrecognized status: Polytoken cannot classify it, rejects an exit that uses it and makes the model retry.\n\nUse a value of the families (${families}) or add a \`success\` boolean property.`;
}
