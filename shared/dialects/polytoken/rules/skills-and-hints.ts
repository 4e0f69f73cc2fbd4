import type { FixPlan } from '../../../types';
import { isArray } from '../../../text/tree';
import { findingOn } from '../../common';
import { removePropertyEdit, rangeOf } from '../../../fixes/edits';
import { polyProperty } from '../model';
import { readable, type PolytokenRule } from '../util';

/** polytoken/auto-facet-hint: the older spelling of `autonomous_hint`. */
export const autoFacetHintRule: PolytokenRule = {
  ids: ['polytoken/auto-facet-hint'],
  check(ctx) {
    const model = readable(ctx);
    const old = model && polyProperty(model, 'auto_facet_hint');
    if (!model || !old) return [];
    if (polyProperty(model, 'autonomous_hint')) {
      return [
        findingOn(
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
      findingOn(
        ctx,
        'polytoken/auto-facet-hint',
        old.keyNode,
        '`auto_facet_hint` is the older spelling of `autonomous_hint`; Polytoken still reads it, but rename the key to `autonomous_hint`.',
        {
          replacement: 'autonomous_hint',
        },
      ),
    ];
  },
  fixes: {
    'polytoken/auto-facet-hint': ({ ctx }) => {
      const prop = polyProperty(ctx.model, 'auto_facet_hint');
      if (!prop) return [];
      const both = !!polyProperty(ctx.model, 'autonomous_hint');
      const fixes: FixPlan[] = [];
      if (!both)
        fixes.push({
          title: 'Rename to `autonomous_hint`',
          edits: [{ range: rangeOf(ctx, prop.keyNode.start, prop.keyNode.end), newText: 'autonomous_hint' }],
          preferred: true,
        });
      fixes.push({
        title: 'Remove `auto_facet_hint`',
        edits: [removePropertyEdit(ctx, prop.keyNode)],
        preferred: both,
      });
      return fixes;
    },
  },
};

/** polytoken/empty-skills-allow: `skills_allow: []` restricts nothing. */
export const emptySkillsAllowRule: PolytokenRule = {
  ids: ['polytoken/empty-skills-allow'],
  check(ctx) {
    const model = readable(ctx);
    const value = model && polyProperty(model, 'skills_allow')?.value;
    if (!isArray(value) || value.items.length) return [];
    return [
      findingOn(
        ctx,
        'polytoken/empty-skills-allow',
        value,
        'An empty `skills_allow` restricts nothing: Polytoken lets this subagent use every skill that `skills_deny` does not exclude; list the allowed skills to restrict access, or remove the key if every skill is meant.',
      ),
    ];
  },
};
