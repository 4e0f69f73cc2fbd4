/**
 * Renaming a definition (F2 on its `name`):
 * - Polytoken: `name` and the file, which the runtime requires to be equal. Other definitions
 *   of the new name elsewhere in discovery order are named in a note (shadowing), never renamed.
 * - Picasso: `name`, `invocation` and the file, through the same plan as the name quick fixes
 *   (`renameRolePlan`). Roles do not refer to each other, so nothing else changes.
 * - Profy: a subagent's `name` within its Expert (the Expert's own name is referred to by other
 *   Experts' delegation settings, which may live anywhere, so it is not renamed here).
 * A rename that makes no sense (not on a name, a name the runtime would refuse, a name already
 * taken in the same scope) is refused with a message.
 */
import { posix } from 'path';
import type { Position, Range, WorkspaceEdit } from 'vscode-languageserver-types';
import type { Analysis, Dialect, FixPlan } from '../types';
import { getValue, type AstNode } from '../text/tree';
import { relativeInside } from '../files';
import { replaceValueEdit } from '../fixes/edits';
import { NAME_PATTERN } from '../dialects/picasso/constants';
import { renameRolePlan } from '../dialects/picasso/rules/name';
import { RESERVED_NAMES } from '../dialects/profy/constants';
import { badNameChars, type SubagentModel } from '../dialects/profy/model';
import { profySettings } from '../dialects/profy/settings';
import { replacesInDiscovery } from '../dialects/polytoken/rules/shadowed';
import { featureFile, offsetAt, type FeatureFile } from './common';
import { workspaceEdit, type CodeActionOptions } from './code-actions';

/** Why a rename is refused, for the editor to show. */
export interface Refusal {
  error: string;
}

export const isRefusal = (r: unknown): r is Refusal => typeof (r as Refusal | undefined)?.error === 'string';

/** A definition the workspace index knows (the server hands in its entries). */
export interface KnownDefinition {
  path: string;
  kind: Dialect;
  names: readonly { name: string }[];
}

export interface RenameOptions extends CodeActionOptions {
  /** Whether a file exists (a rename must not overwrite one). */
  exists(path: string): boolean;
  /** Every definition of the workspace (and the Polytoken discovery folders). */
  definitions: Iterable<KnownDefinition>;
  /** The workspace folder of the file: Picasso names must be unique in it. */
  scope?: string;
}

export interface RenameResult {
  edit: WorkspaceEdit;
  /** What the editor should tell the author (shadowing, a file it could not rename). */
  notes: string[];
}

/** What F2 renames: the node the cursor is on and the definition's current name. */
interface Target {
  node: AstNode;
  name: string;
  subagent?: SubagentModel;
}

const NOT_ON_A_NAME = 'Put the cursor on the definition\u2019s `name` to rename it.';

const within = (node: AstNode | undefined, offset: number): node is AstNode =>
  !!node && offset >= node.start && offset <= node.end;

function targetAt(file: FeatureFile, offset: number): Target | Refusal {
  if (file.dialect === 'polytoken') {
    const { nameNode, name } = file.model;
    return name !== undefined && within(nameNode, offset) ? { node: nameNode, name } : { error: NOT_ON_A_NAME };
  }
  if (file.dialect === 'picasso') {
    const { name, invocation } = file.model;
    if (!name?.value) return { error: NOT_ON_A_NAME };
    if (within(name.node, offset)) return { node: name.node, name: name.value };
    if (invocation && within(invocation.node, offset)) return { node: invocation.node, name: name.value };
    return { error: NOT_ON_A_NAME };
  }
  for (const s of file.model.subagents)
    if (s.name !== undefined && within(s.nameNode, offset)) return { node: s.nameNode!, name: s.name, subagent: s };
  if (within(getValue(file.model.expert, 'name'), offset)) {
    return {
      error:
        'An Expert is not renamed here: other Experts name it in their `delegationPolicy`, in files this editor may not have. Rename its subagents with F2 on their `name`.',
    };
  }
  return { error: 'Put the cursor on a subagent\u2019s `name` to rename it.' };
}

