/**
 * Renaming a Picasso role (F2 on its `name` or `invocation`): `name`, `invocation` and the file,
 * through the same plan as the name quick fixes (`renameRolePlan`). Roles do not refer to each
 * other, so nothing else changes; the new name must be free in the workspace folder.
 */
import { posix } from 'path';
import { relativeInside } from '../../../files';
import type { FeatureFile, RenameOptions, RenamePlan, RenameTarget, Refusal } from '../../module';
import { NAME_PATTERN } from '../constants';
import type { PicassoModel } from '../model';
import { renameRolePlan } from '../rules/name';

type PicassoFile = FeatureFile<PicassoModel>;

const within = (node: { start: number; end: number }, offset: number) => offset >= node.start && offset <= node.end;

const NOT_ON_A_NAME = 'Put the cursor on the definition\u2019s `name` to rename it.';

export function picassoRenameTarget(file: PicassoFile, offset: number): RenameTarget | Refusal {
  const { name, invocation } = file.model;
  if (!name?.value) return { error: NOT_ON_A_NAME };
  if (within(name.node, offset)) return { node: name.node, name: name.value };
  if (invocation && within(invocation.node, offset)) return { node: invocation.node, name: name.value };
  return { error: NOT_ON_A_NAME };
}

export function picassoRenamePlan(
  file: PicassoFile,
  _target: RenameTarget,
  typed: string,
  options: RenameOptions,
): RenamePlan {
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
    if (d.kind !== file.dialect || d.path === ctx.path || d.names[0]?.name !== newName) continue;
    if (options.scope !== undefined && relativeInside(options.scope, d.path) === undefined) continue;
    return {
      error: `The role in ${relativeInside(options.scope ?? ctx.loaded.dir, d.path) ?? d.path} is already named \`${newName}\`; choose another name.`,
    };
  }
  // The name fixes' own plan, aimed at the new name: name, invocation and file move together.
  // Stryker disable next-line StringLiteral: a rename edit reads a plan's edits and file move, never its title
  const plan = renameRolePlan({ ...ctx, model: { ...ctx.model, targetName: newName } }) ?? { title: '', edits: [] };
  return { plan, notes: [] };
}
