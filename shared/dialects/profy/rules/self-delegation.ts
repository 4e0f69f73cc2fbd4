import type { ProfyRule } from '../util';
import { replaceEdit, standardFixes } from '../../../fixes/plans';
import { findingOn, quote } from '../../common';
import { getProperty, isArray, isString } from '../../../text/tree';

/**
 * `profy/self-delegation`: `delegationPolicy` names the Expert itself. The runtime always
 * leaves the current Expert out of its roster, so the entry has no effect. Warning on each
 * such entry; `data.removable` (removing it changes nothing the runtime does). When it is the
 * only entry, the fix writes `"none"` instead of an empty list, which is no documented policy.
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
  fixes: {
    'profy/self-delegation': (req) => {
      // The only entry: the roster is empty either way, and `"none"` is the policy that says so (`[]` is none).
      const list = req.node?.parent;
      if (list?.kind === 'array' && list.items?.length === 1)
        return [
          {
            title: 'Change `delegationPolicy` to `"none"`',
            edits: [replaceEdit({ ...req, node: list, start: list.start, end: list.end }, '"none"')],
            preferred: true,
          },
        ];
      return standardFixes(req, { removePreferred: true });
    },
  },
};
