import type { ProfyRule } from '../util';
import { standardFixes } from '../../../fixes/plans';
import { findingOn } from '../../common';
import { isString } from '../../../text/tree';
import { kindWord, SKIPPED } from '../model';

/**
 * `profy/tools-not-array`: a subagent's `tools` is present but not a list. Range: the value.
 * For a single string, `data.replacement` wraps it in a list.
 */
export const toolsNotArray: ProfyRule = {
  ids: ['profy/tools-not-array'],
  check(ctx) {
    return ctx.model.subagents
      .filter((s) => s.toolsNotArray && s.toolsProp)
      .map((s) => {
        const value = s.toolsProp!.value;
        const wrap = isString(value) && value.value !== '' ? JSON.stringify([value.value]) : undefined;
        return findingOn(
          ctx,
          'profy/tools-not-array',
          value,
          `\`tools\` is ${kindWord(value)}, not a list, so ${SKIPPED}; write it as a list of tool names${wrap ? `, such as ${wrap}` : ''}.`,
          wrap ? { replacement: wrap } : undefined,
        );
      });
  },
  fixes: { 'profy/tools-not-array': (req) => standardFixes(req) },
};
