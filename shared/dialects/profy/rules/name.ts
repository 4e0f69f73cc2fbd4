import type { ProfyRule } from '../util';
import { standardFixes } from '../../../fixes/plans';
import { findingOn, quote } from '../../common';
import type { Finding } from '../../../types';
import { sanitizedName, SKIPPED } from '../model';
import { joinWords } from './util';

/**
 * `profy/invalid-name`: white space or one of `"` `<` `>` `&` `'` in `name`. Range: the name
 * value. `data.replacement` (JSON text, quotes included) is the name with those characters
 * turned into `_`, when that leaves a usable name.
 */
export const invalidName: ProfyRule = {
  ids: ['profy/invalid-name'],
  check(ctx) {
    const out: Finding[] = [];
    const { subagents } = ctx.model;
    for (const s of subagents) {
      if (!s.nameNode || !s.badNameChars.length) continue;
      const fixed = sanitizedName(s.name!);
      const usable = fixed !== '' && !subagents.some((o) => o.name === fixed);
      out.push(
        findingOn(
          ctx,
          'profy/invalid-name',
          s.nameNode,
          `The name ${quote(s.name!)} contains ${joinWords(s.badNameChars)}, so ${SKIPPED}; ${usable ? `use ${quote(fixed)} instead` : 'use letters, digits, `_` and `-` only'}.`,
          usable ? { replacement: JSON.stringify(fixed) } : undefined,
        ),
      );
    }
    return out;
  },
  fixes: { 'profy/invalid-name': (req) => standardFixes(req) },
};

/** `profy/reserved-name`: the name is one of the seven reserved tool names. Range: the name value. */
export const reservedName: ProfyRule = {
  ids: ['profy/reserved-name'],
  check(ctx) {
    return ctx.model
      .subagents.filter((s) => s.nameNode && s.reservedName)
      .map((s) =>
        findingOn(ctx, 'profy/reserved-name', s.nameNode!, `${quote(s.name!)} is one of Profy's reserved names, so ${SKIPPED}; choose a name of its own, such as ${quote(`${s.name!.toLowerCase()}_helper`)}.`),
      );
  },
};
