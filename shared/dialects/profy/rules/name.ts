import type { ProfyRule, ProfyFinding } from '../util';
import { standardFixes } from '../../../fixes/plans';
import { findingOn, quote } from '../../common';
import { IDENTIFIER_LIKE } from '../constants';
import { sanitizedName, SKIPPED } from '../model';
import { joinWords } from './util';
import { profySettings } from '../settings';

/**
 * `profy/invalid-name`: white space or one of `"` `<` `>` `&` `'` in `name`. Range: the name
 * value. `data.replacement` (JSON text, quotes included) is the name with those characters
 * turned into `_`, when that leaves a usable name.
 */
export const invalidName: ProfyRule = {
  ids: ['profy/invalid-name'],
  check(ctx) {
    const out: ProfyFinding[] = [];
    const { subagents } = ctx.model;
    // A name no other subagent has, builtin ones included (the builtin would win and drop it again).
    // Stryker disable next-line ArrayDeclaration: the settings always hold a list
    const builtins = new Set<unknown>(profySettings(ctx.config).builtinSubagents ?? []);
    for (const s of subagents) {
      if (!s.nameNode || !s.badNameChars.length) continue;
      const fixed = sanitizedName(s.name!);
      const usable = fixed !== '' && !builtins.has(fixed) && !subagents.some((o) => o.name === fixed);
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
    return ctx.model.subagents
      .filter((s) => s.nameNode && s.reservedName)
      .map((s) =>
        findingOn(
          ctx,
          'profy/reserved-name',
          s.nameNode!,
          `${quote(s.name!)} is one of Profy's reserved names, so ${SKIPPED}; choose a name of its own, such as ${quote(`${s.name!.toLowerCase()}_helper`)}.`,
        ),
      );
  },
};

/** The name made identifier-like: every other character becomes `_`, and a leading digit gets `_` before it. */
function identifierName(name: string): string {
  const out = name
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_(?=[A-Za-z])/, '')
    .replace(/_$/, '');
  return /^[0-9]/.test(out) ? `_${out}` : out;
}

/**
 * `profy/name-not-identifier`: a name that loads (no white space, no forbidden character, not
 * reserved) but is not identifier-like, as the document asks: the main agent passes it as an
 * argument. Information. `data.replacement` (JSON text) is an identifier-like name no other
 * subagent has; the fix is offered, never preferred (prompts may refer to the name).
 */
export const nameNotIdentifier: ProfyRule = {
  ids: ['profy/name-not-identifier'],
  check(ctx) {
    const { subagents } = ctx.model;
    const taken = new Set(subagents.map((s) => s.name));
    return subagents
      .filter((s) => s.nameNode && !s.badNameChars.length && !s.reservedName && !IDENTIFIER_LIKE.test(s.name!))
      .map((s) => {
        const fixed = identifierName(s.name!);
        const usable = IDENTIFIER_LIKE.test(fixed) && !taken.has(fixed);
        return findingOn(
          ctx,
          'profy/name-not-identifier',
          s.nameNode!,
          `The name ${quote(s.name!)} is not identifier-like (letters, digits and \`_\`, not starting with a digit), and the main agent passes it as an argument when it dispatches; ${usable ? `consider ${quote(fixed)}` : 'consider letters, digits and `_` only'}.`,
          usable ? { replacement: JSON.stringify(fixed) } : undefined,
        );
      });
  },
  fixes: { 'profy/name-not-identifier': (req) => standardFixes(req).map((f) => ({ ...f, preferred: false })) },
};
