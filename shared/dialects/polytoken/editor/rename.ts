/**
 * Renaming a Polytoken definition (F2 on its `name`): `name` and the file, which the runtime
 * requires to be equal. Other definitions of the new name elsewhere in discovery order are
 * named in a note (shadowing), never renamed.
 */
import { posix } from 'path';
import { relativeInside } from '../../../files';
import { replaceValueEdit } from '../../../fixes/edits';
import type { FixPlan } from '../../../types';
import type { FeatureFile, KnownDefinition, RenamePlan, RenameTarget, Refusal, RenameOptions } from '../../module';
import type { PolytokenModel } from '../model';
import { replacesInDiscovery } from '../rules/shadowed';

type PolytokenFile = FeatureFile<PolytokenModel>;

const within = (node: { start: number; end: number }, offset: number) => offset >= node.start && offset <= node.end;

export const NOT_ON_A_NAME = 'Put the cursor on the definition\u2019s `name` to rename it.';

export function polytokenRenameTarget(file: PolytokenFile, offset: number): RenameTarget | Refusal {
  const { nameNode, name } = file.model;
  return name !== undefined && nameNode && within(nameNode, offset)
    ? { node: nameNode, name }
    : { error: NOT_ON_A_NAME };
}

/** The registered name of an indexed definition. */
const nameOf = (d: KnownDefinition): string | undefined => d.names[0]?.name;

export function polytokenRenamePlan(
  file: PolytokenFile,
  target: RenameTarget,
  newName: string,
  options: RenameOptions,
): RenamePlan {
  const problem = fileNameProblem(newName);
  if (problem) return { error: `\`${newName}\` ${problem}, and Polytoken needs a file named after the definition.` };
  const { ctx } = file;
  const dir = posix.dirname(ctx.path);
  const newPath = posix.join(dir, `${newName}.md`);
  if (newPath !== ctx.path && options.exists(newPath))
    return { error: `${newName}.md already exists in this folder; choose another name.` };
  const others: KnownDefinition[] = [];
  for (const d of options.definitions)
    if (d.kind === file.dialect && d.path !== ctx.path && nameOf(d) === newName) others.push(d);
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
  file: PolytokenFile,
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
