import type { ProfyRule } from '../util';
import { standardFixes } from '../../../fixes/plans';
import { findingOn, quote } from '../../common';
import { getProperty, isArray, isString } from '../../../text/tree';
import { DELEGATION_WHITELIST_MAX } from '../constants';

/**
 * `profy/whitelist-cap`: a `delegationPolicy` list longer than ten. One finding on each
 * entry past the tenth. `data.removable`.
 */
export const whitelistCap: ProfyRule = {
  ids: ['profy/whitelist-cap'],
  check(ctx) {
    const policy = getProperty(ctx.model.expert, 'delegationPolicy')?.value;
    if (!isArray(policy)) return [];
    return policy.items.slice(DELEGATION_WHITELIST_MAX).map((item, i) => {
      const what = isString(item) ? quote(item.value) : 'This entry';
      return findingOn(
        ctx,
        'profy/whitelist-cap',
        item,
        `${what} is entry ${DELEGATION_WHITELIST_MAX + i + 1} of \`delegationPolicy\`, but Profy puts at most ${DELEGATION_WHITELIST_MAX} whitelisted Experts in the roster and leaves out the rest; keep the ${DELEGATION_WHITELIST_MAX} that matter most (an @-mention still reaches the others).`,
        { removable: true },
      );
    });
  },
  fixes: { 'profy/whitelist-cap': (req) => standardFixes(req) },
};
