/**
 * Mechanisms every dialect's rules share: where a finding goes, the unknown-key loop, the
 * unknown-tool verdict's wording. Each dialect keeps its own words and suggestion budgets.
 */
import { SymbolKind, type Range } from 'vscode-languageserver-types';
import type { ParsedFile } from '../text/document';
import { getValue, isString, type AstNode, type AstProperty } from '../text/tree';
import type { Finding, IndexedName, RuleContext, SeverityName } from '../types';

/** A finding on that range; `data` and `severity` only when given. */
export function findingAt<Id extends string>(
  rule: Id,
  range: Range,
  message: string,
  data?: Record<string, unknown>,
  severity?: SeverityName,
): Finding<Id> {
  return { rule, range, message, ...(severity ? { severity } : {}), ...(data ? { data } : {}) };
}

/** A zero-width value (e.g. `tools:` with nothing after it) is shown on its key. */
export function visibleNode(node: AstNode): AstNode {
  if (node.start === node.end && node.property) return node.property.keyNode;
  return node;
}

/**
 * The range a finding about this node covers: the node, an empty value on its key, a block collection without the line
 * break after it.
 */
export function nodeRange(ctx: Pick<RuleContext, 'file'>, node: AstNode): Range {
  const shown = visibleNode(node);
  const text = ctx.file.source.text;
  let end = shown.end;
  while (end > shown.start && /\s/.test(text[end - 1] ?? '')) end--;
  return ctx.file.source.range(shown.start, end);
}

/** A finding about a node (see nodeRange). */
export function findingOn<Id extends string>(
  ctx: Pick<RuleContext, 'file'>,
  rule: Id,
  node: AstNode,
  message: string,
  data?: Record<string, unknown>,
  severity?: SeverityName,
): Finding<Id> {
  return findingAt(rule, nodeRange(ctx, node), message, data, severity);
}

/** A file-level finding, on the first line. */
export function findingOnFirstLine<Id extends string>(
  ctx: Pick<RuleContext, 'file'>,
  rule: Id,
  message: string,
  data?: Record<string, unknown>,
): Finding<Id> {
  return findingAt(rule, ctx.file.source.firstLine(), message, data);
}

/**
 * The `<dialect>/unknown-key` mechanism: one finding per property of `node` whose key is not
 * in `known`, built by `report` with the key `suggest` offers (if any). Properties in order.
 */
export function unknownKeyFindings<F extends Finding>(
  node: AstNode | undefined,
  known: readonly string[],
  suggest: (key: string) => string | undefined,
  report: (property: AstProperty, suggestion: string | undefined) => F,
): F[] {
  return (node?.properties ?? []).filter((p) => !known.includes(p.key)).map((p) => report(p, suggest(p.key)));
}

/**
 * `data` for an unknown key: renaming it fixes it when the suggested key is not already
 * there (a rename onto an existing key would write the key twice); it can always be removed.
 */
export function keyRenameData(
  property: AstProperty,
  suggestion: string | undefined,
  replacement: string | undefined = suggestion,
): Record<string, unknown> {
  const taken = suggestion !== undefined && (property.parent.properties ?? []).some((p) => p.key === suggestion);
  return suggestion && !taken ? { replacement, removable: true } : { removable: true };
}

/**
 * The unknown-tool verdict (Polytoken's rule, which `picasso/unknown-tool` follows): a warning
 * when the catalog holds a near name, which the message names and `data.replacement` holds;
 * else a hint. `make` builds the finding; `data` is added to both.
 */
export function nearOrHint<F extends Finding>(
  make: (message: string, data: Record<string, unknown> | undefined, severity: SeverityName) => F,
  replacement: string | undefined,
  message: { near: (replacement: string) => string; otherwise: string },
  data?: Record<string, unknown>,
): F {
  return replacement
    ? make(message.near(replacement), { ...data, replacement }, 'warning')
    : make(message.otherwise, data, 'hint');
}

/** Backquotes a value for a message, shortened when it is long. */
export function quote(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}…` : text;
  return `\`${short.replace(/`/g, "'").replace(/[\r\n\t]/g, ' ')}\``;
}

/** Where a definition's name is: its `name` value, else the first line. */
export function nameRange(file: ParsedFile, node: AstNode | undefined): Range {
  return node ? file.source.range(node.start, node.end) : file.source.firstLine();
}

/** A file's top-level `name` when it is a non-empty string, else the file's stem, with where it is. */
export function topLevelName(file: ParsedFile, stem: string, symbolKind: SymbolKind = SymbolKind.Class): IndexedName {
  const n = getValue(file.root, 'name');
  return { name: isString(n) && n.value ? n.value : stem, range: nameRange(file, n), symbolKind };
}
