import type { SeverityName } from '../../../types';
import { findingOn, nearOrHint } from '../../common';
import { toolSuggestionFixes } from '../../../fixes/plans';
import type { PolytokenToolEntry } from '../model';
import { readable, type PolytokenContext, type PolytokenRule, type PolytokenFinding } from '../util';

const ADD_HINT = 'if it exists, add it to `tools.polytoken` (or `mcp`) in .subagents.yaml';

/**
 * polytoken/unknown-tool: names, tags and MCP servers the catalog does not know (the model's
 * `unknown` verdict, from tools.ts). Warning when a known name is within edit distance 2
 * (named in the message and in `data.replacement`), else hint.
 */
export const unknownToolRule: PolytokenRule = {
  ids: ['polytoken/unknown-tool'],
  check(ctx) {
    const model = readable(ctx);
    if (!model) return [];
    const out: PolytokenFinding[] = [];
    for (const list of ['tools', 'tools_deny', 'undeferred_tools'] as const) {
      for (const e of model.entries[list]) if (e.unknown) out.push(report(ctx, e));
    }
    return out;
  },
  fixes: { 'polytoken/unknown-tool': (req) => toolSuggestionFixes(req) },
};

function report(ctx: PolytokenContext, e: PolytokenToolEntry): PolytokenFinding {
  // `tool`: the entry as written (reports show it, e.g. SARIF's `unknownTool`).
  const make = (message: string, data: Record<string, unknown> | undefined, severity: SeverityName) =>
    findingOn(ctx, 'polytoken/unknown-tool', e.node, message, { ...data, tool: e.text }, severity);
  const { what, near } = e.unknown!;
  const m = e.meaning;
  // `what` follows the meaning's kind (unknownTool), except a name whose server is unknown.
  if (m.kind === 'tag') {
    const head = `No tool in the catalog carries the tag \`${m.tag}\`, so \`${e.text}\` grants nothing`;
    return nearOrHint(make, near, {
      near: (r) => `${head}; did you mean \`${r}\`?`,
      otherwise: `${head}; fix the tag, or give tools that tag under \`tools.polytoken\` in .subagents.yaml.`,
    });
  }
  if (m.kind === 'server') {
    const head = `\`${m.server}\` is not an MCP server listed under \`mcp\` in .subagents.yaml, so \`${e.text}\` expands to no tool here`;
    return nearOrHint(make, near, {
      near: (r) => `${head}; did you mean \`${r}\`?`,
      otherwise: `${head}; add the server and its tools under \`mcp\` if it exists.`,
    });
  }
  if (what === 'server-of-tool' && m.kind === 'name') {
    const head = `\`${m.server}\` is not an MCP server listed under \`mcp\` in .subagents.yaml, so \`${e.text}\` names no known tool`;
    return nearOrHint(make, near, {
      near: (r) => `${head}; did you mean \`${r}\`?`,
      otherwise: `${head}; add the server and its tools under \`mcp\` if it exists.`,
    });
  }
  const effect =
    e.list === 'tools'
      ? 'Polytoken will likely grant no such tool'
      : e.list === 'tools_deny'
        ? 'this denial will likely remove nothing'
        : 'undeferring it will likely have no effect';
  const head = `\`${e.text}\` is not a tool the catalog knows, so ${effect}`;
  return nearOrHint(make, near, {
    near: (r) => `${head}; did you mean \`${r}\`?`,
    otherwise: `${head}; check the spelling, or ${ADD_HINT}.`,
  });
}
