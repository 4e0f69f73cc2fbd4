import type { Rule } from '../../../engine';
import type { Finding } from '../../../types';
import { isArray } from '../../../text/tree';
import { at, definitionOf, inheritsTools, isShorthand, isTagRef, polyList, polyProperty } from '../util';

/** polytoken/deny-undeferred-conflict and polytoken/undeferred-not-granted. */
export const undeferredRule: Rule = {
  ids: ['polytoken/deny-undeferred-conflict', 'polytoken/undeferred-not-granted'],
  check(ctx) {
    const def = definitionOf(ctx);
    const out: Finding[] = [];
    const deny = polyList(def, 'tools_deny').filter((e) => !isTagRef(e.value));
    const undeferred = polyList(def, 'undeferred_tools').filter((e) => !isTagRef(e.value));
    const twins = [
      { entries: deny, verb: 'denied', other: 'undeferred_tools', otherValues: new Set(undeferred.map((e) => e.value)) },
      { entries: undeferred, verb: 'undeferred', other: 'tools_deny', otherValues: new Set(deny.map((e) => e.value)) },
    ];
    for (const { entries, verb, other, otherValues } of twins) {
      for (const { value, node } of entries) {
        if (!otherValues.has(value)) continue;
        out.push(
          at(
            ctx,
            'polytoken/deny-undeferred-conflict',
            node,
            `\`${value}\` is ${verb} here and also listed in \`${other}\`, and Polytoken rejects a definition that does both; remove it from one of the two lists.`,
            { removable: true, other },
          ),
        );
      }
    }

    // undeferred-not-granted: only when neither inherit_tools nor a shorthand can grant more.
    if (!def?.poly || inheritsTools(def)) return out;
    const toolsNode = polyProperty(def, 'tools')?.value;
    // A `tools` of the wrong type is polytoken/invalid-value's; guessing its content would only add noise.
    if (toolsNode && !isArray(toolsNode) && toolsNode.kind !== 'null') return out;
    const servers = [...ctx.catalog.servers.keys()];
    const tools = polyList(def, 'tools').map((e) => e.value);
    if (tools.some((t) => isShorthand(t, servers))) return out;
    const granted = new Set(tools);
    for (const { value, node } of undeferred) {
      if (granted.has(value) || value === 'switch_facet') continue;
      const fix =
        value === 'exit_tool'
          ? '`exit_tool` may not be listed in `tools`, so remove it from `undeferred_tools`'
          : `add \`${value}\` to \`tools\`, or remove it from \`undeferred_tools\``;
      out.push(
        at(
          ctx,
          'polytoken/undeferred-not-granted',
          node,
          `\`${value}\` is undeferred but \`tools\` does not grant it, and without \`inherit_tools: true\` or a shorthand in \`tools\` Polytoken rejects such a definition; ${fix}.`,
          { removable: true, ...(value === 'exit_tool' ? {} : { addTo: 'tools' }) },
        ),
      );
    }
    return out;
  },
};
