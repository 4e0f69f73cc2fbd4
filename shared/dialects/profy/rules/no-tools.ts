import type { ProfyRule } from '../util';
import { findingOn } from '../../common';
import { isArray } from '../../../text/tree';
import { RESERVED_NAMES } from '../constants';
import { SKIPPED } from '../model';
import { atOpening, nameList } from './util';

/**
 * `profy/no-tools`: no tool remains after the three passes (an omitted `tools` is an empty
 * list). With an unknown toolset it fires only when no entry could resolve at all (none,
 * or only reserved names, empty strings and non-strings). A `tools` that is not a list is
 * `profy/tools-not-array`'s. Range: the `tools` value, or the subagent's opening `{`.
 */
export const noTools: ProfyRule = {
  ids: ['profy/no-tools'],
  check(ctx) {
    const model = ctx.model;
    const grantable = model.toolset.tools.filter((t) => !RESERVED_NAMES.has(t));
    const hint = !model.toolset.known
      ? 'list at least one tool the main agent has'
      : grantable.length
        ? `list at least one tool the main agent has: ${nameList(grantable)}`
        : "the main agent's toolset itself is empty, so give the Expert the tools first";
    return model.subagents
      .filter((s) => s.isObject && s.noTools && !s.toolsNotArray)
      .map((s) => {
        const value = s.toolsProp?.value;
        if (!isArray(value))
          return atOpening(
            ctx,
            'profy/no-tools',
            s.node,
            `This subagent has no \`tools\`, which counts as an empty allowlist, so no tool resolves and ${SKIPPED}; ${hint}.`,
          );
        const what = !value.items.length
          ? '`tools` is empty'
          : model.toolset.known
            ? "no entry of `tools` resolves to a tool of the main agent's toolset"
            : 'no entry of `tools` can resolve to a tool (reserved names and non-names never do)';
        return findingOn(ctx, 'profy/no-tools', value, `${capitalize(what)}, so ${SKIPPED}; ${hint}.`);
      });
  },
};

function capitalize(s: string): string {
  // Stryker disable next-line MethodExpression: of the three phrases, the one opening with a code span ends with a letter
  return s.startsWith('`') ? s : s[0].toUpperCase() + s.slice(1);
}
