/**
 * Quick fixes for the diagnostics in a range. They read the facts rules put in
 * `diagnostic.data` (`replacement`, `removable`, `expected`, `suggestions`, and a few
 * rule-specific ones) and the node at the diagnostic's range; no rule logic here.
 */
import { CodeActionKind, type CodeAction, type Diagnostic, type Range, type TextEdit, type WorkspaceEdit } from 'vscode-languageserver-types';
import { posix } from 'path';
import type { Analysis } from '../engine';
import { expandShorthand, polytokenShorthand } from '../docs/tools';
import { REQUIRED_KEYS, RECOMMENDED_KEYS } from '../dialects/picasso/constants';
import { getProperty, getValue, isString, nodeAtPath, pathOf, stringItems, type AstNode } from '../text/tree';
import { featureFile, rangeOf, type FeatureFile } from './common';
import {
  afterColonEdit,
  appendToListEdit,
  indentOf,
  insertJsonPropertyEdit,
  insertKeyLinesEdit,
  lineStartOf,
  nodeForRange,
  removeItemEdit,
  removePropertyEdit,
  replaceItemWithManyEdit,
  replaceValueEdit,
  yamlScalar,
} from './edits';

export interface CodeActionOptions {
  /** The client can rename files in a WorkspaceEdit. */
  renameFiles?: boolean;
  documentChanges?: boolean;
  version?: number;
}

interface Fix {
  title: string;
  edits: TextEdit[];
  preferred?: boolean;
  rename?: { oldUri: string; newUri: string };
}

const sameRange = (a: Range, b: Range) =>
  a.start.line === b.start.line && a.start.character === b.start.character && a.end.line === b.end.line && a.end.character === b.end.character;

export function codeActions(analysis: Analysis | undefined, uri: string, _range: Range, diagnostics: Diagnostic[], options: CodeActionOptions = {}): CodeAction[] {
  const file = featureFile(analysis);
  if (!file || !analysis) return [];
  const actions: CodeAction[] = [];
  for (const given of diagnostics) {
    if (given.source !== undefined && given.source !== 'subagents') continue;
    const rule = typeof given.code === 'string' ? given.code : (given.data as { rule?: string } | undefined)?.rule;
    if (!rule) continue;
    // Clients may drop `data`: take it from our own diagnostic with the same rule and range.
    const own = analysis.diagnostics.find((d) => d.code === rule && sameRange(d.range, given.range));
    const diagnostic: Diagnostic = own ?? given;
    let fixes: Fix[] = [];
    try {
      fixes = fixesFor(file, rule, diagnostic, uri, options);
    } catch {
      fixes = [];
    }
    const disable = disableFix(file, rule, diagnostic);
    if (disable) fixes.push(disable);
    let preferredGiven = false;
    for (const f of fixes) {
      const edit: WorkspaceEdit = f.rename
        ? { documentChanges: [{ kind: 'rename', oldUri: f.rename.oldUri, newUri: f.rename.newUri }] }
        : options.documentChanges && options.version !== undefined
          ? { documentChanges: [{ textDocument: { uri, version: options.version }, edits: f.edits }] }
          : { changes: { [uri]: f.edits } };
      const action: CodeAction = { title: f.title, kind: CodeActionKind.QuickFix, diagnostics: [given], edit };
      if (f.preferred && !preferredGiven) {
        action.isPreferred = true;
        preferredGiven = true;
      }
      actions.push(action);
    }
  }
  return actions;
}

function offsets(file: FeatureFile, d: Diagnostic): [number, number] {
  const s = file.ctx.file.source;
  return [s.offset(d.range.start), s.offset(d.range.end)];
}

