/** Completion candidates as LSP items: one replace range, snippets only for clients that take them. */
import {
  CompletionItemKind,
  CompletionItemTag,
  InsertTextFormat,
  InsertTextMode,
  MarkupKind,
  type CompletionItem,
  type Range,
} from 'vscode-languageserver-types';
import type { SourceText } from '../../text/source';
import type { YamlCursor } from './yaml-context';

export interface CompletionOptions {
  /** The client understands snippet syntax (default true). */
  snippets?: boolean;
}

export interface Candidate {
  label: string;
  detail?: string;
  documentation?: string;
  kind: CompletionItemKind;
  /** Inserted text: a snippet when `snippet` is set. */
  insert?: string;
  snippet?: boolean;
  deprecated?: boolean;
  preselect?: boolean;
  sort?: number;
}

/** Candidates as completion items replacing [start, end) of the text. */
export function toItems(
  source: SourceText,
  candidates: Candidate[],
  start: number,
  end: number,
  options: CompletionOptions,
  cursor?: YamlCursor,
): CompletionItem[] {
  const range: Range = source.range(start, end);
  const snippets = options.snippets !== false;
  const seen = new Set<string>();
  const items: CompletionItem[] = [];
  for (const c of candidates) {
    if (seen.has(c.label)) continue;
    seen.add(c.label);
    let insert = c.insert ?? c.label;
    let snippet = !!c.snippet && snippets;
    if (c.snippet && !snippets) insert = snippetText(insert);
    if (cursor?.kind === 'list-line') {
      insert = `- ${insert}`;
    }
    const item: CompletionItem = {
      label: c.label,
      kind: c.kind,
      textEdit: { range, newText: insert },
      insertTextFormat: snippet ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
      sortText: String(c.sort ?? 50).padStart(5, '0') + c.label,
    };
    if (cursor?.kind === 'list-line') item.filterText = `- ${c.label}`;
    if (snippet && insert.includes('\n')) item.insertTextMode = InsertTextMode.adjustIndentation;
    if (c.detail) item.detail = c.detail;
    if (c.documentation) item.documentation = { kind: MarkupKind.Markdown, value: c.documentation };
    if (c.deprecated) item.tags = [CompletionItemTag.Deprecated];
    if (c.preselect) item.preselect = true;
    items.push(item);
  }
  return items;
}

/** A snippet as the plain text it inserts with every placeholder at its default. */
export function snippetText(s: string): string {
  return s
    .replace(/\$\{\d+\|([^,|]*)[^}]*\}/g, '$1')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\d+/g, '');
}
