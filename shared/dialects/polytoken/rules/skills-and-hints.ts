import type { Rule } from '../../../engine';
import { isArray } from '../../../text/tree';
import { at, definitionOf, polyProperty } from '../util';

/** polytoken/auto-facet-hint: the older spelling of `autonomous_hint`. */
export const autoFacetHintRule: Rule = {
  ids: ['polytoken/auto-facet-hint'],
  check(ctx) {
    const def = definitionOf(ctx);
    const old = polyProperty(def, 'auto_facet_hint');
    if (!old) return [];
    if (polyProperty(def, 'autonomous_hint')) {
      return [
        at(
          ctx,
          'polytoken/auto-facet-hint',
          old.keyNode,
          '`auto_facet_hint` is ignored because `autonomous_hint` is also set, and Polytoken passes only `autonomous_hint` to the permissions classifier; remove `auto_facet_hint` (move anything you still need into `autonomous_hint`).',
          { removable: true },
          'warning',
        ),
      ];
    }
    return [
      at(
        ctx,
        'polytoken/auto-facet-hint',
        old.keyNode,
        '`auto_facet_hint` is the older spelling of `autonomous_hint`; Polytoken still reads it, but rename the key to `autonomous_hint`.',
        { replacement: 'autonomous_hint' },
      ),
    ];
  },
};

/** polytoken/empty-skills-allow: `skills_allow: []` restricts nothing. */
export const emptySkillsAllowRule: Rule = {
  ids: ['polytoken/empty-skills-allow'],
  check(ctx) {
    const value = polyProperty(definitionOf(ctx), 'skills_allow')?.value;
    if (!isArray(value) || value.items.length) return [];
    return [
      at(
        ctx,
        'polytoken/empty-skills-allow',
        value,
        'An empty `skills_allow` restricts nothing: Polytoken lets this subagent use every skill that `skills_deny` does not exclude; list the allowed skills to restrict access, or remove the key if every skill is meant.',
      ),
    ];
  },
};
