import type { Outcome, RemovedTool, ResolvedDefinition, RuleContext } from '../../types';
import { verdictOf } from '../verdict';
import type { PolytokenModel } from './model';
import { polytokenSettings } from './settings';

/**
 * The tool set Polytoken grants the definition (docs/runtimes/polytoken.md, "Resolution"):
 * `tools` expanded, inherited facet tools added (never `switch_facet`), `tools_deny` removed,
 * `switch_facet` removed, `exit_tool` added. Status: rejected when a rule whose default
 * severity is error fires, whatever the display settings say.
 */
export function resolvePolytoken(ctx: RuleContext<PolytokenModel>, outcome: Outcome): ResolvedDefinition[] {
  const model = ctx.model;
  const granted = new Map<string, string[]>();
  const grant = (tool: string, why: string) => {
    const list = granted.get(tool) ?? [];
    if (!list.includes(why)) list.push(why);
    granted.set(tool, list);
  };
  const unexpanded: string[] = [];
  const removed: RemovedTool[] = [];

  // 1. `tools`: literal names as they are, shorthands through the catalog.
  for (const e of model.entries.tools) {
    if (!e.expansion) {
      if (!unexpanded.includes(e.text)) unexpanded.push(e.text);
      continue;
    }
    for (const t of e.expansion) grant(t, e.meaning.kind === 'name' ? 'tools' : `tools: ${e.text}`);
  }
  // 2. inherit_tools: the calling facet's tools, never switch_facet.
  if (model.inheritTools) {
    for (const t of polytokenSettings(ctx.config).facetTools) if (t !== 'switch_facet') grant(t, 'inherit_tools');
  }
  // 3. tools_deny.
  for (const e of model.entries.tools_deny) {
    if (granted.delete(e.text)) removed.push({ tool: e.text, by: 'tools_deny' });
  }
  // 4. switch_facet is never available to a subagent.
  if (granted.delete('switch_facet')) removed.push({ tool: 'switch_facet', by: 'switch_facet' });
  // 5. exit_tool is always registered.
  grant('exit_tool', 'always registered');

  const tools = [...granted.keys()].sort();
  const undeferred = [...new Set(model.entries.undeferred_tools.map((e) => e.text))].filter((t) => granted.has(t));
  const { reasons, silenced } = verdictOf(outcome);
  const provenance: Record<string, string[]> = {};
  for (const t of tools) provenance[t] = granted.get(t)!;
  const nameNode = model.name !== undefined ? model.nameNode : undefined;
  const shadowed = outcome.findings.find((f) => f.rule === 'polytoken/shadowed')?.data?.by;
  return [
    {
      name: model.registeredName,
      status: reasons.length ? 'rejected' : 'loads',
      tools,
      undeferred,
      unexpanded,
      removed,
      provenance,
      ...(reasons.length ? { reasons } : {}),
      ...(silenced.length ? { silenced } : {}),
      ...(typeof shadowed === 'string' ? { shadowedBy: shadowed } : {}),
      range: nameNode ? ctx.file.source.range(nameNode.start, nameNode.end) : ctx.file.source.firstLine(),
    },
  ];
}
