/**
 * Hover: key documentation, tool names, shorthands and globs with what they grant, status
 * values. What an entry means and grants comes from the dialect's model (or, for text that
 * does not parse yet, from the same tools.ts functions the model is built with).
 */
import { MarkupKind, type Hover, type Position } from 'vscode-languageserver-types';
import type { Analysis } from '../types';
import { keyDoc, keyDocMarkdown } from '../docs/keys';
import { globMarkdown, shorthandMarkdown, statusValueMarkdown, toolMarkdown } from '../docs/tools';
import { STATUS_FIELDS } from '../dialects/polytoken/constants';
import { entryAt } from '../dialects/polytoken/model';
import { entryFacts, type ToolListKey } from '../dialects/polytoken/tools';
import { MEMORY_DENIES } from '../dialects/picasso/constants';
import { picassoEntryAt } from '../dialects/picasso/model';
import { toolVerdict } from '../dialects/picasso/tools';
import { allowlistEntryAt } from '../dialects/profy/model';
import { allowlistEntry } from '../dialects/profy/tools';
import { pathOf, type AstNode } from '../text/tree';
import { featureFile, isToolList, nodeAt, offsetAt, rangeOf, yamlRegionAt, type FeatureFile } from './common';
import { yamlWordAt } from './yaml-context';
import { configHover } from './config-file';
import { directiveFileOf, directiveHover } from './directives';
import { templateHover } from './template';

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
  if (file.ctx.file.format === 'yaml' && !yamlRegionAt(file, offset)) return templateHover(file, offset);
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
  const text = entryMarkdown(file, path, value, node) ?? scalarMarkdown(file, path, value);
  return text ? md(text, file, node.start, node.end) : undefined;
}

/** A list entry: a tool name, shorthand or glob, or a status value. `node` is undefined for text that does not parse. */
function entryMarkdown(
  file: FeatureFile,
  path: (string | number)[],
  value: string,
  node?: AstNode,
): string | undefined {
  const n = path.length;
  if (typeof path[n - 1] !== 'number') return undefined;
  const listPath = path.slice(0, -1);
  const { catalog } = file.ctx;
  if (file.dialect === 'polytoken') {
    if (
      listPath.length >= 4 &&
      listPath[n - 2] === 'enum' &&
      listPath[n - 4] === 'properties' &&
      (STATUS_FIELDS as readonly string[]).includes(String(listPath[n - 3])) &&
      listPath[1] === 'exit_tool_schema'
    ) {
      return statusValueMarkdown(value);
    }
    if (!isToolList('polytoken', listPath)) return undefined;
    const list = listPath[1] as ToolListKey;
    const known = node && entryAt(file.model, node);
    const facts = known ?? entryFacts(value, list, catalog);
    const expansion = known
      ? list === 'tools'
        ? known.expansion
        : entryFacts(value, list, catalog).expansion
      : facts.expansion;
    const near = facts.unknown?.near;
    if (facts.meaning.kind === 'name') return toolMarkdown('polytoken', catalog, value, near);
    return shorthandMarkdown(value, facts.meaning, expansion, near);
  }
  if (file.dialect === 'picasso') {
    if (!isToolList('picasso', listPath)) return undefined;
    const entry = node && picassoEntryAt(file.model, node);
    const verdict = entry ? { near: entry.near } : toolVerdict(value, catalog);
    let text = toolMarkdown('picasso', catalog, value, 'near' in verdict ? verdict.near : undefined);
    for (const [scope, denied] of Object.entries(MEMORY_DENIES))
      if (denied.includes(value)) text += `\n\nRefused by \`memory: ${scope}\`.`;
    if (entry?.removedBy === 'deny') text += '\n\nAlso in `deny`: the role is refused at load.';
    if (entry?.refusedByMemory)
      text += `\n\nRefused by this role's \`memory: ${file.model.memory?.value}\`: the role is refused at load.`;
    return text;
  }
  // Profy: the Expert's own toolset, or a subagent's allowlist.
  if (listPath.length === 1 && listPath[0] === 'tools')
    return toolMarkdown('profy', catalog, value, catalog.has(value) ? undefined : catalog.nearest(value));
  if (!(listPath.length === 3 && listPath[0] === 'subagents' && listPath[2] === 'tools')) return undefined;
  const toolset = file.model.toolset;
  const entry =
    (node && allowlistEntryAt(file.model, node)) ??
    allowlistEntry({ kind: 'string', value, start: 0, end: 0 }, toolset);
  if (entry.kind === 'glob')
    return globMarkdown(value, {
      known: toolset.known,
      granted: entry.granted,
      reservedMatches: entry.reservedMatches,
    });
  let text = toolMarkdown('profy', catalog, value, catalog.has(value) ? undefined : catalog.nearest(value));
  if (entry.kind === 'reserved' || !toolset.known) return text;
  text += entry.granted.length
    ? '\n\nIn the main agent toolset: granted.'
    : '\n\nNot in the main agent toolset: the runtime drops it silently.';
  return text;
}

function scalarMarkdown(file: FeatureFile, path: (string | number)[], value: string): string | undefined {
  const doc = keyDoc(file.dialect, path);
  if (!doc) return undefined;
  let text = keyDocMarkdown(file.dialect, path, doc);
  if (file.dialect === 'picasso' && path.length === 1 && path[0] === 'memory') {
    const denied = Object.prototype.hasOwnProperty.call(MEMORY_DENIES, value) ? MEMORY_DENIES[value] : undefined;
    text = denied
      ? `\`memory: ${value}\` ${denied.length ? `refuses ${denied.map((t) => `\`${t}\``).join(' and ')}` : 'refuses no tool and gives the run a session-scoped namespace'}.\n\n---\n\n${text}`
      : `\`${value}\` is not a memory scope: use \`none\`, \`read-only\` or \`session\`.\n\n---\n\n${text}`;
  }
  return text;
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
  const doc = keyDoc(file.dialect, at.path);
  return doc ? md(keyDocMarkdown(file.dialect, at.path, doc), file, at.start, at.end) : undefined;
}
