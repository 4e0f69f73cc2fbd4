/**
 * Renaming in a Profy Expert (F2): a subagent's `name`, within its Expert. The Expert's own
 * name is referred to by other Experts' delegation settings, which may live anywhere, so it is
 * not renamed here. A name Profy would drop the subagent for is refused.
 */
import { replaceValueEdit } from '../../../fixes/edits';
import { getValue } from '../../../text/tree';
import type { FeatureFile, RenamePlan, RenameTarget, Refusal } from '../../module';
import { RESERVED_NAMES } from '../constants';
import { badNameChars, type ExpertModel, type SubagentModel } from '../model';
import { profySettings } from '../settings';

type ProfyFile = FeatureFile<ExpertModel>;

const within = (node: { start: number; end: number } | undefined, offset: number) =>
  !!node && offset >= node.start && offset <= node.end;

export function profyRenameTarget(file: ProfyFile, offset: number): RenameTarget | Refusal {
  for (const s of file.model.subagents)
    if (s.name !== undefined && within(s.nameNode, offset)) return { node: s.nameNode!, name: s.name, entry: s };
  if (within(getValue(file.model.expert, 'name'), offset)) {
    return {
      error:
        'An Expert is not renamed here: other Experts name it in their `delegationPolicy`, in files this editor may not have. Rename its subagents with F2 on their `name`.',
    };
  }
  return { error: 'Put the cursor on a subagent\u2019s `name` to rename it.' };
}

export function profyRenamePlan(file: ProfyFile, target: RenameTarget, newName: string): RenamePlan {
  const subagent = target.entry as SubagentModel;
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
