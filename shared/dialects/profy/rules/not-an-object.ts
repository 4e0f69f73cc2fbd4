import type { ProfyRule } from '../util';
import { standardFixes } from '../../../fixes/plans';
import { findingOn } from '../../common';
import { kindWord, SKIPPED } from '../model';

/** `profy/not-an-object`: a `subagents` entry that is not an object. Range: the entry. */
export const notAnObject: ProfyRule = {
  ids: ['profy/not-an-object'],
  check(ctx) {
    return ctx.model.subagents
      .filter((s) => !s.isObject)
      .map((s) =>
        findingOn(
          ctx,
          'profy/not-an-object',
          s.node,
          `This \`subagents\` entry is ${kindWord(s.node)}, not an object, so ${SKIPPED}; write it as an object with \`name\`, \`description\`, \`system_prompt\` and \`tools\`.`,
          { removable: true },
        ),
      );
  },
  fixes: { 'profy/not-an-object': (req) => standardFixes(req) },
};
