/**
 * Completion and hover in `.subagents.yaml`: its keys from the configuration schema, rule ids and
 * severities under `rules:` from the rule registry, and tool names from the catalog the file
 * itself configures. The facts come from shared/config/keys.ts and the registry; this only
 * places them at the cursor.
 */
import {
  CompletionItemKind,
  MarkupKind,
  type CompletionItem,
  type Hover,
  type Position,
} from 'vscode-languageserver-types';
import type { Dialect } from '../basics';
import type { Analysis } from '../types';
import type { ConfigDocument } from '../config/types';
import {
  configKeyMarkdown,
  configKeysAt,
  configSchemaAt,
  ruleIdMarkdown,
  SEVERITY_SETTINGS,
  severityMarkdown,
} from '../config/keys';
import { RULES, ruleMeta } from '../rules/registry';
import { catalogFor } from '../catalog/by-dialect';
import { dialectModule } from '../dialects';
import { toolMarkdown } from '../docs/tools';
import { nodeAtOffset, pathOf, type AstNode } from '../text/tree';
import { toItems, type Candidate, type CompletionOptions } from './kit/completion-items';
import { yamlCursorAt, yamlWordAt, type YamlCursor } from './kit/yaml-context';

/** The dialect whose catalog a list of tool names in its own section draws on (`polytoken.facetTools`). */
function toolListDialect(path: readonly (string | number)[]): Dialect | undefined {
  if (path.length !== 2 || typeof path[0] !== 'string') return undefined;
  const module = dialectModule(path[0]);
  return module?.section?.toolLists?.includes(String(path[1])) ? module.id : undefined;
}

export function configCompletions(
  analysis: Analysis,
  position: Position,
  options: CompletionOptions = {},
): CompletionItem[] {
  const doc = analysis.configDocument;
  if (!doc) return [];
  const source = doc.file.source;
  const cursor = yamlCursorAt(source.text, 0, source.text.length, source.offset(position));
  if (!cursor) return [];
  return toItems(source, candidatesAt(doc, cursor), cursor.replaceStart, cursor.replaceEnd, options, cursor);
}

function candidatesAt(doc: ConfigDocument, cursor: YamlCursor): Candidate[] {
  const { path } = cursor;
  const taken = new Set(cursor.siblings);
  if (cursor.kind === 'key') {
    const text = doc.file.source.text;
    taken.delete(text.slice(cursor.replaceStart, cursor.replaceEnd)); // the key being rewritten
    const hasColon = /^[ \t]*:/.test(text.slice(cursor.replaceEnd, cursor.replaceEnd + 80));
    if (path.length === 1 && path[0] === 'rules')
      return RULES.filter((r) => !taken.has(r.id)).map((r, i) => ruleCandidate(r.id, i, hasColon));
    return configKeysAt(path)
      .filter((key) => !taken.has(key))
      .map((key, i) => keyCandidate([...path, key], i, hasColon));
  }
  if (cursor.kind === 'value') {
    if (path.length === 2 && path[0] === 'rules') return severityCandidates(String(path[1]));
    return [];
  }
  const dialect = toolListDialect(path);
  if (!dialect) return [];
  const catalog = catalogFor(dialect, doc.config);
  return catalog
    .names()
    .filter((name) => !taken.has(name))
    .map((name, i) => ({
      label: name,
      kind: CompletionItemKind.Function,
      detail: catalog.get(name)?.description,
      documentation: toolMarkdown(dialect, catalog, name),
      sort: i,
    }));
}

/** `key: ` with the shape of its value: an indented block for a mapping, `[]` for a list. */
function keyCandidate(path: (string | number)[], i: number, hasColon: boolean): Candidate {
  const key = String(path[path.length - 1]);
  const schema = configSchemaAt(path);
  const body = schema?.type === 'object' ? '\n  $0' : schema?.type === 'array' ? ' [$1]' : ' $1';
  return {
    label: key,
    kind: CompletionItemKind.Property,
    documentation: configKeyMarkdown(path),
    insert: hasColon ? key : `${key}:${body}`,
    snippet: !hasColon,
    sort: i,
  };
}

/** A rule id under `rules:`, inserted with a choice of severities (`off` first: the usual reason). */
function ruleCandidate(id: string, i: number, hasColon: boolean): Candidate {
  const meta = ruleMeta(id)!;
  return {
    label: id,
    kind: CompletionItemKind.Property,
    detail: `default: ${meta.defaultSeverity}`,
    documentation: ruleIdMarkdown(id),
    insert: hasColon ? id : `${id}: \${1|${SEVERITY_SETTINGS.join(',')}|}`,
    snippet: !hasColon,
    deprecated: meta.deprecated,
    sort: i,
  };
}

function severityCandidates(rule: string): Candidate[] {
  const meta = ruleMeta(rule);
  return SEVERITY_SETTINGS.map((value, i) => ({
    label: value,
    kind: CompletionItemKind.EnumMember,
    detail: meta?.defaultSeverity === value ? 'the default' : undefined,
    documentation: severityMarkdown(value, rule),
    sort: i,
  }));
}

export function configHover(analysis: Analysis, position: Position): Hover | undefined {
  const doc = analysis.configDocument;
  if (!doc) return undefined;
  const source = doc.file.source;
  const offset = source.offset(position);
  const node = nodeAtOffset(doc.file.root, offset);
  const found = node && node.parent ? hoverText(doc, node) : undefined;
  if (found)
    return { contents: { kind: MarkupKind.Markdown, value: found }, range: source.range(node!.start, node!.end) };
  return hoverByLine(doc, offset);
}

function hoverText(doc: ConfigDocument, node: AstNode): string | undefined {
  const path = pathOf(node);
  if (node.keyOf || node.kind === 'object' || node.kind === 'array') return configKeyMarkdown(path);
  const value = String(node.value);
  const n = path.length;
  if (n === 2 && path[0] === 'rules') return severityMarkdown(value, String(path[1]));
  if (typeof path[n - 1] === 'number') {
    const listPath = path.slice(0, -1);
    const dialect = toolListDialect(listPath);
    if (dialect) return toolMarkdown(dialect, catalogFor(dialect, doc.config), value);
    if (listPath.length === 2 && listPath[0] === 'mcp')
      return `\`mcp__${listPath[1]}__${value}\`: a tool of MCP server \`${listPath[1]}\`, known to every runtime by this full name.`;
  }
  return configKeyMarkdown(typeof path[n - 1] === 'number' ? path.slice(0, -1) : path);
}

/** Text that does not parse: a `key:` word under the cursor, placed by indentation. */
function hoverByLine(doc: ConfigDocument, offset: number): Hover | undefined {
  const { source } = doc.file;
  const at = yamlWordAt(source.text, { start: 0, end: source.text.length }, offset);
  const value = at?.kind === 'key' ? configKeyMarkdown(at.path) : undefined;
  return value
    ? { contents: { kind: MarkupKind.Markdown, value }, range: source.range(at!.start, at!.end) }
    : undefined;
}
