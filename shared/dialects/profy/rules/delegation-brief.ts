import type { ProfyRule } from '../util';
import { findingOn, findingOnFirstLine } from '../../common';
import { getProperty } from '../../../text/tree';

/**
 * `profy/missing-delegation-brief`: the Expert is delegatable (`delegatable` is anything but
 * `false`; it defaults to true) and `delegationBrief` is absent, null or "". Range: the
 * `delegationBrief` value when the key is there but empty; otherwise the first line, as a
 * missing top-level key is a file-level problem. Nothing is reported for a root that is not
 * an object.
 */
export const missingDelegationBrief: ProfyRule = {
  ids: ['profy/missing-delegation-brief'],
  check(ctx) {
    const expert = ctx.model.expert;
    if (!expert) return [];
    const delegatable = getProperty(expert, 'delegatable')?.value;
    if (delegatable?.kind === 'boolean' && delegatable.value === false) return [];
    const brief = getProperty(expert, 'delegationBrief')?.value;
    const fix =
      "add a `delegationBrief` for other Experts' models that says what this Expert accepts and what it produces (or set `delegatable` to false)";
    if (!brief) {
      return [
        findingOnFirstLine(
          ctx,
          'profy/missing-delegation-brief',
          `This Expert can be delegated to but has no \`delegationBrief\`, so other Experts' models judge it by \`description\`, which is written for people on the marketplace; ${fix}.`,
        ),
      ];
    }
    // Stryker disable next-line ConditionalExpression: only a string's value can be ''
    if (brief.kind === 'null' || (brief.kind === 'string' && brief.value === '')) {
      return [
        findingOn(
          ctx,
          'profy/missing-delegation-brief',
          brief,
          `\`delegationBrief\` is empty, so other Experts' models have no brief written for them and judge this Expert by \`description\`, which is meant for people, at best; ${fix}.`,
        ),
      ];
    }
    return [];
  },
};
