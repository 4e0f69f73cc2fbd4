import type { Rule } from '../../../engine';
import { expertModel, kindWord, SKIPPED } from '../model';
import { at } from './util';

/** `profy/not-an-object`: a `subagents` entry that is not an object. Range: the entry. */
export const notAnObject: Rule = {
  ids: ['profy/not-an-object'],
  check(ctx) {
    return expertModel(ctx)
      .subagents.filter((s) => !s.isObject)
      .map((s) =>
        at(
          ctx,
          'profy/not-an-object',
          s.node,
          `This \`subagents\` entry is ${kindWord(s.node)}, not an object, so ${SKIPPED}; write it as an object with \`name\`, \`description\`, \`system_prompt\` and \`tools\`.`,
          { removable: true },
        ),
      );
  },
};
