/**
 * Mechanisms more than one dialect's rules share. Each dialect keeps its own words, ranges
 * and suggestion budgets; what is here is only the part that must behave the same everywhere.
 */
import type { Range } from 'vscode-languageserver-types';
import type { AstNode, AstProperty } from '../text/tree';
import type { Finding, SeverityName } from '../types';

/** A finding on that range; `data` and `severity` only when given. Each dialect picks its range. */
export function findingAt(rule: string, range: Range, message: string, data?: Record<string, unknown>, severity?: SeverityName): Finding {
  return { rule, range, message, ...(severity ? { severity } : {}), ...(data ? { data } : {}) };
}

/**
 * The `<dialect>/unknown-key` mechanism: one finding per property of `node` whose key is not
 * in `known`, built by `report` with the key `suggest` offers (if any). Properties in order.
 */
export function unknownKeyFindings(
  node: AstNode | undefined,
  known: readonly string[],
  suggest: (key: string) => string | undefined,
  report: (property: AstProperty, suggestion: string | undefined) => Finding,
): Finding[] {
  return (node?.properties ?? []).filter((p) => !known.includes(p.key)).map((p) => report(p, suggest(p.key)));
}

/** `data` for a key or entry that a rename fixes when there is a suggestion, else that can be removed. */
export function renameOrRemove(replacement: string | undefined): Record<string, unknown> {
  return replacement ? { replacement } : { removable: true };
}

/**
 * The unknown-tool verdict (SPEC §4, which `picasso/unknown-tool` follows): a warning when the
 * catalog holds a near name, which the message names and `data.replacement` holds; else a hint.
 * `make` builds the finding on the dialect's range; `data` is added to both.
 */
export function nearOrHint(
  make: (message: string, data: Record<string, unknown> | undefined, severity: SeverityName) => Finding,
  replacement: string | undefined,
  message: { near: (replacement: string) => string; otherwise: string },
  data?: Record<string, unknown>,
): Finding {
  return replacement ? make(message.near(replacement), { ...data, replacement }, 'warning') : make(message.otherwise, data, 'hint');
}

/** A zero-width value (e.g. `tools:` with nothing after it) is shown on its key. */
export function visibleNode(node: AstNode): AstNode {
  if (node.start === node.end && node.property) return node.property.keyNode;
  return node;
}
