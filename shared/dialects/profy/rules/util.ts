import type { AstNode } from '../../../text/tree';
import type { ProfyFinding } from '../util';
import type { ProfyRuleId } from '../rule-meta';
import type { RuleContext } from '../../../types';
import { findingAt, quote } from '../../common';

/** A finding on the opening `{` of an object (for a key that is absent). */
export function atOpening(
  ctx: Pick<RuleContext, 'file'>,
  rule: ProfyRuleId,
  node: AstNode,
  message: string,
  data?: Record<string, unknown>,
): ProfyFinding {
  return findingAt(rule, ctx.file.source.range(node.start, Math.min(node.end, node.start + 1)), message, data);
}

/** A list of names for a message: `a`, `b` and `c` (at most `max`, then "and N more"). */
export function nameList(names: readonly string[], max = 8): string {
  const shown = names.slice(0, max).map(quote);
  if (names.length > max) return `${shown.join(', ')} and ${names.length - max} more`;
  // Stryker disable next-line StringLiteral: no separator in a list of one
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** `a`, `b and c`: words joined for a sentence, as they are. */
export function joinWords(words: readonly string[]): string {
  // Stryker disable next-line StringLiteral: no separator in a list of one
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
