import type { Outcome, ResolvedDefinition, RuleContext } from '../../types';
import { verdictOf } from '../verdict';
import type { ExpertModel, SubagentModel, Toolset } from './model';

/** A Profy definition carries, beyond the fields every resolution has, the toolset it was resolved against. */
export interface ProfyResolvedDefinition extends ResolvedDefinition {
  /** Where the main toolset came from: `expert` (its `tools`), `config` (`profy.mainTools`) or `unknown`. */
  toolset: Toolset['source'];
  notes?: string[];
}

/**
 * The resolution (docs/runtimes/profy.md): one definition per `subagents` entry, in file order.
 *
 * The status is computed from the same model the drop rules use, not from the final
 * diagnostics: turning a rule off in `.subagents.yaml` silences it, but Profy still drops
 * the subagent, and the resolution shows what the runtime does.
 *
 * Unknown toolset: plain names and globs cannot be checked, so `tools` stays empty, the
 * entries that could not be checked are listed in `unexpanded`, a note says so, and the
 * status is `dropped` only when a rule that does not need the toolset fires (including
 * no-tools when no entry could ever resolve); otherwise `loads`.
 *
 * A file with JSON syntax errors cannot be read by Profy at all: the engine resolves it to one
 * `dropped` definition (`unparsableStatus`), and this resolver is not asked.
 */
export function resolveProfy(ctx: RuleContext<ExpertModel>, outcome: Outcome): ResolvedDefinition[] {
  const model = ctx.model;
  return model.subagents.map((s) => definition(ctx, s, model.toolset, outcome));
}

function definition(
  ctx: RuleContext<ExpertModel>,
  s: SubagentModel,
  toolset: Toolset,
  outcome: Outcome,
): ProfyResolvedDefinition {
  const reasons = [...s.dropReasons];
  const range = ctx.file.source.range(s.node.start, s.node.end);
  // Which of the drop rules the author's display settings hide here (the runtime drops the subagent all the same).
  const { silenced } = verdictOf(outcome, range, (rule) => s.dropReasons.includes(rule));
  const notes: string[] = [];
  const unexpanded = s.entries.filter((e) => e.unchecked).map((e) => e.text!);
  if (!toolset.known && s.isObject && !s.toolsNotArray) {
    notes.push(
      "The main agent's toolset is unknown (no Expert `tools`, no `profy.mainTools`), so which of these entries resolve cannot be told.",
    );
  }
  return {
    name: s.label,
    status: reasons.length ? 'dropped' : 'loads',
    tools: s.tools,
    unexpanded,
    removed: s.removed,
    dropped: s.dropped,
    provenance: s.provenance,
    reasons,
    ...(silenced.length ? { silenced } : {}),
    range,
    toolset: toolset.source,
    ...(notes.length ? { notes } : {}),
  };
}
