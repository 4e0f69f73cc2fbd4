import type { ProfyContext, ProfyRule, ProfyFinding } from '../util';
import { findingOn, keyRenameData, quote, unknownKeyFindings } from '../../common';
import { keyRenameFixes } from '../../../fixes/plans';
import { nearestName } from '../../../catalog/catalog';
import type { AstNode } from '../../../text/tree';
import { EXPERT_KEYS, SUBAGENT_KEYS } from '../constants';

/** Keys an Expert file may hold besides Profy's own: `$schema`, which JSON editors use. */
const EDITOR_KEYS = ['$schema'];

/**
 * `profy/unknown-key`: a key that is neither an Expert key nor (inside `subagents`) a
 * subagent key. Range: the key. `data.replacement` is the nearest known key as JSON text
 * (quotes included); `data.removable`.
 */
export const unknownKey: ProfyRule = {
  ids: ['profy/unknown-key'],
  check(ctx) {
    const model = ctx.model;
    const out: ProfyFinding[] = [];
    if (model.expert)
      for (const f of unknownKeys(
        ctx,
        model.expert,
        'Expert',
        [...EXPERT_KEYS, ...EDITOR_KEYS],
        SUBAGENT_KEYS,
        'a subagent (inside `subagents`)',
      ))
        out.push(f);
    for (const s of model.subagents) {
      // Stryker disable next-line ConditionalExpression: a subagent that is not an object has no keys
      if (s.isObject)
        for (const f of unknownKeys(
          ctx,
          s.node,
          'subagent',
          SUBAGENT_KEYS,
          EXPERT_KEYS,
          'the Expert (the top-level object)',
        ))
          out.push(f);
    }
    return out;
  },
  fixes: { 'profy/unknown-key': (req) => keyRenameFixes(req, ['tools']) },
};

function unknownKeys(
  ctx: ProfyContext,
  node: AstNode,
  what: string,
  known: readonly string[],
  elsewhere: readonly string[],
  elsewhereName: string,
): ProfyFinding[] {
  return unknownKeyFindings(
    node,
    known,
    (key) => suggestKey(key, known),
    (p, suggestion) => {
      const advice = elsewhere.includes(p.key)
        ? `it belongs to ${elsewhereName}; move it there or remove it`
        : suggestion
          ? `did you mean ${quote(suggestion)}?`
          : `the known keys are ${known
              .filter((k) => !k.startsWith('$'))
              .map((k) => `\`${k}\``)
              .join(', ')}`;
      return findingOn(
        ctx,
        'profy/unknown-key',
        p.keyNode,
        `${quote(p.key)} is not a key of a Profy ${what}, so Profy ignores it; ${advice}${advice.endsWith('?') ? '' : '.'}`,
        {
          ...keyRenameData(
            p,
            // Stryker disable next-line ConditionalExpression,LogicalOperator: no key of one object is near enough a key of the other to be suggested (test/profy-messages)
            suggestion && !elsewhere.includes(p.key) ? suggestion : undefined,
            suggestion && JSON.stringify(suggestion),
          ),
        },
      );
    },
  );
}

/**
 * The known key an unknown one most likely means: same letters ignoring case and `_`/`-`, else the nearest by edit
 * distance.
 */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  // Stryker disable next-line MethodExpression: upper case compares as lower case does
  const norm = (k: string) => k.toLowerCase().replace(/[_\-\s]/g, '');
  const same = known.find((k) => norm(k) === norm(key));
  if (same) return same;
  return nearestName(
    key,
    known.filter((k) => !k.startsWith('$')),
    key.length > 8 ? 3 : 2,
  );
}
