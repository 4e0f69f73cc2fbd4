import type { Range } from 'vscode-languageserver-types';
import type { RuleContext } from '../../../engine';
import type { Finding, SeverityName } from '../../../types';
import { findingAt, visibleNode } from '../../common';
import { getValue, isObject, isString, stringItems, type AstNode, type AstProperty } from '../../../text/tree';

/** The role mapping, or undefined when the document's root is not a mapping. */
export function roleRoot(ctx: RuleContext): (AstNode & { properties: AstProperty[] }) | undefined {
  return isObject(ctx.file.root) ? ctx.file.root : undefined;
}

/** The range of a node; an empty value (`key:` with nothing after it) is shown on its key. */
export function rangeOf(ctx: RuleContext, node: AstNode): Range {
  const shown = visibleNode(node);
  return ctx.file.source.range(shown.start, shown.end);
}

export function finding(ctx: RuleContext, rule: string, node: AstNode, message: string, data?: Record<string, unknown>, severity?: SeverityName): Finding {
  return findingAt(rule, rangeOf(ctx, node), message, data, severity);
}

/** The string value of a top-level key, when it is a string. */
export function stringValue(root: AstNode | undefined, key: string): { value: string; node: AstNode } | undefined {
  const value = getValue(root, key);
  return isString(value) ? { value: value.value, node: value } : undefined;
}

/** The string entries of `tools` or `deny` (other entries are invalid-value's). */
export function listEntries(root: AstNode | undefined, key: string): { value: string; node: AstNode }[] {
  return stringItems(getValue(root, key));
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
