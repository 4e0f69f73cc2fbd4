/**
 * The editor features of one definition, asked in-process the way the server asks them: the
 * analysis at a `‸` cursor, and what completion, hover and rename answer there
 * (test/editor-*.test.ts).
 */
import type { CompletionItem, MarkupContent, TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import { parseConfig, type LoadedConfig } from '../../shared/config/config';
import { analyze } from '../../shared/engine';
import { completions, type CompletionOptions } from '../../shared/features/completion';
import { hover } from '../../shared/features/hover';
import type { RenameOptions } from '../../shared/features/rename';
import { SourceText } from '../../shared/text/source';

export const CURSOR = '‸';

export interface At {
  path?: string;
  config?: LoadedConfig;
}

/** `.subagents.yaml` at /w. */
export const configOf = (yaml: string): LoadedConfig => parseConfig(yaml, '/w/.subagents.yaml', '/w');

/** Editor answers for files at `defaults.path` under /w, with `defaults.config` unless told otherwise. */
export function editorAt(defaults: Required<At>) {
  /** The analysis of `marked` (one `‸` marks the cursor) and the cursor's position. */
  const at = (marked: string, { path = defaults.path, config = defaults.config }: At = {}) => {
    const offset = marked.indexOf(CURSOR);
    const text = offset < 0 ? marked : marked.slice(0, offset) + marked.slice(offset + 1);
    const analysis = analyze({ text, path, config, root: '/w' });
    return { analysis, text, position: new SourceText(text).position(Math.max(offset, 0)) };
  };
  const items = (marked: string, where?: At, options?: CompletionOptions): CompletionItem[] => {
    const { analysis, position } = at(marked, where);
    return completions(analysis, position, options);
  };
  /** The hover's Markdown and the text it covers. */
  const hovered = (marked: string, where?: At): { text: string; over: string } | undefined => {
    const { analysis, position, text } = at(marked, where);
    const h = hover(analysis, position);
    if (!h) return undefined;
    const source = new SourceText(text);
    const over = h.range ? text.slice(source.offset(h.range.start), source.offset(h.range.end)) : '';
    return { text: (h.contents as MarkupContent).value, over };
  };
  return {
    at,
    items,
    labels: (marked: string, where?: At) => items(marked, where).map((i) => i.label),
    hovered,
    hoverText: (marked: string, where?: At) => hovered(marked, where)?.text ?? '',
  };
}

/** What choosing the item writes. */
export const newTextOf = (item: CompletionItem | undefined) =>
  item?.insertText ?? (item?.textEdit && 'newText' in item.textEdit ? item.textEdit.newText : '');

/** A client that renames files, where no file exists and no other definition is known. */
export const renameOptions = (over: Partial<RenameOptions> = {}): RenameOptions => ({
  renameFiles: true,
  documentChanges: true,
  pathToUri: (p) => `file://${p}`,
  exists: () => false,
  definitions: [],
  ...over,
});

/** The texts a workspace edit writes, in either of its forms. */
export const editTexts = (edit: WorkspaceEdit) => [
  ...Object.values(edit.changes ?? {}).flatMap((edits) => edits.map((e) => e.newText)),
  ...(edit.documentChanges ?? []).flatMap((c) =>
    'edits' in c ? (c as TextDocumentEdit).edits.map((e) => ('newText' in e ? e.newText : '')) : [],
  ),
];
