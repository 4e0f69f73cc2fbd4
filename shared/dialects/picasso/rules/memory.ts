import { nearestName } from '../../../catalog/catalog';
import { getProperty } from '../../../text/tree';
import { findingOn, quote } from '../../common';
import { normalizingFixes } from '../../../fixes/plans';
import { MEMORY_SCOPES } from '../constants';
import { kindName, type PicassoRule } from '../util';

/** The scope written with other case or separators (`Read_Only`), when it is one. */
function sameScope(value: string): string | undefined {
  const lower = value.trim().toLowerCase();
  // Stryker disable next-line ConditionalExpression: the second test holds too when the first does (one `-` a scope at most)
  return MEMORY_SCOPES.find((s) => s === lower || s.replace('-', '') === lower.replace(/[-_ ]/g, ''));
}

/** The scope an author most likely meant, for the quick fix. */
export function nearestScope(value: string): string | undefined {
  return sameScope(value) ?? nearestName(value.trim().toLowerCase(), MEMORY_SCOPES, 3);
}

/** picasso/invalid-memory: `memory` is not one of the three scopes. */
export const invalidMemory: PicassoRule = {
  ids: ['picasso/invalid-memory'],
  check(ctx) {
    const root = ctx.model.root;
    const property = getProperty(root, 'memory');
    if (!property) return [];
    const node = property.value;
    // Stryker disable next-line ConditionalExpression: no other kind of value prints as a scope
    if (node.kind === 'string' && (MEMORY_SCOPES as readonly string[]).includes(String(node.value))) return [];
    const replacement = node.kind === 'string' ? nearestScope(String(node.value)) : undefined;
    const what = node.kind === 'string' ? quote(String(node.value)) : kindName(node.kind);
    return [
      findingOn(
        ctx,
        'picasso/invalid-memory',
        node,
        `\`memory\` is ${what}, but Picasso only knows the scopes \`none\`, \`read-only\` and \`session\`, so it cannot scope the role's memory; ${replacement ? `did you mean \`${replacement}\`?` : 'use one of them.'}`,
        replacement
          ? { replacement, normalized: sameScope(String(node.value)) !== undefined, allowed: [...MEMORY_SCOPES] }
          : { allowed: [...MEMORY_SCOPES] },
      ),
    ];
  },
  // Only the same scope written differently is preferred: `one` is not `none` for certain, and a scope decides which
  // tools the role keeps.
  fixes: { 'picasso/invalid-memory': normalizingFixes },
};
