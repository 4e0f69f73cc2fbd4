/** Hover: key documentation, tool names, shorthands and globs with their expansion, status values. */
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver-types';
import type { Analysis } from '../engine';
import { PROFY_RESERVED } from '../catalog/builtins';
import { keyDoc, keyDocMarkdown } from '../docs/keys';
import { globMarkdown, isGlob, polytokenShorthand, profyMainToolset, shorthandMarkdown, statusValueMarkdown, toolMarkdown } from '../docs/tools';
import { STATUS_FIELDS } from '../dialects/polytoken/constants';
import { MEMORY_DENIES } from '../dialects/picasso/constants';
import { getValue, pathOf, toPlain, type AstNode } from '../text/tree';
import { featureFile, isToolList, nodeAt, offsetAt, rangeOf, yamlRegionAt, type FeatureFile } from './common';
import { yamlCursorAt } from './yaml-context';

const md = (value: string, file: FeatureFile, start: number, end: number): Hover => ({
  contents: { kind: MarkupKind.Markdown, value },
  range: rangeOf(file, start, end),
});

export function hover(analysis: Analysis | undefined, position: Position): Hover | undefined {
  const file = featureFile(analysis);
  if (!file) return undefined;
  const offset = offsetAt(file, position);
  if (file.ctx.file.format === 'yaml' && !yamlRegionAt(file, offset)) return undefined;
  const node = nodeAt(file, offset);
  if (node && node !== file.root) {
    const h = hoverNode(file, node);
    if (h) return h;
  }
  return file.ctx.file.format === 'yaml' ? hoverByLine(file, offset) : undefined;
}

function hoverNode(file: FeatureFile, node: AstNode): Hover | undefined {
  const path = pathOf(node);
  if (node.keyOf) {
    const doc = keyDoc(file.dialect, path);
    if (!doc) return undefined;
    return md(keyDocMarkdown(file.dialect, path, doc), file, node.start, node.end);
  }
  if (node.kind !== 'string') {
    // A scalar value: the key's documentation.
    if (node.property && node.kind !== 'object' && node.kind !== 'array') {
      const doc = keyDoc(file.dialect, path);
      if (doc) return md(keyDocMarkdown(file.dialect, path, doc), file, node.start, node.end);
    }
    return undefined;
  }
  const value = String(node.value);
  const text = entryMarkdown(file, path, value) ?? scalarMarkdown(file, path, value);
  return text ? md(text, file, node.start, node.end) : undefined;
}

function entryMarkdown(file: FeatureFile, path: (string | number)[], value: string): string | undefined {
  const n = path.length;
  if (typeof path[n - 1] !== 'number') return undefined;
  const listPath = path.slice(0, -1);
  const { catalog } = file.ctx;
  if (file.dialect === 'polytoken') {
    if (listPath.length >= 4 && listPath[n - 2] === 'enum' && listPath[n - 4] === 'properties' && (STATUS_FIELDS as readonly string[]).includes(String(listPath[n - 3])) && listPath[1] === 'exit_tool_schema') {
      return statusValueMarkdown(value);
    }
    if (isToolList('polytoken', listPath)) {
      const sh = polytokenShorthand(value);
      if (sh) return shorthandMarkdown(catalog, value, sh);
      return toolMarkdown('polytoken', catalog, value);
    }
    return undefined;
  }
  if (file.dialect === 'picasso') {
    if (isToolList('picasso', listPath)) {
      let text = toolMarkdown('picasso', catalog, value);
      for (const [scope, denied] of Object.entries(MEMORY_DENIES)) if (denied.includes(value)) text += `\n\nRefused by \`memory: ${scope}\`.`;
      return text;
    }
    return undefined;
  }
  // Profy
  if (listPath.length === 1 && listPath[0] === 'tools') return toolMarkdown('profy', catalog, value);
  if (listPath.length === 3 && listPath[0] === 'subagents' && listPath[2] === 'tools') {
    const toolset = profyMainToolset(toPlain(getValue(file.root, 'tools')), file.ctx.config);
    if (isGlob(value)) return globMarkdown(value, toolset, PROFY_RESERVED);
    let text = toolMarkdown('profy', catalog, value);
    if (PROFY_RESERVED.has(value)) return text;
    if (toolset) text += toolset.includes(value) ? '\n\nIn the main agent toolset: granted.' : '\n\nNot in the main agent toolset: the runtime drops it silently.';
    return text;
  }
  return undefined;
}

function scalarMarkdown(file: FeatureFile, path: (string | number)[], value: string): string | undefined {
  const doc = keyDoc(file.dialect, path);
  if (!doc) return undefined;
  let text = keyDocMarkdown(file.dialect, path, doc);
  if (file.dialect === 'picasso' && path.length === 1 && path[0] === 'memory') {
    const denied = MEMORY_DENIES[value];
    text = denied
      ? `\`memory: ${value}\` ${denied.length ? `refuses ${denied.map((t) => `\`${t}\``).join(' and ')}` : 'refuses no tool and gives the run a session-scoped namespace'}.\n\n---\n\n${text}`
      : `\`${value}\` is not a memory scope: use \`none\`, \`read-only\` or \`session\`.\n\n---\n\n${text}`;
  }
  return text;
}

/** Half-typed YAML: a `key:` word under the cursor, placed by indentation. */
function hoverByLine(file: FeatureFile, offset: number): Hover | undefined {
  const text = file.text;
  let start = offset;
  let end = offset;
  while (start > 0 && /[\w$.!*?-]/.test(text[start - 1])) start--;
  while (end < text.length && /[\w$.!*?-]/.test(text[end])) end++;
  if (start === end) return undefined;
  const region = yamlRegionAt(file, offset);
  if (!region) return undefined;
  if (text[end] !== ':') {
    // A list entry (a tool name, a shorthand, a status value) in text that does not parse.
    const item = yamlCursorAt(text, region.start, region.end, end);
    if (!item || (item.kind !== 'flow-item' && item.kind !== 'block-item')) return undefined;
    const value = text.slice(start, end);
    const entry = entryMarkdown(file, [...item.path, 0], value);
    return entry ? md(entry, file, start, end) : undefined;
  }
  const cursor = yamlCursorAt(text, region.start, region.end, start);
  if (!cursor || cursor.kind !== 'key') return undefined;
  const path = [...cursor.path, text.slice(start, end)];
  const doc = keyDoc(file.dialect, path);
  return doc ? md(keyDocMarkdown(file.dialect, path, doc), file, start, end) : undefined;
}
