import type { Rule, RuleContext } from '../../../engine';
import type { Finding, SeverityName } from '../../../types';
import { nearestName } from '../../../catalog/catalog';
import type { AstNode } from '../../../text/tree';
import { nearOrHint } from '../../common';
import { TOOL_LIST_KEYS } from '../constants';
import { ALWAYS_VALID_IN_TOOLS, at, definitionOf, isTagRef, parseMcpName, polyList } from '../util';

const ADD_HINT = 'if it exists, add it to `tools.polytoken` (or `mcp`) in .subagents.yaml';

/**
 * polytoken/unknown-tool: names, tags and MCP servers the catalog does not know.
 * Warning when a known name is within edit distance 2 (named in the message and in
 * `data.replacement`), else hint. `tag!` entries in tools_deny/undeferred_tools and
 * `mcp__<server>` in tools_deny have rules of their own and are not reported here.
 */
export const unknownToolRule: Rule = {
  ids: ['polytoken/unknown-tool'],
  check(ctx) {
    const def = definitionOf(ctx);
    const out: Finding[] = [];
    for (const key of TOOL_LIST_KEYS) {
      for (const { value, node } of polyList(def, key)) {
        const finding = checkName(ctx, key, value, node);
        if (finding) out.push(finding);
      }
    }
    return out;
  },
};

function checkName(ctx: RuleContext, key: string, value: string, node: AstNode): Finding | undefined {
  const catalog = ctx.catalog;
  const report = (message: string, data: Record<string, unknown> | undefined, severity: SeverityName) => at(ctx, 'polytoken/unknown-tool', node, message, data, severity);
  if (isTagRef(value)) {
    if (key !== 'tools' || ALWAYS_VALID_IN_TOOLS.has(value)) return undefined;
    const tag = value.slice('tag!'.length);
    if (catalog.tagged(tag).length) return undefined;
    const near = nearestName(tag, catalog.tags());
    const what = `No tool in the catalog carries the tag \`${tag}\`, so \`${value}\` grants nothing`;
    return nearOrHint(report, near && `tag!${near}`, {
      near: (tagRef) => `${what}; did you mean \`${tagRef}\`?`,
      otherwise: `${what}; fix the tag, or give tools that tag under \`tools.polytoken\` in .subagents.yaml.`,
    });
  }
  const servers = [...catalog.servers.keys()];
  const mcp = parseMcpName(value, servers);
  if (mcp && mcp.tool === undefined) {
    if (key === 'tools_deny') return undefined;
    if (catalog.servers.has(mcp.server)) return undefined;
    const near = nearestName(mcp.server, servers);
    const what = `\`${mcp.server}\` is not an MCP server listed under \`mcp\` in .subagents.yaml, so \`${value}\` expands to no tool here`;
    return nearOrHint(report, near && `mcp__${near}`, {
      near: (shorthand) => `${what}; did you mean \`${shorthand}\`?`,
      otherwise: `${what}; add the server and its tools under \`mcp\` if it exists.`,
    });
  }
  if (catalog.has(value)) return undefined;
  const near = catalog.nearest(value);
  if (mcp && !catalog.servers.has(mcp.server)) {
    const what = `\`${mcp.server}\` is not an MCP server listed under \`mcp\` in .subagents.yaml, so \`${value}\` names no known tool`;
    return nearOrHint(report, near, { near: (name) => `${what}; did you mean \`${name}\`?`, otherwise: `${what}; add the server and its tools under \`mcp\` if it exists.` });
  }
  const effect = key === 'tools' ? 'Polytoken will likely grant no such tool' : key === 'tools_deny' ? 'this denial will likely remove nothing' : 'undeferring it will likely have no effect';
  const what = `\`${value}\` is not a tool the catalog knows, so ${effect}`;
  return nearOrHint(report, near, { near: (name) => `${what}; did you mean \`${name}\`?`, otherwise: `${what}; check the spelling, or ${ADD_HINT}.` });
}
