/** Document symbols, folding ranges and workspace symbols, from the names the dialect modules give. */
import {
  FoldingRangeKind,
  SymbolKind,
  type DocumentSymbol,
  type FoldingRange,
  type Range,
  type WorkspaceSymbol,
} from 'vscode-languageserver-types';
import type { Analysis, IndexedName } from '../types';
import { getValue, isArray, isObject, isString, type AstNode } from '../text/tree';
import { definitionNames, type IndexedFile } from '../workspace/names';
import { featureFile } from './common';

const WORKSPACE_SYMBOL_LIMIT = 1000;

/** Names containing the query (case-insensitive): exact and prefix matches first, then by name; the best 1,000. */
export function workspaceSymbols(files: Iterable<IndexedFile>, query: string): WorkspaceSymbol[] {
  const q = query.toLowerCase();
  // Each name's rank is computed once, not in every comparison of the sort.
  const found: { rank: number; file: IndexedFile; name: IndexedName }[] = [];
  for (const file of files) {
    for (const name of file.names) {
      const lower = name.name.toLowerCase();
      if (q && !lower.includes(q)) continue;
      found.push({ rank: lower === q ? 0 : lower.startsWith(q) ? 1 : 2, file, name });
    }
  }
  found.sort((a, b) => a.rank - b.rank || (a.name.name < b.name.name ? -1 : a.name.name > b.name.name ? 1 : 0));
  return found.slice(0, WORKSPACE_SYMBOL_LIMIT).map(({ file, name: n }) => ({
    name: n.name,
    kind: n.symbolKind,
    containerName: n.container ?? file.kind,
    location: { uri: file.uri, range: n.range },
  }));
}

const VALUE_KIND: Record<string, SymbolKind> = {
  object: SymbolKind.Object,
  array: SymbolKind.Array,
  string: SymbolKind.String,
  number: SymbolKind.Number,
  boolean: SymbolKind.Boolean,
  null: SymbolKind.Null,
  unknown: SymbolKind.Variable,
};

function preview(node: AstNode): string | undefined {
  if (node.kind === 'string') {
    const v = String(node.value);
    return v.length > 60 ? v.slice(0, 57) + '\u2026' : v.split('\n')[0];
  }
  if (node.kind === 'number' || node.kind === 'boolean') return String(node.value);
  if (node.kind === 'array') return `${node.items?.length ?? 0} entries`;
  return undefined;
}

/** The definition and its keys; a list of nested definitions (a Profy Expert's subagents) as one symbol each. */
export function documentSymbols(analysis: Analysis | undefined): DocumentSymbol[] {
  const file = featureFile(analysis);
  if (!file || !isObject(file.root)) return [];
  const source = file.ctx.file.source;
  const range = (n: AstNode) => source.range(n.start, n.end);
  const nested = file.module.editor.nestedDefinitions;
  const keySymbols = (obj: AstNode, depth: number): DocumentSymbol[] =>
    (obj.properties ?? []).map((p) => {
      const full = source.range(p.keyNode.start, Math.max(p.keyNode.end, p.value.end));
      const sym: DocumentSymbol = {
        name: p.key || '""',
        kind: VALUE_KIND[p.value.kind] ?? SymbolKind.Property,
        range: full,
        selectionRange: range(p.keyNode),
      };
      const detail = preview(p.value);
      if (detail) sym.detail = detail;
      if (depth < 3 && isObject(p.value)) sym.children = keySymbols(p.value, depth + 1);
      if (depth === 0 && nested && isArray(p.value) && p.key === nested.key) {
        sym.children = p.value.items.map((item, i) => {
          const nameNode = getValue(item, 'name');
          const name = isString(nameNode) && nameNode.value ? nameNode.value : `${nested.label} ${i + 1}`;
          const s: DocumentSymbol = {
            name,
            kind: SymbolKind.Class,
            detail: nested.label,
            range: range(item),
            selectionRange: nameNode ? range(nameNode) : range(item),
          };
          if (isObject(item)) s.children = keySymbols(item, depth + 2);
          return s;
        });
      }
      return sym;
    });
  const names = definitionNames(file.dialect, file.ctx.file, file.ctx.path);
  const top = names[0];
  const fm = file.ctx.file.frontmatter;
  const whole = fm?.kind === 'closed' ? source.range(0, fm.bodyStart) : source.range(file.root.start, file.root.end);
  return [
    {
      name: top.name,
      detail: file.module.labels.definition,
      kind: top.symbolKind,
      range: whole,
      selectionRange: containsRange(whole, top.range) ? top.range : whole,
      children: keySymbols(file.root, 0),
    },
  ];
}

function containsRange(outer: Range, inner: Range): boolean {
  const le = (a: Range['start'], b: Range['start']) =>
    a.line < b.line || (a.line === b.line && a.character <= b.character);
  return le(outer.start, inner.start) && le(inner.end, outer.end);
}

/** Folding: the frontmatter block, and every multi-line mapping or list value. */
export function foldingRanges(analysis: Analysis | undefined): FoldingRange[] {
  const file = featureFile(analysis);
  if (!file) return [];
  const source = file.ctx.file.source;
  const out: FoldingRange[] = [];
  const fm = file.ctx.file.frontmatter;
  if (fm?.kind === 'closed') {
    const end = source.position(fm.closeStart).line;
    if (end > 0) out.push({ startLine: 0, endLine: end, kind: FoldingRangeKind.Region });
  }
  const visit = (node: AstNode | undefined, depth: number) => {
    if (!node || depth > 20) return;
    for (const p of node.properties ?? []) {
      if (p.value.kind === 'object' || p.value.kind === 'array') {
        const startLine = source.position(p.keyNode.start).line;
        let endOffset = p.value.end;
        while (endOffset > p.value.start && /\s/.test(file.text[endOffset - 1])) endOffset--;
        const endLine = source.position(endOffset).line;
        if (endLine > startLine)
          out.push({ startLine, endLine: file.ctx.file.format === 'json' ? endLine - 1 : endLine });
      }
      visit(p.value, depth + 1);
    }
    for (const item of node.items ?? []) {
      if ((item.kind === 'object' || item.kind === 'array') && file.ctx.file.format === 'json') {
        const startLine = source.position(item.start).line;
        const endLine = source.position(item.end).line;
        if (endLine - 1 > startLine) out.push({ startLine, endLine: endLine - 1 });
      }
      visit(item, depth + 1);
    }
  };
  visit(file.root, 0);
  return out.filter((r) => r.endLine > r.startLine);
}
