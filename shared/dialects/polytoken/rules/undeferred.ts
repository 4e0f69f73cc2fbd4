import type { FixPlan } from '../../../types';
import { findingOn } from '../../common';
import { removeFix } from '../../../fixes/plans';
import { appendToListEdit } from '../../../fixes/edits';
import { isString, stringItems, nodeAtPath } from '../../../text/tree';
import { readable, type PolytokenFix, type PolytokenRule, type PolytokenFinding } from '../util';

/** polytoken/deny-undeferred-conflict and polytoken/undeferred-not-granted. */
export const undeferredRule: PolytokenRule = {
  ids: ['polytoken/deny-undeferred-conflict', 'polytoken/undeferred-not-granted'],
  check(ctx) {
    const model = readable(ctx);
    if (!model) return [];
    const out: PolytokenFinding[] = [];
    const literal = (list: 'tools_deny' | 'undeferred_tools') =>
      model.entries[list].filter((e) => e.meaning.kind === 'name' || e.meaning.kind === 'server');
    const deny = literal('tools_deny');
    const undeferred = literal('undeferred_tools');
    const twins = [
      { entries: deny, verb: 'denied', other: 'undeferred_tools', otherValues: new Set(undeferred.map((e) => e.text)) },
      { entries: undeferred, verb: 'undeferred', other: 'tools_deny', otherValues: new Set(deny.map((e) => e.text)) },
    ];
    for (const { entries, verb, other, otherValues } of twins) {
      for (const e of entries) {
        if (!otherValues.has(e.text)) continue;
        out.push(
          findingOn(
            ctx,
            'polytoken/deny-undeferred-conflict',
            e.node,
            `\`${e.text}\` is ${verb} here and also listed in \`${other}\`, and Polytoken rejects a definition that does both; remove it from one of the two lists.`,
          ),
        );
      }
    }

    // undeferred-not-granted: only when neither inherit_tools nor a shorthand can grant more.
    if (!model.literalGrantsOnly) return out;
    const granted = new Set(model.entries.tools.map((e) => e.text));
    for (const e of undeferred) {
      if (granted.has(e.text) || e.text === 'switch_facet') continue;
      const fix =
        e.text === 'exit_tool'
          ? '`exit_tool` may not be listed in `tools`, so remove it from `undeferred_tools`'
          : `add \`${e.text}\` to \`tools\`, or remove it from \`undeferred_tools\``;
      out.push(
        findingOn(
          ctx,
          'polytoken/undeferred-not-granted',
          e.node,
          `\`${e.text}\` is undeferred but \`tools\` does not grant it, and without \`inherit_tools: true\` or a shorthand in \`tools\` Polytoken rejects such a definition; ${fix}.`,
          e.text === 'exit_tool' ? undefined : { addTo: 'tools' },
        ),
      );
    }
    return out;
  },
  fixes: {
    // Keep the denial: the undeferred entry goes (a preferred fix never widens what a definition may do).
    'polytoken/deny-undeferred-conflict': (req) => {
      if (!req.node || !isString(req.node)) return [];
      const tool = req.node.value;
      const fixes: FixPlan[] = [];
      for (const list of ['undeferred_tools', 'tools_deny'] as const) {
        const item = stringItems(nodeAtPath(req.ctx.model.root, ['polytoken', list])).find((i) => i.value === tool);
        const remove = item && removeFix(req, item.node, list === 'undeferred_tools');
        if (remove) fixes.push({ ...remove, title: `Remove \`${tool}\` from \`${list}\`` });
      }
      return fixes;
    },
    // Removing the undeferred entry is preferred; adding the tool to `tools` would grant it, which only the author
    // decides.
    'polytoken/undeferred-not-granted': (req) => undeferredFixes(req),
  },
};

function undeferredFixes(req: PolytokenFix): FixPlan[] {
  const node = req.node;
  if (!node || !isString(node)) return [];
  const fixes: FixPlan[] = [];
  const remove = removeFix(req, node, true);
  if (remove) fixes.push({ ...remove, title: `Remove \`${node.value}\` from \`undeferred_tools\`` });
  const add =
    req.data.addTo === 'tools' ? appendToListEdit(req.ctx, req.ctx.model.poly, 'tools', node.value) : undefined;
  if (add) fixes.push({ title: `Add \`${node.value}\` to \`tools\``, edits: [add] });
  return fixes;
}
