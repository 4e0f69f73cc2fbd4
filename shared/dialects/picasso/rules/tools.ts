import type { FixPlan, SeverityName } from '../../../types';
import { findingOn, nearOrHint, quote } from '../../common';
import { removeFix, toolSuggestionFixes } from '../../../fixes/plans';
import { replaceValueEdit } from '../../../fixes/edits';
import { scopesAllowing } from '../tools';
import type { PicassoToolEntry } from '../model';
import type { PicassoFix, PicassoRule, PicassoFinding } from '../util';

/** "`memory: session`" or "`memory: read-only` or `memory: session`": the scopes that keep a tool. */
function allowingScopes(tool: string): string {
  return scopesAllowing(tool)
    .map((s) => `\`memory: ${s}\``)
    .join(' or ');
}

/** The `tools` entry or entries with this text (the overlap fix removes the grant, keeping the denial). */
const toolsEntry = (req: PicassoFix, tool: string): PicassoToolEntry | undefined =>
  req.ctx.model.entries.tools.find((e) => e.text === tool);

/** picasso/tools-deny-overlap: a tool both allowed and denied; reported on every entry of both lists. */
export const toolsDenyOverlap: PicassoRule = {
  ids: ['picasso/tools-deny-overlap'],
  check(ctx) {
    const { tools, deny } = ctx.model.entries;
    const denied = new Set(deny.map((e) => e.text));
    const allowed = new Set(tools.map((e) => e.text));
    const out: PicassoFinding[] = [];
    for (const [list, other] of [
      [tools, denied],
      [deny, allowed],
    ] as const) {
      for (const entry of list) {
        if (!other.has(entry.text)) continue;
        out.push(
          findingOn(
            ctx,
            'picasso/tools-deny-overlap',
            entry.node,
            `${quote(entry.text)} is in both \`tools\` and \`deny\`, and Picasso refuses to load a role whose lists overlap; keep it in only one of the two lists.`,
            {
              tool: entry.text,
              removable: true,
            },
          ),
        );
      }
    }
    return out;
  },
  fixes: {
    // Removing the grant keeps what the author denied (a preferred fix never widens what a role may do).
    'picasso/tools-deny-overlap': (req) => {
      const tool = typeof req.data.tool === 'string' ? req.data.tool : undefined;
      if (!tool) return [];
      const fixes: FixPlan[] = [];
      for (const [list, entry] of [
        ['tools', toolsEntry(req, tool)],
        ['deny', req.ctx.model.entries.deny.find((e) => e.text === tool)],
      ] as const) {
        const remove = entry && removeFix(req, entry.node, list === 'tools');
        if (remove) fixes.push({ ...remove, title: `Remove \`${tool}\` from \`${list}\`` });
      }
      return fixes;
    },
  },
};

/** picasso/memory-conflict: the memory scope refuses a tool that `tools` grants. */
export const memoryConflict: PicassoRule = {
  ids: ['picasso/memory-conflict'],
  check(ctx) {
    const { memory, entries } = ctx.model;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a shortcut; no entry is refused by memory then
    if (!ctx.model.root || !ctx.model.memoryDenies) return [];
    return entries.tools
      .filter((e) => e.refusedByMemory)
      .map((e) =>
        findingOn(
          ctx,
          'picasso/memory-conflict',
          e.node,
          `${quote(e.text)} is in \`tools\`, but \`memory: ${memory!.value}\` refuses it, so Picasso refuses to load the role; remove it from \`tools\` or choose ${allowingScopes(e.text)}.`,
          { tool: e.text, scope: memory!.value, removable: true },
        ),
      );
  },
  fixes: {
    'picasso/memory-conflict': (req) => {
      const fixes: FixPlan[] = [];
      const remove = removeFix(req, req.node, true);
      if (remove) fixes.push(remove);
      const memory = req.ctx.model.memory;
      const tool = typeof req.data.tool === 'string' ? req.data.tool : undefined;
      if (memory && tool) {
        for (const scope of scopesAllowing(tool)) {
          fixes.push({
            title: `Change memory to \`${scope}\``,
            edits: [replaceValueEdit(req.ctx, memory.node.start, memory.node.end, scope)],
          });
        }
      }
      return fixes;
    },
  },
};

/** picasso/unknown-tool: a `tools` or `deny` entry the catalog does not know (the model's verdict). */
export const unknownTool: PicassoRule = {
  ids: ['picasso/unknown-tool'],
  check(ctx) {
    const out: PicassoFinding[] = [];
    for (const list of ['tools', 'deny'] as const) {
      for (const entry of ctx.model.entries[list]) {
        if (entry.known) continue;
        const effect = list === 'tools' ? 'granting it gives the role nothing' : 'denying it removes nothing';
        const report = (message: string, data: Record<string, unknown> | undefined, severity: SeverityName) =>
          findingOn(ctx, 'picasso/unknown-tool', entry.node, message, data, severity);
        out.push(
          nearOrHint(
            report,
            entry.near,
            {
              near: (nearest) =>
                `${quote(entry.text)} in \`${list}\` is not a Picasso tool, so ${effect}; did you mean \`${nearest}\`?`,
              otherwise: `${quote(entry.text)} in \`${list}\` is not in the Picasso tool catalog; if your runtime provides it, add it to \`tools.picasso\` (or \`mcp\`) in .subagents.yaml, otherwise ${effect}.`,
            },
            { tool: entry.text },
          ),
        );
      }
    }
    return out;
  },
  fixes: { 'picasso/unknown-tool': (req) => toolSuggestionFixes(req) },
};
