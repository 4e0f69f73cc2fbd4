import type { Rule } from '../../../engine';
import type { Finding } from '../../../types';
import { POLYTOKEN_UNDENIABLE } from '../../../catalog/builtins';
import { at, definitionOf, isTagRef, parseMcpName, polyList } from '../util';

/** polytoken/tag-in-literal-list, polytoken/mcp-shorthand-in-deny and polytoken/undeniable-tool. */
export const literalListsRule: Rule = {
  ids: ['polytoken/tag-in-literal-list', 'polytoken/mcp-shorthand-in-deny', 'polytoken/undeniable-tool'],
  check(ctx) {
    const def = definitionOf(ctx);
    const out: Finding[] = [];
    for (const key of ['tools_deny', 'undeferred_tools'] as const) {
      for (const { value, node } of polyList(def, key)) {
        if (!isTagRef(value)) continue;
        out.push(
          at(
            ctx,
            'polytoken/tag-in-literal-list',
            node,
            `\`${key}\` takes literal tool names only, and Polytoken rejects the definition because of the \`${value}\` reference; list the tools it stands for by name instead.`,
            { removable: true },
          ),
        );
      }
    }
    const servers = [...ctx.catalog.servers.keys()];
    for (const { value, node } of polyList(def, 'tools_deny')) {
      const mcp = parseMcpName(value, servers);
      if (mcp && mcp.tool === undefined) {
        const tools = ctx.catalog.servers.get(mcp.server) ?? [];
        const example = tools[0] ?? `mcp__${mcp.server}__<tool>`;
        out.push(
          at(
            ctx,
            'polytoken/mcp-shorthand-in-deny',
            node,
            `\`${value}\` denies a whole MCP server, which Polytoken does not accept in \`tools_deny\` and rejects the definition; deny each tool by its full name, such as \`${example}\`.`,
            { removable: true, ...(tools.length ? { expansion: tools } : {}) },
          ),
        );
      }
      if (POLYTOKEN_UNDENIABLE.has(value)) {
        out.push(
          at(
            ctx,
            'polytoken/undeniable-tool',
            node,
            `\`${value}\` is a tool every subagent keeps, and Polytoken rejects a definition whose \`tools_deny\` holds it; remove this entry.`,
            { removable: true },
          ),
        );
      }
    }
    return out;
  },
};