/** The node's text without its quotes. */
function contentRange(file: FeatureFile, node: AstNode): Range {
  const text = file.text;
  const quoted = node.end - node.start >= 2 && /["']/.test(text[node.start]) && text[node.end - 1] === text[node.start];
  return file.ctx.file.source.range(quoted ? node.start + 1 : node.start, quoted ? node.end - 1 : node.end);
}

/** `textDocument/prepareRename`: the range and current name, a refusal, or undefined for files that are not definitions. */
export function prepareRename(
  analysis: Analysis | undefined,
  position: Position,
): { range: Range; placeholder: string } | Refusal | undefined {
  const file = featureFile(analysis);
  if (!file) return undefined;
  const target = targetAt(file, offsetAt(file, position));
  if (isRefusal(target)) return target;
  return { range: contentRange(file, target.node), placeholder: target.name };
}

/** `textDocument/rename`: the edit (and what to tell the author), a refusal, or undefined for files that are not definitions. */
export function renameDefinition(
  analysis: Analysis | undefined,
  uri: string,
  position: Position,
  newName: string,
  options: RenameOptions,
): RenameResult | Refusal | undefined {
  const file = featureFile(analysis);
  if (!file) return undefined;
  const target = targetAt(file, offsetAt(file, position));
  if (isRefusal(target)) return target;
  const planned =
    file.dialect === 'polytoken'
      ? polytokenPlan(file, target, newName, options)
      : file.dialect === 'picasso'
        ? picassoPlan(file, newName, options)
        : profyPlan(file, target, newName);
  if (isRefusal(planned)) return planned;
  const { plan, notes } = planned;
  if (plan.rename && !options.renameFiles) {
    notes.push(
      `The file was not renamed: this editor cannot rename files through the language server. Rename ${posix.basename(file.ctx.path)} to ${posix.basename(plan.rename.newPath)} yourself.`,
    );
  }
  return { edit: workspaceEdit(uri, plan, options), notes };
}

type Planned = { plan: FixPlan; notes: string[] } | Refusal;

/** The registered name of an indexed definition. */
const nameOf = (d: KnownDefinition): string | undefined => d.names[0]?.name;

function polytokenPlan(
  file: Extract<FeatureFile, { dialect: 'polytoken' }>,
  target: Target,
  newName: string,
  options: RenameOptions,
): Planned {
  const problem = fileNameProblem(newName);
  if (problem) return { error: `\`${newName}\` ${problem}, and Polytoken needs a file named after the definition.` };
  const { ctx } = file;
  const dir = posix.dirname(ctx.path);
  const newPath = posix.join(dir, `${newName}.md`);
  if (newPath !== ctx.path && options.exists(newPath))
    return { error: `${newName}.md already exists in this folder; choose another name.` };
  const others: KnownDefinition[] = [];
  for (const d of options.definitions)
    if (d.kind === 'polytoken' && d.path !== ctx.path && nameOf(d) === newName) others.push(d);
  const sameFolder = others.find((d) => posix.dirname(d.path) === dir);
  if (sameFolder)
    return {
      error: `${posix.basename(sameFolder.path)} in this folder is already named \`${newName}\`; choose another name.`,
    };
  const edits = target.name === newName ? [] : [replaceValueEdit(ctx, target.node.start, target.node.end, newName)];
  const plan: FixPlan = {
    title: `Rename to \`${newName}\``,
    edits,
    ...(ctx.fileStem !== newName ? { rename: { newPath } } : {}),
  };
  return { plan, notes: shadowingNotes(file, newName, newPath, others) };
}

/** The other definitions named `newName` that would replace the renamed one, or that it would replace. */
function shadowingNotes(
  file: Extract<FeatureFile, { dialect: 'polytoken' }>,
  newName: string,
  newPath: string,
  others: readonly KnownDefinition[],
): string[] {
  const { ctx } = file;
  const shown = (path: string) => relativeInside(ctx.loaded.dir, path) ?? path;
  const replacedBy = others.filter((d) => replacesInDiscovery(ctx, newPath, d.path)).map((d) => shown(d.path));
  const replaces = others.filter((d) => replacesInDiscovery(ctx, d.path, newPath)).map((d) => shown(d.path));
  const notes: string[] = [];
  if (replacedBy.length)
    notes.push(
      `Another Polytoken definition named \`${newName}\` comes later in discovery order and replaces this one: ${replacedBy.join(', ')}. It was not renamed.`,
    );
  if (replaces.length)
    notes.push(
      `This definition, now named \`${newName}\`, replaces ${replaces.length === 1 ? 'an earlier one' : 'earlier ones'} of that name: ${replaces.join(', ')}. ${replaces.length === 1 ? 'It was' : 'They were'} not renamed.`,
    );
  return notes;
}

/** Why a name cannot be a file name on every system; undefined when it can. */
function fileNameProblem(name: string): string | undefined {
  if (!name.trim()) return 'is empty';
  const bad = /[/\\:*?"<>|\u0000-\u001f\u007f]/.exec(name);
  if (bad)
    return `holds ${/[\u0000-\u001f\u007f]/.test(bad[0]) ? 'a control character' : `\`${bad[0]}\``}, which a file name cannot hold`;
  if (name !== name.trim()) return 'starts or ends with white space, which file names do not keep reliably';
  if (name.endsWith('.')) return 'ends with a dot, which file names do not keep reliably';
  return undefined;
}

function picassoPlan(
  file: Extract<FeatureFile, { dialect: 'picasso' }>,
  typed: string,
  options: RenameOptions,
): Planned {
  // F2 on the invocation may be answered with the handle itself.
  const newName = typed.startsWith('@') ? typed.slice(1) : typed;
  if (!NAME_PATTERN.test(newName)) {
    return {
      error: `\`${newName}\` is not a snake_case name (lower-case letters and digits joined by single underscores, starting with a letter), which Picasso requires of a role's name.`,
    };
  }
  const { ctx } = file;
  const newPath = posix.join(posix.dirname(ctx.path), `${newName}${ctx.model.extension}`);
  if (newPath !== ctx.path && options.exists(newPath))
    return { error: `${posix.basename(newPath)} already exists in this folder; choose another name.` };
  for (const d of options.definitions) {
    if (d.kind !== 'picasso' || d.path === ctx.path || nameOf(d) !== newName) continue;
    if (options.scope !== undefined && relativeInside(options.scope, d.path) === undefined) continue;
    return {
      error: `The role in ${relativeInside(options.scope ?? ctx.loaded.dir, d.path) ?? d.path} is already named \`${newName}\`; choose another name.`,
    };
  }
  // The name fixes' own plan, aimed at the new name: name, invocation and file move together.
  const plan = renameRolePlan({ ...ctx, model: { ...ctx.model, targetName: newName } }) ?? { title: '', edits: [] };
  return { plan, notes: [] };
}

