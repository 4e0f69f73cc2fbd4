import type { RuleContext } from '../../../engine';
import type { AstNode } from '../../../text/tree';
import type { Finding } from '../../../types';
import { findingAt } from '../../common';

/** A finding whose range covers the node exactly. */
export function at(ctx: RuleContext, rule: string, node: AstNode, message: string, data?: Record<string, unknown>): Finding {
  return findingAt(rule, ctx.file.source.range(node.start, node.end), message, data);
}

/** A finding on the opening `{` of an object (for a key that is absent). */
export function atOpening(ctx: RuleContext, rule: string, node: AstNode, message: string, data?: Record<string, unknown>): Finding {
  return findingAt(rule, ctx.file.source.range(node.start, Math.min(node.end, node.start + 1)), message, data);
}

/** A file-level finding on the first line. */
export function atFirstLine(ctx: RuleContext, rule: string, message: string, data?: Record<string, unknown>): Finding {
  return findingAt(rule, ctx.file.source.firstLine(), message, data);
}

/** `name` in backticks, shortened when it is very long. */
export function code(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return `\`${short.replace(/`/g, "'").replace(/[\r\n\t]/g, ' ')}\``;
}

/** A list of names for a message: `a`, `b` and `c` (at most `max`, then "and N more"). */
export function nameList(names: readonly string[], max = 8): string {
  const shown = names.slice(0, max).map(code);
  if (names.length > max) return `${shown.join(', ')} and ${names.length - max} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}`;
}

/** `a`, `b and c`: words joined for a sentence, as they are. */
export function joinWords(words: readonly string[]): string {
  if (words.length <= 1) return words.join('');
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
