import type { Rule } from '../../../engine';
import { getProperty, isArray, isString } from '../../../text/tree';
import { DELEGATION_WHITELIST_MAX } from '../constants';
import { expertModel } from '../model';
import { at, code } from './util';

/**
 * `profy/whitelist-cap`: a `delegationPolicy` list longer than ten. One finding on each
 * entry past the tenth. `data.removable`.
 */
export const whitelistCap: Rule = {
  ids: ['profy/whitelist-cap'],
  check(ctx) {
    const policy = getProperty(expertModel(ctx).expert, 'delegationPolicy')?.value;
    if (!isArray(policy) || policy.items.length <= DELEGATION_WHITELIST_MAX) return [];
    return policy.items.slice(DELEGATION_WHITELIST_MAX).map((item, i) => {
      const what = isString(item) ? code(item.value) : 'This entry';
      return at(
        ctx,
        'profy/whitelist-cap',
        item,
        `${what} is entry ${DELEGATION_WHITELIST_MAX + i + 1} of \`delegationPolicy\`, but Profy puts at most ${DELEGATION_WHITELIST_MAX} whitelisted Experts in the roster and leaves out the rest; keep the ${DELEGATION_WHITELIST_MAX} that matter most (an @-mention still reaches the others).`,
        { removable: true },
      );
    });
  },
};
