import type { Rule, RuleContext } from '../../../engine';
import { nearestName } from '../../../catalog/catalog';
import type { AstNode } from '../../../text/tree';
import type { Finding } from '../../../types';
import { unknownKeyFindings } from '../../common';
import { EXPERT_KEYS, SUBAGENT_KEYS } from '../constants';
import { expertModel } from '../model';
import { at, code } from './util';

/** Keys an Expert file may hold besides Profy's own: `$schema`, which JSON editors use. */
const EDITOR_KEYS = ['$schema'];

/**
 * `profy/unknown-key`: a key that is neither an Expert key nor (inside `subagents`) a
 * subagent key. Range: the key. `data.replacement` is the nearest known key as JSON text
 * (quotes included); `data.removable`.
 */
export const unknownKey: Rule = {
  ids: ['profy/unknown-key'],
  check(ctx) {
    const model = expertModel(ctx);
    const out: Finding[] = [];
    if (model.expert) for (const f of unknownKeys(ctx, model.expert, 'Expert', [...EXPERT_KEYS, ...EDITOR_KEYS], SUBAGENT_KEYS, 'a subagent (inside `subagents`)')) out.push(f);
    for (const s of model.subagents) {
      if (s.isObject) for (const f of unknownKeys(ctx, s.node, 'subagent', SUBAGENT_KEYS, EXPERT_KEYS, 'the Expert (the top-level object)')) out.push(f);
    }
    return out;
  },
};

function unknownKeys(ctx: RuleContext, node: AstNode, what: string, known: readonly string[], elsewhere: readonly string[], elsewhereName: string): Finding[] {
  return unknownKeyFindings(node, known, (key) => suggestKey(key, known), (p, suggestion) => {
    const advice = elsewhere.includes(p.key)
      ? `it belongs to ${elsewhereName}; move it there or remove it`
      : suggestion
        ? `did you mean ${code(suggestion)}?`
        : `the known keys are ${known.filter((k) => !k.startsWith('$')).map((k) => `\`${k}\``).join(', ')}`;
    return at(ctx, 'profy/unknown-key', p.keyNode, `${code(p.key)} is not a key of a Profy ${what}, so Profy ignores it; ${advice}${advice.endsWith('?') ? '' : '.'}`, {
      removable: true,
      ...(suggestion && !elsewhere.includes(p.key) ? { replacement: JSON.stringify(suggestion) } : {}),
    });
  });
}

/** The known key an unknown one most likely means: same letters ignoring case and `_`/`-`, else the nearest by edit distance. */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  const norm = (k: string) => k.toLowerCase().replace(/[_\-\s]/g, '');
  const same = known.find((k) => norm(k) === norm(key));
  if (same) return same;
  return nearestName(key, known.filter((k) => !k.startsWith('$')), key.length > 8 ? 3 : 2);
}
