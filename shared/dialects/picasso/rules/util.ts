import type { Range } from 'vscode-languageserver-types';
import type { RuleContext } from '../../../engine';
import type { Finding, SeverityName } from '../../../types';
import { getProperty, isObject, isString, type AstNode, type AstProperty } from '../../../text/tree';

/** The role mapping, or undefined when the document's root is not a mapping. */
export function roleRoot(ctx: RuleContext): (AstNode & { properties: AstProperty[] }) | undefined {
  return isObject(ctx.file.root) ? ctx.file.root : undefined;
}

/** The range of a node; an empty value (`key:` with nothing after it) is shown on its key. */
export function rangeOf(ctx: RuleContext, node: AstNode): Range {
  if (node.start === node.end && node.property) return ctx.file.source.range(node.property.keyNode.start, node.property.keyNode.end);
  return ctx.file.source.range(node.start, node.end);
}

export function finding(ctx: RuleContext, rule: string, node: AstNode, message: string, data?: Record<string, unknown>, severity?: SeverityName): Finding {
  return { rule, range: rangeOf(ctx, node), message, ...(data ? { data } : {}), ...(severity ? { severity } : {}) };
}

/** The document's first line, for file-level problems. */
export function firstLine(ctx: RuleContext): Range {
  return ctx.file.source.firstLine();
}

/** The string value of a top-level key, when it is a string. */
export function stringValue(root: AstNode | undefined, key: string): { value: string; node: AstNode } | undefined {
  const value = getProperty(root, key)?.value;
  return isString(value) ? { value: value.value, node: value } : undefined;
}

/** The string entries of `tools` or `deny` (other entries are invalid-value's). */
export function listEntries(root: AstNode | undefined, key: string): { value: string; node: AstNode }[] {
  const value = getProperty(root, key)?.value;
  if (value?.kind !== 'array') return [];
  return (value.items ?? []).filter(isString).map((node) => ({ value: node.value, node }));
}

/** `name` as the runtime reads it, or undefined when it is not a string. */
export function roleName(root: AstNode | undefined): string | undefined {
  return stringValue(root, 'name')?.value;
}

/** Turns `SecurityAuditor`, `security-auditor` or `Security Auditor` into `security_auditor`. */
export function snakeCase(text: string): string {
  return text
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .replace(/^[0-9_]+/, '');
}

/** A node's kind for a message: "a mapping", "a list", "empty", "a number"... */
export function kindName(kind: string): string {
  return kind === 'object' ? 'a mapping' : kind === 'array' ? 'a list' : kind === 'null' ? 'empty' : `a ${kind}`;
}

/** Backquotes a value for a message, shortened when it is long. */
export function quote(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 57)}...` : text;
  return `\`${short.replace(/`/g, "'")}\``;
}
