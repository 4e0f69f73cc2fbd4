import type { FixPlan } from '../../../types';
import { getProperty } from '../../../text/tree';
import { insertJsonPropertyEdit, rangeOf } from '../../../fixes/edits';
import { EXPERT_KEYS, SUBAGENT_KEYS } from '../constants';
import type { ProfyFix } from '../util';
import { suggestKey } from './unknown-key';

const PLACEHOLDERS: Record<string, string> = {
  name: 'new_subagent',
  description: 'When the main agent should dispatch work here.',
  system_prompt: 'What this subagent does and what it returns.',
};

/**
 * `profy/missing-field`: a field written under another spelling (`systemPrompt`) is renamed,
 * the same edit the unknown-key fix makes. A placeholder is offered too, never preferred: a
 * made-up prompt would make the runtime load a subagent nobody wrote.
 */
export function missingFieldFixes(req: ProfyFix): FixPlan[] {
  const field = typeof req.data.field === 'string' ? req.data.field : undefined;
  const node = req.node;
  if (!field || !node) return [];
  if (node.kind === 'object' && !getProperty(node, field)) {
    const misspelled = (node.properties ?? []).find((p) => {
      // A key of either kind is not a misspelling. No key of theirs is near a missing field (the field is missing, and
      // the Expert's own keys are far from the three required ones), so this only says what the next line implies.
      // Stryker disable next-line ConditionalExpression,LogicalOperator,BooleanLiteral: see above
      if ((SUBAGENT_KEYS as readonly string[]).includes(p.key) || (EXPERT_KEYS as readonly string[]).includes(p.key))
        return false;
      return suggestKey(p.key, SUBAGENT_KEYS) === field;
    });
    if (misspelled) {
      return [
        {
          title: `Rename to \`${field}\``,
          edits: [
            {
              range: rangeOf(req.ctx, misspelled.keyNode.start, misspelled.keyNode.end),
              newText: JSON.stringify(field),
            },
          ],
          preferred: true,
        },
      ];
    }
    return [
      {
        title: `Add \`${field}\` (a placeholder to fill in)`,
        edits: [insertJsonPropertyEdit(req.ctx, node, field, JSON.stringify(PLACEHOLDERS[field] ?? field))],
      },
    ];
  }
  // Stryker disable next-line ConditionalExpression: the finding is on the object (the field is absent) or on the field's value
  if (node.property?.key === field)
    return [
      {
        title: `Set \`${field}\` to a placeholder`,
        edits: [
          { range: rangeOf(req.ctx, node.start, node.end), newText: JSON.stringify(PLACEHOLDERS[field] ?? field) },
        ],
      },
    ];
  return [];
}
