import type { ProfyRule } from '../util';
import { standardFixes } from '../../../fixes/plans';
import { findingOn, quote } from '../../common';
import { getProperty, isArray, isString } from '../../../text/tree';

/**
 * `profy/self-delegation`: `delegationPolicy` names the Expert itself. The runtime always
 * leaves the current Expert out of its roster, so the entry has no effect. Warning on each
 * such entry; `data.removable` (removing it changes nothing the runtime does).
 */
export const selfDelegation: ProfyRule = {
  ids: ['profy/self-delegation'],
  check(ctx) {
    const expert = ctx.model.expert;
    const name = getProperty(expert, 'name')?.value;
    const policy = getProperty(expert, 'delegationPolicy')?.value;
    if (!isString(name) || !name.value || !isArray(policy)) return [];
    return policy.items
      .filter((item) => isString(item) && item.value === name.value)
      .map((item) =>
        findingOn(
          ctx,
          'profy/self-delegation',
          item,
          `${quote(name.value)} is this Expert's own name, and Profy always leaves the current Expert out of its delegation roster, so this entry has no effect; remove it.`,
          { removable: true },
        ),
      );
  },
  fixes: { 'profy/self-delegation': (req) => standardFixes(req, { removePreferred: true }) },
};
