import type { Rule } from '../../../engine';
import type { Finding, SeverityName } from '../../../types';
import { nearOrHint } from '../../common';
import { MEMORY_DENIES, MEMORY_SCOPES, memoryDenials } from '../constants';
import { finding, listEntries, quote, roleRoot, stringValue } from './util';

/** "`memory: session`" or "`memory: read-only` or `memory: session`": the scopes that keep a tool. */
function allowingScopes(tool: string): string {
  return MEMORY_SCOPES.filter((s) => !MEMORY_DENIES[s].includes(tool))
    .map((s) => `\`memory: ${s}\``)
    .join(' or ');
}

/** picasso/tools-deny-overlap: a tool both allowed and denied; reported on every entry of both lists. */
export const toolsDenyOverlap: Rule = {
  ids: ['picasso/tools-deny-overlap'],
  check(ctx) {
    const root = roleRoot(ctx);
    if (!root) return [];
    const tools = listEntries(root, 'tools');
    const deny = listEntries(root, 'deny');
    const denied = new Set(deny.map((e) => e.value));
    const allowed = new Set(tools.map((e) => e.value));
    const out: Finding[] = [];
    for (const [list, other] of [[tools, denied], [deny, allowed]] as const) {
      for (const entry of list) {
        if (!other.has(entry.value)) continue;
        out.push(
          finding(
            ctx,
            'picasso/tools-deny-overlap',
            entry.node,
            `${quote(entry.value)} is in both \`tools\` and \`deny\`, and Picasso refuses to load a role whose lists overlap; keep it in only one of the two lists.`,
            { tool: entry.value, removable: true },
          ),
        );
      }
    }
    return out;
  },
};

/** picasso/memory-conflict: the memory scope refuses a tool that `tools` grants. */
export const memoryConflict: Rule = {
  ids: ['picasso/memory-conflict'],
  check(ctx) {
    const root = roleRoot(ctx);
    const memory = stringValue(root, 'memory')?.value;
    const denials = memoryDenials(memory);
    if (!root || !denials) return [];
    const refused = new Set(denials);
    return listEntries(root, 'tools')
      .filter((e) => refused.has(e.value))
      .map((e) =>
        finding(
          ctx,
          'picasso/memory-conflict',
          e.node,
          `${quote(e.value)} is in \`tools\`, but \`memory: ${memory}\` refuses it, so Picasso refuses to load the role; remove it from \`tools\` or choose ${allowingScopes(e.value)}.`,
          { tool: e.value, scope: memory, removable: true },
        ),
      );
  },
};

/** picasso/unknown-tool: a `tools` or `deny` entry the catalog does not know. */
export const unknownTool: Rule = {
  ids: ['picasso/unknown-tool'],
  check(ctx) {
    const root = roleRoot(ctx);
    if (!root) return [];
    const out: Finding[] = [];
    for (const key of ['tools', 'deny'] as const) {
      for (const entry of listEntries(root, key)) {
        if (ctx.catalog.has(entry.value)) continue;
        const effect = key === 'tools' ? 'granting it gives the role nothing' : 'denying it removes nothing';
        const report = (message: string, data: Record<string, unknown> | undefined, severity: SeverityName) => finding(ctx, 'picasso/unknown-tool', entry.node, message, data, severity);
        out.push(
          nearOrHint(
            report,
            ctx.catalog.nearest(entry.value),
            {
              near: (nearest) => `${quote(entry.value)} in \`${key}\` is not a Picasso tool, so ${effect}; did you mean \`${nearest}\`?`,
              otherwise: `${quote(entry.value)} in \`${key}\` is not in the Picasso tool catalog; if your runtime provides it, add it to \`tools.picasso\` (or \`mcp\`) in .subagents.yaml, otherwise ${effect}.`,
            },
            { tool: entry.value },
          ),
        );
      }
    }
    return out;
  },
};