function profyPlan(file: Extract<FeatureFile, { dialect: 'profy' }>, target: Target, newName: string): Planned {
  const subagent = target.subagent!;
  if (!newName) return { error: 'A subagent needs a name: Profy drops one whose `name` is empty.' };
  const bad = badNameChars(newName);
  if (bad.length)
    return {
      error: `\`${newName}\` holds ${bad.join(', ')}, which Profy does not accept in a name: it would drop the subagent.`,
    };
  if (RESERVED_NAMES.has(newName))
    return { error: `\`${newName}\` is a reserved name: Profy would drop the subagent.` };
  const builtins = profySettings(file.ctx.config).builtinSubagents ?? [];
  if (builtins.includes(newName))
    return {
      error: `\`${newName}\` is a builtin subagent of the platform (\`profy.builtinSubagents\`): Profy would drop this one as a duplicate.`,
    };
  const taken = file.model.subagents.find((s) => s !== subagent && s.name === newName);
  if (taken)
    return {
      error: `Subagent #${taken.index} of this Expert is already named \`${newName}\`: Profy keeps the first of two and drops the other.`,
    };
  const edits =
    target.name === newName
      ? []
      : [replaceValueEdit(file.ctx, target.node.start, target.node.end, JSON.stringify(newName))];
  return { plan: { title: `Rename to \`${newName}\``, edits }, notes: [] };
}
