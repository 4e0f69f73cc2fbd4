/** Helpers the editor features share: the analysed file, its YAML region, tree lookups. */
import type { Position, Range } from 'vscode-languageserver-types';
import type { Analysis, RuleContext } from '../engine';
import type { AstNode } from '../text/tree';
import { getValue, isString, nodeAtOffset, nodeAtPath, stringItems } from '../text/tree';
import type { Dialect } from '../types';

export interface FeatureFile {
  dialect: Dialect;
  ctx: RuleContext;
  text: string;
  root?: AstNode;
}

/** The definition file behind an analysis; undefined for configuration and unrecognized files. */
export function featureFile(analysis: Analysis | undefined): FeatureFile | undefined {
  if (!analysis?.context || !analysis.kind || analysis.kind === 'config') return undefined;
  const ctx = analysis.context;
  return { dialect: analysis.kind, ctx, text: ctx.file.source.text, root: ctx.file.root };
}

export function offsetAt(file: FeatureFile, position: Position): number {
  return file.ctx.file.source.offset(position);
}

export function rangeOf(file: FeatureFile, start: number, end: number): Range {
  return file.ctx.file.source.range(start, end);
}

/** The YAML region holding the offset (the frontmatter, or the whole YAML file). */
export function yamlRegionAt(file: FeatureFile, offset: number): { start: number; end: number } | undefined {
  if (file.ctx.file.format !== 'yaml') return undefined;
  return file.ctx.file.yamlRegions.find((r) => offset >= r.start && offset <= r.end);
}

/** The deepest node at the offset; at a node's very end the node still counts. */
export function nodeAt(file: FeatureFile, offset: number): AstNode | undefined {
  return nodeAtOffset(file.root, offset);
}

/** String entries of a list at a path of the root (from the tree). */
export function listAt(root: AstNode | undefined, path: (string | number)[]): string[] {
  return stringItems(nodeAtPath(root, path)).map((i) => i.value);
}

export function stringAt(root: AstNode | undefined, key: string): string | undefined {
  const v = getValue(root, key);
  return isString(v) ? v.value : undefined;
}

/** True when the list at this path (`['polytoken', 'tools']`, without an entry's index) holds tool names. */
export function isToolList(dialect: Dialect, listPath: readonly (string | number)[]): boolean {
  const n = listPath.length;
  if (dialect === 'polytoken') return n === 2 && listPath[0] === 'polytoken' && (listPath[1] === 'tools' || listPath[1] === 'tools_deny' || listPath[1] === 'undeferred_tools');
  if (dialect === 'picasso') return n === 1 && (listPath[0] === 'tools' || listPath[0] === 'deny');
  return (n === 1 && listPath[0] === 'tools') || (n === 3 && listPath[0] === 'subagents' && listPath[2] === 'tools');
}
