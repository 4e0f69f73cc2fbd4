/**
 * Hover: key documentation, and list entries and values with what they mean. The shared part
 * finds the node (or, in text that does not parse, the word by indentation) and documents keys
 * from the dialect's key table; what an entry means and grants is the dialect module's answer
 * (its `entryHover`; by default, a tool name of a tool list as the catalog knows it).
 */
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver-types';
import type { FeatureFile } from '../dialects/module';
import type { Analysis } from '../types';
import { pathOf, type AstNode } from '../text/tree';
import { isToolList, nodeAt, offsetAt, rangeOf, yamlRegionAt } from './kit/file';
import { keyDocMarkdownOf, keyDocOf } from './kit/keys';
import { yamlWordAt } from './kit/yaml-context';
import { featureFile } from './common';
import { configHover } from './config-file';
import { directiveFileOf, directiveHover } from './directives';

const md = (value: string, file: FeatureFile, start: number, end: number): Hover => ({
  contents: { kind: MarkupKind.Markdown, value },
  range: rangeOf(file, start, end),
});

export function hover(analysis: Analysis | undefined, position: Position): Hover | undefined {
  const directiveFile = directiveFileOf(analysis);
  const onDirective = directiveFile && directiveHover(directiveFile, directiveFile.source.offset(position));
  if (onDirective) return onDirective;
  if (analysis?.kind === 'config') return configHover(analysis, position);
  const file = featureFile(analysis);
  if (!file) return undefined;
  const offset = offsetAt(file, position);
  if (file.ctx.file.format === 'yaml' && !yamlRegionAt(file, offset))
    return file.module.editor.hoverOutsideYaml?.(file, offset);
  const node = nodeAt(file, offset);
  if (node && node !== file.root) {
    const h = hoverNode(file, node);
    if (h) return h;
  }
  return file.ctx.file.format === 'yaml' ? hoverByLine(file, offset) : undefined;
}

/** The key's documentation at a path, as Markdown. */
function keyMarkdown(file: FeatureFile, path: (string | number)[]): string | undefined {
  const doc = keyDocOf(file.module, path);
  return doc && keyDocMarkdownOf(file.module, path, doc);
}

function hoverNode(file: FeatureFile, node: AstNode): Hover | undefined {
  const path = pathOf(node);
  if (node.keyOf) {
    const text = keyMarkdown(file, path);
    return text ? md(text, file, node.start, node.end) : undefined;
  }
  if (node.kind !== 'string') {
    // A scalar value: the key's documentation.
    const text = node.property && node.kind !== 'object' && node.kind !== 'array' ? keyMarkdown(file, path) : undefined;
    return text ? md(text, file, node.start, node.end) : undefined;
  }
  const value = String(node.value);
  const text = entryMarkdown(file, path, value, node) ?? scalarMarkdown(file, path, value);
  return text ? md(text, file, node.start, node.end) : undefined;
}

/** A list entry (a tool name, a shorthand, a status value…); `node` is undefined for text that does not parse. */
function entryMarkdown(file: FeatureFile, path: (string | number)[], value: string, node?: AstNode) {
  if (typeof path[path.length - 1] !== 'number') return undefined;
  const listPath = path.slice(0, -1);
  const own = file.module.editor.entryHover;
  if (own) return own(file, listPath, value, node);
  if (!isToolList(file.module, listPath)) return undefined;
  const { catalog } = file.ctx;
  return file.describeTool(value, catalog.has(value) ? undefined : catalog.nearest(value));
}

function scalarMarkdown(file: FeatureFile, path: (string | number)[], value: string): string | undefined {
  const text = keyMarkdown(file, path);
  if (!text) return undefined;
  return file.module.editor.scalarHover?.(file, path, value, text) ?? text;
}

/** Half-typed YAML: a `key:` word under the cursor, placed by indentation. */
function hoverByLine(file: FeatureFile, offset: number): Hover | undefined {
  const region = yamlRegionAt(file, offset);
  const at = region && yamlWordAt(file.text, region, offset);
  if (!at) return undefined;
  if (at.kind === 'item') {
    // A list entry (a tool name, a shorthand, a status value) in text that does not parse.
    const entry = entryMarkdown(file, [...at.path, 0], at.word);
    return entry ? md(entry, file, at.start, at.end) : undefined;
  }
  const text = keyMarkdown(file, at.path);
  return text ? md(text, file, at.start, at.end) : undefined;
}