function fixesFor(file: FeatureFile, rule: string, d: Diagnostic, uri: string, options: CodeActionOptions): Fix[] {
  const data = (d.data ?? {}) as Record<string, unknown>;
  const [start, end] = offsets(file, d);
  const node = nodeForRange(file.root, start, end);
  const fixes: Fix[] = [];
  const replacement = typeof data.replacement === 'string' ? data.replacement : undefined;
  const suggestions = Array.isArray(data.suggestions) ? data.suggestions.filter((s): s is string => typeof s === 'string') : [];
  const name = rule.split('/')[1];

  switch (name) {
    case 'name-mismatch': {
      const stem = (typeof data.expected === 'string' && data.expected) || replacement || file.ctx.fileStem;
      const nameNode = getValue(file.root, 'name');
      if (nameNode) fixes.push({ title: `Set name to \`${stem}\``, edits: [replaceValueEdit(file, nameNode.start, nameNode.end, stem)], preferred: true });
      if (options.renameFiles && isString(nameNode) && nameNode.value && !/[\\/:*?"<>|\u0000]/.test(nameNode.value) && nameNode.value !== file.ctx.fileStem) {
        const path = file.ctx.path;
        const ext = path.endsWith('.expert.json') ? '.expert.json' : posix.extname(path);
        const newPath = posix.join(posix.dirname(path), `${nameNode.value}${ext}`);
        fixes.push({ title: `Rename the file to \`${nameNode.value}${ext}\``, edits: [], rename: { oldUri: uri, newUri: swapUriPath(uri, path, newPath) } });
      }
      return fixes;
    }
    case 'invocation-mismatch': {
      const nm = getValue(file.root, 'name');
      const value = replacement ?? `@${isString(nm) && nm.value ? nm.value : file.ctx.fileStem}`;
      const inv = getValue(file.root, 'invocation') ?? node;
      if (inv) fixes.push({ title: `Set invocation to \`${value}\``, edits: [replaceValueEdit(file, inv.start, inv.end, value)], preferred: true });
      return fixes;
    }
    case 'name-format': {
      const nm = getValue(file.root, 'name');
      const value = replacement ?? (isString(nm) ? snakeCase(nm.value) : undefined);
      if (nm && value) fixes.push({ title: `Change name to \`${value}\``, edits: [replaceValueEdit(file, nm.start, nm.end, value)], preferred: true });
      return fixes;
    }
    case 'missing-name': {
      const stem = (typeof data.expected === 'string' && data.expected) || file.ctx.fileStem;
      const nm = getProperty(file.root, 'name');
      if (nm && nm.value.kind !== 'null') {
        fixes.push({ title: `Set name to \`${stem}\``, edits: [replaceValueEdit(file, nm.value.start, nm.value.end, stem)], preferred: true });
      } else if (nm) {
        fixes.push({ title: `Set name to \`${stem}\``, edits: [afterColonEdit(file, nm.keyNode, ` ${yamlScalar(stem)}`)], preferred: true });
      } else {
        const at = file.root && file.root.kind === 'object' && !file.root.flow ? file.root.start : file.ctx.file.yamlRegions[0]?.start;
        if (at !== undefined) {
          const first = file.root?.properties?.[0];
          const indent = first ? indentOf(file.text, first.keyNode.start) : '';
          const lineAt = first ? lineStartOf(file.text, first.keyNode.start) : at;
          fixes.push({ title: `Add \`name: ${stem}\``, edits: [{ range: rangeOf(file, lineAt, lineAt), newText: `${indent}name: ${yamlScalar(stem)}\n` }], preferred: true });
        }
      }
      return fixes;
    }
    case 'missing-required':
    case 'missing-recommended':
      return missingKeyFixes(file, name, d, data);
    case 'tag-in-literal-list':
    case 'mcp-shorthand-in-deny':
      if (node && isString(node)) {
        const f = expandFix(file, node, data.expansion);
        if (f) fixes.push(f);
      }
      break;
    case 'deny-undeferred-conflict':
    case 'tools-deny-overlap': {
      const value = node && isString(node) ? node.value : typeof data.tool === 'string' ? data.tool : undefined;
      if (!value) break;
      const lists = name === 'tools-deny-overlap' ? [['tools'], ['deny']] : [['polytoken', 'tools_deny'], ['polytoken', 'undeferred_tools']];
      for (const p of lists) {
        const item = stringItems(nodeAtPath(file.root, p)).find((i) => i.value === value);
        if (item) fixes.push({ title: `Remove \`${value}\` from \`${p[p.length - 1]}\``, edits: [removeItemEdit(file, item.node)] });
      }
      return fixes;
    }
    case 'undeferred-not-granted': {
      if (!node || !isString(node)) break;
      const poly = getValue(file.root, 'polytoken');
      const add = node.value === 'exit_tool' ? undefined : appendToListEdit(file, poly, 'tools', node.value);
      if (add) fixes.push({ title: `Add \`${node.value}\` to \`tools\``, edits: [add], preferred: true });
      fixes.push({ title: `Remove \`${node.value}\` from \`undeferred_tools\``, edits: [removeItemEdit(file, node)] });
      return fixes;
    }
    case 'markdown-body': {
      const body = file.ctx.file.body;
      if (!body || !file.root || file.root.kind !== 'object') break;
      const content = file.text.slice(body.start, body.end).replace(/^\s*\n/, '').replace(/\s+$/, '');
      const remove: TextEdit = { range: rangeOf(file, body.start, body.end), newText: '' };
      if (content && !getProperty(file.root, 'system_prompt')) {
        const block = ['system_prompt: |', ...content.split(/\r?\n/).map((l) => (l.trim() ? `  ${l}` : ''))];
        const insert = insertKeyLinesEdit(file, file.root, block);
        if (insert) fixes.push({ title: 'Move the body into `system_prompt`', edits: [insert, remove], preferred: true });
      }
      fixes.push({ title: 'Remove the Markdown body', edits: [remove] });
      return fixes;
    }
    case 'missing-field': {
      const field = typeof data.field === 'string' ? data.field : undefined;
      if (!field || !node) break;
      const placeholder = PROFY_PLACEHOLDERS[field] ?? field;
      if (node.kind === 'object' && !getProperty(node, field)) {
        fixes.push({ title: `Add \`${field}\``, edits: [insertJsonPropertyEdit(file, node, field, JSON.stringify(placeholder))], preferred: true });
      } else if (node.property?.key === field) {
        fixes.push({ title: `Set \`${field}\` to a placeholder`, edits: [{ range: rangeOf(file, node.start, node.end), newText: JSON.stringify(placeholder) }], preferred: true });
      }
      return fixes;
    }
    case 'auto-facet-hint': {
      const poly = getValue(file.root, 'polytoken');
      const prop = getProperty(poly, 'auto_facet_hint');
      if (!prop) break;
      const both = !!getProperty(poly, 'autonomous_hint');
      if (!both) fixes.push({ title: 'Rename to `autonomous_hint`', edits: [{ range: rangeOf(file, prop.keyNode.start, prop.keyNode.end), newText: 'autonomous_hint' }], preferred: true });
      fixes.push({ title: 'Remove `auto_facet_hint`', edits: [removePropertyEdit(file, prop.keyNode)], preferred: both });
      return fixes;
    }
  }

  if (suggestions.length) {
    suggestions.forEach((s, i) => fixes.push({ title: `Change to \`${s}\``, edits: [replaceAt(file, node, start, end, s)], preferred: i === 0 }));
  } else if (replacement !== undefined) {
    const title = node?.keyOf ? `Rename to \`${replacement}\`` : `Change to \`${replacement}\``;
    fixes.push({ title, edits: [replaceAt(file, node, start, end, replacement)], preferred: true });
  }
  if (data.removable && node) {
    const remove = removeFix(file, node);
    if (remove) fixes.push(remove);
  }
  return fixes;
}

function replaceAt(file: FeatureFile, node: AstNode | undefined, start: number, end: number, value: string): TextEdit {
  if (node && node.start === start && node.end === end && node.kind === 'string') return replaceValueEdit(file, start, end, value);
  return { range: rangeOf(file, start, end), newText: value };
}

function removeFix(file: FeatureFile, node: AstNode): Fix | undefined {
  if (node.keyOf) return { title: `Remove \`${node.keyOf.key}\``, edits: [removePropertyEdit(file, node)] };
  if (node.parent?.kind === 'array') {
    const label = isString(node) ? node.value : file.text.slice(node.start, node.end);
    const list = node.parent.property?.key;
    return { title: `Remove \`${label}\`${list ? ` from \`${list}\`` : ''}`, edits: [removeItemEdit(file, node)] };
  }
  if (node.property) return { title: `Remove \`${node.property.key}\``, edits: [removePropertyEdit(file, node.property.keyNode)] };
  return undefined;
}

/** Replaces a shorthand in a literal list by the catalog's full names. */
function expandFix(file: FeatureFile, node: AstNode & { value: string }, given: unknown): Fix | undefined {
  const sh = polytokenShorthand(node.value);
  if (!sh) return undefined;
  const names = Array.isArray(given) && given.every((g) => typeof g === 'string') ? (given as string[]) : expandShorthand(file.ctx.catalog, sh);
  if (!names?.length) return undefined;
  const path = pathOf(node);
  const listKey = path[1];
  const catalog = file.ctx.catalog;
  const listed = new Set(stringItems(node.parent).map((i) => i.value));
  const literal = names.filter((n) => !listed.has(n) && (listKey === 'tools_deny' ? !catalog.get(n)?.undeniable : n !== 'switch_facet'));
  if (!literal.length) return undefined;
  return { title: `Expand \`${node.value}\` into ${literal.length} tool name${literal.length === 1 ? '' : 's'}`, edits: [replaceItemWithManyEdit(file, node, literal)], preferred: true };
}

const PROFY_PLACEHOLDERS: Record<string, string> = {
  name: 'new_subagent',
  description: 'When the main agent should dispatch work here.',
  system_prompt: 'What this subagent does and what it returns.',
};

const PICASSO_PLACEHOLDERS = (file: FeatureFile): Record<string, string> => {
  const nm = getValue(file.root, 'name');
  const name = isString(nm) && nm.value ? nm.value : snakeCase(file.ctx.fileStem);
  return {
    name: yamlScalar(name),
    invocation: JSON.stringify(`@${name}`),
    model: 'default',
    tools: '[read_file]',
    max_steps: '30',
    max_depth: '0',
    output_schema: 'result',
    description: JSON.stringify(''),
    when_to_use: JSON.stringify(''),
  };
};

function missingKeyFixes(file: FeatureFile, name: string, d: Diagnostic, data: Record<string, unknown>): Fix[] {
  if (file.dialect !== 'picasso' || (file.root && file.root.kind !== 'object')) return [];
  const key = [data.key, data.missing, data.expected].find((v): v is string => typeof v === 'string') ?? /`([a-z_]+)`/.exec(typeof d.message === "string" ? d.message : d.message.value)?.[1];
  const all = (name === 'missing-required' ? REQUIRED_KEYS : RECOMMENDED_KEYS) as readonly string[];
  if (!key || !all.includes(key)) return [];
  const placeholders = PICASSO_PLACEHOLDERS(file);
  const fixes: Fix[] = [];
  /** `key: placeholder` lines for these keys, at the end of the mapping (or the top of an empty file). */
  const addKeys = (keys: string[]): TextEdit | undefined => {
    const lines = keys.map((k) => `${k}: ${placeholders[k]}`);
    return file.root ? insertKeyLinesEdit(file, file.root, lines) : { range: rangeOf(file, 0, 0), newText: lines.join('\n') + '\n' };
  };
  const edit = addKeys([key]);
  if (edit) fixes.push({ title: `Add \`${key}\``, edits: [edit], preferred: name === 'missing-required' });
  const missing = all.filter((k) => !getProperty(file.root, k));
  if (missing.length > 1) {
    const allEdit = addKeys(missing);
    if (allEdit) fixes.push({ title: `Add every missing ${name === 'missing-required' ? 'required' : 'recommended'} key (${missing.length})`, edits: [allEdit] });
  }
  return fixes;
}

/** `# subagents-disable-next-line rule` above the diagnostic's line (YAML and Markdown only). */
function disableFix(file: FeatureFile, rule: string, d: Diagnostic): Fix | undefined {
  if (file.ctx.file.format !== 'yaml') return undefined;
  const text = file.text;
  const source = file.ctx.file.source;
  const lineStart = source.offset({ line: d.range.start.line, character: 0 });
  const regions = file.ctx.file.yamlRegions;
  const inRegion = regions.some((r) => lineStart >= r.start && lineStart < Math.max(r.end, r.start + 1));
  if (!inRegion || d.range.start.line === 0) {
    // File-level problems sit on the first line (the `---` line, or the first YAML line, where a
    // comment above would move the problem onto the comment): disable for the whole file.
    const r = regions[0];
    if (!r || rule.startsWith('syntax/')) return undefined;
    return { title: `Disable ${rule} for this file`, edits: [{ range: rangeOf(file, r.start, r.start), newText: `# subagents-disable ${rule}\n` }] };
  }
  const indent = indentOf(text, lineStart);
  // Extend a directive that is already on the line above.
  if (lineStart > 0) {
    const prevStart = lineStartOf(text, lineStart - 1);
    const prev = text.slice(prevStart, lineStart).replace(/\r?\n$/, '');
    const m = /#\s*subagents-disable-next-line\s+([^#]*?)\s*$/.exec(prev);
    if (m && m[1]) {
      const at = prevStart + prev.length;
      return { title: `Disable ${rule} for this line`, edits: [{ range: rangeOf(file, at, at), newText: `, ${rule}` }] };
    }
  }
  return { title: `Disable ${rule} for this line`, edits: [{ range: rangeOf(file, lineStart, lineStart), newText: `${indent}# subagents-disable-next-line ${rule}\n` }] };
}

export function snakeCase(s: string): string {
  const out = s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .toLowerCase()
    .replace(/^[^a-z]+/, '')
    .replace(/_+/g, '_')
    .replace(/_$/, '');
  return out || 'role';
}

function swapUriPath(uri: string, oldPath: string, newPath: string): string {
  const base = posix.basename(oldPath);
  const encoded = encodeURIComponent(base);
  const newBase = encodeURIComponent(posix.basename(newPath));
  if (uri.endsWith(encoded)) return uri.slice(0, uri.length - encoded.length) + newBase;
  if (uri.endsWith(base)) return uri.slice(0, uri.length - base.length) + posix.basename(newPath);
  return uri;
}
