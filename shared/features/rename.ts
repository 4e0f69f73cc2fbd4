/**
 * Renaming a definition (F2 on its `name`): the dialect's module finds the name under the
 * cursor and plans the rename (Polytoken: `name` and the file; Picasso: `name`, `invocation`
 * and the file; Profy: a subagent's `name` within its Expert). A rename that makes no sense
 * (not on a name, a name the runtime would refuse, a name already taken in the same scope) is
 * refused with a message; a dialect without a rename refuses every one.
 */
import { posix } from 'path';
import type { Position, Range, WorkspaceEdit } from 'vscode-languageserver-types';
import type { FeatureFile, Refusal, RenameOptions as DialectRenameOptions } from '../dialects/module';
import type { Analysis } from '../types';
import type { AstNode } from '../text/tree';
import { offsetAt } from './kit/file';
import { featureFile } from './common';
import { workspaceEdit, type CodeActionOptions } from './code-actions';

export type { KnownDefinition, Refusal } from '../dialects/module';

export const isRefusal = (r: unknown): r is Refusal => typeof (r as Refusal | undefined)?.error === 'string';

export interface RenameOptions extends CodeActionOptions, DialectRenameOptions {}

export interface RenameResult {
  edit: WorkspaceEdit;
  /** What the editor should tell the author (shadowing, a file it could not rename). */
  notes: string[];
}

const NO_RENAME: Refusal = { error: 'Definitions of this kind are not renamed here.' };

/** The node's text without its quotes. */
function contentRange(file: FeatureFile, node: AstNode): Range {
  const text = file.text;
  const quoted = node.end - node.start >= 2 && /["']/.test(text[node.start]) && text[node.end - 1] === text[node.start];
  return file.ctx.file.source.range(quoted ? node.start + 1 : node.start, quoted ? node.end - 1 : node.end);
}

/**
 * `textDocument/prepareRename`: the range and current name, a refusal, or undefined for files that are not definitions.
 */
export function prepareRename(
  analysis: Analysis | undefined,
  position: Position,
): { range: Range; placeholder: string } | Refusal | undefined {
  const file = featureFile(analysis);
  if (!file) return undefined;
  const rename = file.module.editor.rename;
  const target = rename ? rename.target(file, offsetAt(file, position)) : NO_RENAME;
  if (isRefusal(target)) return target;
  return { range: contentRange(file, target.node), placeholder: target.name };
}

/**
 * `textDocument/rename`: the edit (and what to tell the author), a refusal, or undefined for files that are not
 * definitions.
 */
export function renameDefinition(
  analysis: Analysis | undefined,
  uri: string,
  position: Position,
  newName: string,
  options: RenameOptions,
): RenameResult | Refusal | undefined {
  const file = featureFile(analysis);
  if (!file) return undefined;
  const rename = file.module.editor.rename;
  if (!rename) return NO_RENAME;
  const target = rename.target(file, offsetAt(file, position));
  if (isRefusal(target)) return target;
  const planned = rename.plan(file, target, newName, options);
  if (isRefusal(planned)) return planned;
  const { plan, notes } = planned;
  if (plan.rename && !options.renameFiles) {
    notes.push(
      `The file was not renamed: this editor cannot rename files through the language server. Rename ${posix.basename(file.ctx.path)} to ${posix.basename(plan.rename.newPath)} yourself.`,
    );
  }
  return { edit: workspaceEdit(uri, plan, options), notes };
}
