import type { ProfyRule, ProfyFinding } from '../util';
import { missingFieldFixes } from './missing-field-fixes';
import { findingOn } from '../../common';
import { kindWord, SKIPPED } from '../model';
import { atOpening } from './util';

/**
 * `profy/missing-field`: `name`, `description` or `system_prompt` is absent, empty or not a
 * string. One finding per field: on its value, or on the subagent's opening `{` when absent.
 * `data.field` names the field.
 */
export const missingField: ProfyRule = {
  ids: ['profy/missing-field'],
  check(ctx) {
    const out: ProfyFinding[] = [];
    for (const s of ctx.model.subagents) {
      for (const p of s.fieldProblems) {
        const data = { field: p.field };
        if (!p.node) {
          out.push(
            atOpening(
              ctx,
              'profy/missing-field',
              s.node,
              `This subagent has no \`${p.field}\`, so ${SKIPPED}; add \`${p.field}\` as a non-empty string.`,
              data,
            ),
          );
        } else if (p.why === 'empty') {
          out.push(
            findingOn(ctx, 'profy/missing-field', p.node, `\`${p.field}\` is empty, so ${SKIPPED}; fill it in.`, data),
          );
        } else {
          out.push(
            findingOn(
              ctx,
              'profy/missing-field',
              p.node,
              `\`${p.field}\` is ${kindWord(p.node)}, not a string, so ${SKIPPED}; write it as a non-empty string.`,
              data,
            ),
          );
        }
      }
    }
    return out;
  },
  fixes: { 'profy/missing-field': (req) => missingFieldFixes(req) },
};
