import type { FixPlan } from '../../../types';
import { POLYTOKEN_UNDENIABLE } from '../builtins';
import { findingOn } from '../../common';
import { removeFix } from '../../../fixes/plans';
import { replaceItemWithManyEdit } from '../../../fixes/edits';
import { isString, stringItems } from '../../../text/tree';
import { expandMeaning, misplacedIn, toolMeaning } from '../tools';
import { readable, type PolytokenFix, type PolytokenRule, type PolytokenFinding } from '../util';

/** polytoken/tag-in-literal-list, polytoken/mcp-shorthand-in-deny and polytoken/undeniable-tool. */
export const literalListsRule: PolytokenRule = {
  ids: ['polytoken/tag-in-literal-list', 'polytoken/mcp-shorthand-in-deny', 'polytoken/undeniable-tool'],
  check(ctx) {
    const model = readable(ctx);
    if (!model) return [];
    const out: PolytokenFinding[] = [];
    for (const list of ['tools_deny', 'undeferred_tools'] as const) {
      for (const e of model.entries[list]) {
        const misplaced = misplacedIn(list, e.meaning);
        if (misplaced === 'tag-in-literal-list') {
          out.push(
            findingOn(
              ctx,
              'polytoken/tag-in-literal-list',
              e.node,
              `\`${list}\` takes literal tool names only, and Polytoken rejects the definition because of the \`${e.text}\` reference; list the tools it stands for by name instead.`,
            ),
          );
        } else if (misplaced === 'mcp-shorthand-in-deny' && e.meaning.kind === 'server') {
          const tools = ctx.catalog.servers.get(e.meaning.server) ?? [];
          const example = tools[0] ?? `mcp__${e.meaning.server}__<tool>`;
          out.push(
            findingOn(
              ctx,
              'polytoken/mcp-shorthand-in-deny',
              e.node,
              `\`${e.text}\` denies a whole MCP server, which Polytoken does not accept in \`tools_deny\` and rejects the definition; deny each tool by its full name, such as \`${example}\`.`,
            ),
          );
        }
      }
    }
    for (const e of model.entries.tools_deny) {
      if (!POLYTOKEN_UNDENIABLE.has(e.text)) continue;
      out.push(
        findingOn(
          ctx,
          'polytoken/undeniable-tool',
          e.node,
          `\`${e.text}\` is a tool every subagent keeps, and Polytoken rejects a definition whose \`tools_deny\` holds it; remove this entry.`,
        ),
      );
    }
    return out;
  },
  fixes: {
    'polytoken/tag-in-literal-list': (req) => expandOrRemove(req),
    'polytoken/mcp-shorthand-in-deny': (req) => expandOrRemove(req),
    'polytoken/undeniable-tool': (req) => withRemove(req, [], true),
  },
};

/**
 * Replaces a shorthand in a literal list by the names it stands for (those the list may hold).
 * A preferred fix never grants a tool: when nothing can be expanded, only an entry of
 * `undeferred_tools` is removed by default (removing a denial is left to the author).
 */
function expandOrRemove(req: PolytokenFix): FixPlan[] {
  const node = req.node;
  if (!node || !isString(node)) return [];
  const list = node.parent?.property?.key;
  const names = expandMeaning(toolMeaning(node.value, req.ctx.catalog), req.ctx.catalog) ?? [];
  const listed = new Set(stringItems(node.parent).map((i) => i.value));
  // A name the other list holds would conflict (denied and undeferred at once): left out.
  const other = list === 'tools_deny' ? 'undeferred_tools' : 'tools_deny';
  const conflicting = new Set(req.ctx.model.entries[other].map((e) => e.text));
  const literal = names.filter(
    (n) =>
      !listed.has(n) &&
      !conflicting.has(n) &&
      n !== 'switch_facet' &&
      (list === 'tools_deny' ? !POLYTOKEN_UNDENIABLE.has(n) : n !== 'exit_tool'),
  );
  const fixes: FixPlan[] = [];
  if (literal.length) {
    fixes.push({
      title: `Expand \`${node.value}\` into ${literal.length} tool name${literal.length === 1 ? '' : 's'}`,
      edits: [replaceItemWithManyEdit(req.ctx, node, literal)],
      preferred: true,
    });
  }
  // Removing a denial would widen what the definition may do: only the undeferred list's entry goes by default.
  return withRemove(req, fixes, !literal.length && list === 'undeferred_tools');
}

function withRemove(req: PolytokenFix, fixes: FixPlan[], preferred: boolean): FixPlan[] {
  const remove = removeFix(req, req.node, preferred);
  return remove ? [...fixes, remove] : fixes;
}
