import { findingOn } from '../../common';
import { standardFixes } from '../../../fixes/plans';
import { readable, type PolytokenRule, type PolytokenFinding } from '../util';

/** polytoken/exit-tool-listed and polytoken/switch-facet: tools the runtime never lets a definition list. */
export const grantsRule: PolytokenRule = {
  ids: ['polytoken/exit-tool-listed', 'polytoken/switch-facet'],
  check(ctx) {
    const model = readable(ctx);
    if (!model) return [];
    const out: PolytokenFinding[] = [];
    for (const e of model.entries.tools) {
      if (e.text !== 'exit_tool') continue;
      out.push(
        findingOn(
          ctx,
          'polytoken/exit-tool-listed',
          e.node,
          'Polytoken registers `exit_tool` for every subagent on its own and rejects a definition that lists it in `tools`; remove this entry.',
          {
            removable: true,
          },
        ),
      );
    }
    for (const list of ['tools', 'undeferred_tools'] as const) {
      for (const e of model.entries[list]) {
        if (e.text !== 'switch_facet') continue;
        out.push(
          findingOn(
            ctx,
            'polytoken/switch-facet',
            e.node,
            `A subagent's facet is fixed for its whole run, so Polytoken rejects a definition that lists \`switch_facet\` in \`${list}\`; remove this entry (facet switching stays in the main session).`,
            { removable: true },
          ),
        );
      }
    }
    return out;
  },
  fixes: {
    'polytoken/exit-tool-listed': (req) => standardFixes(req, { removePreferred: true }),
    'polytoken/switch-facet': (req) => standardFixes(req, { removePreferred: true }),
  },
};
