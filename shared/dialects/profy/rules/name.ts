import type { Rule } from '../../../engine';
import type { Finding } from '../../../types';
import { expertModel, sanitizedName, SKIPPED } from '../model';
import { at, code, joinWords } from './util';

/**
 * `profy/invalid-name`: white space or one of `"` `<` `>` `&` `'` in `name`. Range: the name
 * value. `data.replacement` (JSON text, quotes included) is the name with those characters
 * turned into `_`, when that leaves a usable name.
 */
export const invalidName: Rule = {
  ids: ['profy/invalid-name'],
  check(ctx) {
    const out: Finding[] = [];
    const { subagents } = expertModel(ctx);
    for (const s of subagents) {
      if (!s.nameNode || !s.badNameChars.length) continue;
      const fixed = sanitizedName(s.name!);
      const usable = fixed !== '' && !subagents.some((o) => o.name === fixed);
      out.push(
        at(
          ctx,
          'profy/invalid-name',
          s.nameNode,
          `The name ${code(s.name!)} contains ${joinWords(s.badNameChars)}, so ${SKIPPED}; ${usable ? `use ${code(fixed)} instead` : 'use letters, digits, `_` and `-` only'}.`,
          usable ? { replacement: JSON.stringify(fixed) } : undefined,
        ),
      );
    }
    return out;
  },
};

/** `profy/reserved-name`: the name is one of the seven reserved tool names. Range: the name value. */
export const reservedName: Rule = {
  ids: ['profy/reserved-name'],
  check(ctx) {
    return expertModel(ctx)
      .subagents.filter((s) => s.nameNode && s.reservedName)
      .map((s) =>
        at(ctx, 'profy/reserved-name', s.nameNode!, `${code(s.name!)} is one of Profy's reserved names, so ${SKIPPED}; choose a name of its own, such as ${code(`${s.name!.toLowerCase()}_helper`)}.`),
      );
  },
};
