/** Helpers the editor features and the dialects' editor hooks share: offsets, the YAML region, tree lookups. */
import type { Position, Range } from 'vscode-languageserver-types';
import type { DialectModule, FeatureFile } from '../../dialects/module';
import { getValue, isString, nodeAtOffset, nodeAtPath, stringItems, type AstNode } from '../../text/tree';
import { pathPattern } from './keys';

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

/** True when the list at this path (`[section, 'tools']`, without an entry's index) holds tool names. */
export function isToolList(module: DialectModule, listPath: readonly (string | number)[]): boolean {
  return module.editor.toolLists.includes(pathPattern(listPath));
}
