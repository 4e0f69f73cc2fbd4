import { nearestName } from '../../../catalog/catalog';
import { findingOn, keyRenameData, quote, unknownKeyFindings } from '../../common';
import { keyRenameFixes } from '../../../fixes/plans';
import { ALL_KEYS } from '../constants';
import type { PicassoRule } from '../util';
import type { AstNode, AstProperty } from '../../../text/tree';

const KNOWN = new Set<string>(ALL_KEYS);

/** Spellings other agent runtimes use for the same idea. */
const SYNONYMS: Record<string, string> = {
  prompt: 'system_prompt',
  instructions: 'system_prompt',
  allowed_tools: 'tools',
  allowlist: 'tools',
  denied: 'deny',
  deny_tools: 'deny',
  disallowed_tools: 'deny',
  tools_deny: 'deny',
  denylist: 'deny',
  desc: 'description',
  steps: 'max_steps',
  depth: 'max_depth',
  schema: 'output_schema',
};

/** The known key an unknown one most likely means: case-insensitive, a known synonym, then by edit distance. */
export function nearestKey(key: string, present: ReadonlySet<string> = new Set()): string | undefined {
  const lower = key.toLowerCase().replace(/[- ]/g, '_');
  if (KNOWN.has(lower)) return lower;
  if (SYNONYMS[lower]) return SYNONYMS[lower];
  const absent = ALL_KEYS.filter((k) => !present.has(k));
  const budget = key.length > 6 ? 3 : 2;
  return nearestName(lower, absent, budget) ?? nearestName(lower, ALL_KEYS, budget);
}

/** An unknown key of the role that means `key` (its suggestion), when `key` itself is absent. */
export function misspelledKeyFor(root: AstNode, key: string): AstProperty | undefined {
  const props = root.properties ?? [];
  if (props.some((p) => p.key === key)) return undefined;
  const present = new Set(props.map((p) => p.key));
  return props.find((p) => !KNOWN.has(p.key) && nearestKey(p.key, present) === key);
}

/** picasso/unknown-key: a top-level key Picasso does not read. */
export const unknownKey: PicassoRule = {
  ids: ['picasso/unknown-key'],
  check(ctx) {
    const root = ctx.model.root;
    if (!root) return [];
    const present = new Set(root.properties.map((p) => p.key));
    return unknownKeyFindings(
      root,
      ALL_KEYS,
      (key) => nearestKey(key, present),
      (p, suggestion) =>
        findingOn(
          ctx,
          'picasso/unknown-key',
          p.keyNode,
          `${quote(p.key)} is not a key of a Picasso role: the runtime prints a warning and ignores it; ${suggestion ? `did you mean \`${suggestion}\`?` : 'remove it or check its spelling.'}`,
          keyRenameData(p, suggestion),
        ),
    );
  },
  fixes: { 'picasso/unknown-key': (req) => keyRenameFixes(req, ['tools']) },
};
