import type { Rule } from '../../../engine';
import type { Finding } from '../../../types';
import { at, definitionOf, polyList } from '../util';

/** polytoken/exit-tool-listed and polytoken/switch-facet. */
export const grantsRule: Rule = {
  ids: ['polytoken/exit-tool-listed', 'polytoken/switch-facet'],
  check(ctx) {
    const def = definitionOf(ctx);
    const out: Finding[] = [];
    for (const { value, node } of polyList(def, 'tools')) {
      if (value === 'exit_tool') {
        out.push(
          at(
            ctx,
            'polytoken/exit-tool-listed',
            node,
            'Polytoken registers `exit_tool` for every subagent on its own and rejects a definition that lists it in `tools`; remove this entry.',
            { removable: true },
          ),
        );
      }
    }
    for (const key of ['tools', 'undeferred_tools'] as const) {
      for (const { value, node } of polyList(def, key)) {
        if (value !== 'switch_facet') continue;
        out.push(
          at(
            ctx,
            'polytoken/switch-facet',
            node,
            `A subagent's facet is fixed for its whole run, so Polytoken rejects a definition that lists \`switch_facet\` in \`${key}\`; remove this entry (facet switching stays in the main session).`,
            { removable: true },
          ),
        );
      }
    }
    return out;
  },
};
