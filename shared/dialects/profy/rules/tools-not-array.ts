import type { Rule } from '../../../engine';
import { isString } from '../../../text/tree';
import { expertModel, kindWord, SKIPPED } from '../model';
import { at } from './util';

/**
 * `profy/tools-not-array`: a subagent's `tools` is present but not a list. Range: the value.
 * For a single string, `data.replacement` wraps it in a list.
 */
export const toolsNotArray: Rule = {
  ids: ['profy/tools-not-array'],
  check(ctx) {
    return expertModel(ctx)
      .subagents.filter((s) => s.toolsNotArray && s.toolsProp)
      .map((s) => {
        const value = s.toolsProp!.value;
        const wrap = isString(value) && value.value !== '' ? JSON.stringify([value.value]) : undefined;
        return at(
          ctx,
          'profy/tools-not-array',
          value,
          `\`tools\` is ${kindWord(value)}, not a list, so ${SKIPPED}; write it as a list of tool names${wrap ? `, such as ${wrap}` : ''}.`,
          wrap ? { replacement: wrap } : undefined,
        );
      });
  },
};
