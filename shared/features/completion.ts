/**
 * Context-aware completion: in suppression comments and `.subagents.yaml` the shared features
 * answer; in a definition, the YAML cursor is placed here and the dialect's module gives the
 * candidates (by default: its key documentation, their values, and catalog names in its tool
 * lists), or completes a format of its own (Profy's JSON) and the text outside the YAML.
 */
import type { CompletionItem, Position } from 'vscode-languageserver-types';
import type { Analysis } from '../types';
import { yamlCandidates } from './kit/candidates';
import { toItems, type CompletionOptions } from './kit/completion-items';
import { offsetAt, yamlRegionAt } from './kit/file';
import { yamlCursorAt } from './kit/yaml-context';
import { featureFile } from './common';
import { configCompletions } from './config-file';
import { directiveCompletions, directiveFileOf } from './directives';

export type { CompletionOptions } from './kit/completion-items';

/** Completion items at a position of an analysed document. */
export function completions(
  analysis: Analysis | undefined,
  position: Position,
  options: CompletionOptions = {},
): CompletionItem[] {
  const directiveFile = directiveFileOf(analysis);
  const inComment =
    directiveFile && directiveCompletions(directiveFile, directiveFile.source.offset(position), options);
  if (inComment) return inComment;
  if (analysis?.kind === 'config') return configCompletions(analysis, position, options);
  const file = featureFile(analysis);
  if (!file) return [];
  const offset = offsetAt(file, position);
  const editor = file.module.editor;
  if (editor.complete) return editor.complete(file, offset, options);
  const region = yamlRegionAt(file, offset);
  if (!region) return editor.completeOutsideYaml?.(file, offset, options) ?? [];
  const cursor = yamlCursorAt(file.text, region.start, region.end, offset);
  if (!cursor) return [];
  const candidates = (editor.yamlCandidates ?? yamlCandidates)(file, cursor);
  return toItems(file.ctx.file.source, candidates, cursor.replaceStart, cursor.replaceEnd, options, cursor);
}
