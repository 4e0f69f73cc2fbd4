import type { Outcome, RemovedTool, ResolvedDefinition, RuleContext } from '../../types';
import { verdictOf } from '../verdict';
import type { PicassoModel } from './model';

/**
 * The tools Picasso grants the role (docs/runtimes/picasso.md, "Resolution"): `tools` minus
 * `deny` minus what the memory scope refuses. Status: rejected when a rule whose default
 * severity is error fires, whatever the display settings say.
 */
export function resolvePicasso(ctx: RuleContext<PicassoModel>, outcome: Outcome): ResolvedDefinition[] {
  const model = ctx.model;
  const removed: RemovedTool[] = [];
  const tools: string[] = [];
  const seen = new Set<string>();
  for (const e of model.entries.tools) {
    if (seen.has(e.text)) continue;
    seen.add(e.text);
    if (e.removedBy === 'deny') removed.push({ tool: e.text, by: 'deny' });
    else if (e.removedBy === 'memory') removed.push({ tool: e.text, by: `memory: ${model.memory!.value}` });
    else tools.push(e.text);
  }
  tools.sort();
  const { reasons, silenced } = verdictOf(outcome);
  const provenance: Record<string, string[]> = {};
  for (const tool of tools) provenance[tool] = ['tools'];
  const nameNode = model.name?.value ? model.name.node : undefined;
  return [
    {
      name: model.name?.value || ctx.fileStem,
      status: reasons.length ? 'rejected' : 'loads',
      tools,
      removed,
      provenance,
      ...(reasons.length ? { reasons } : {}),
      ...(silenced.length ? { silenced } : {}),
      range: nameNode ? ctx.file.source.range(nameNode.start, nameNode.end) : ctx.file.source.firstLine(),
    },
  ];
}
