/**
 * The runtime's verdict on a definition, from what the rules found with their DEFAULT
 * severities: the runtime reads no `rules:` override, editor setting or suppression comment,
 * so the status never depends on how the author chose to display a rule. The display choices
 * only decide which of the deciding rules are `silenced` (hidden or shown below error).
 */
import { DiagnosticSeverity, type Range } from 'vscode-languageserver-types';
import type { Outcome, RuleId } from '../types';

export interface Verdict {
  /** The rules whose error findings reject (or drop) the definition, in order of first finding. */
  reasons: RuleId[];
  /** Those of `reasons` no displayed error diagnostic shows. */
  silenced: RuleId[];
}

const inside = (r: Range, within: Range) =>
  (r.start.line > within.start.line ||
    (r.start.line === within.start.line && r.start.character >= within.start.character)) &&
  (r.end.line < within.end.line || (r.end.line === within.end.line && r.end.character <= within.end.character));

/** The deciding rules of the findings (within `scope`, when given: one Profy subagent). */
export function verdictOf(outcome: Outcome, scope?: Range, only?: (rule: RuleId) => boolean): Verdict {
  const reasons: RuleId[] = [];
  for (const f of outcome.findings) {
    if (outcome.defaultSeverity(f) !== 'error' || reasons.includes(f.rule) || (only && !only(f.rule))) continue;
    if (scope && !inside(f.range, scope)) continue;
    reasons.push(f.rule);
  }
  const shown = new Set<string>();
  for (const d of outcome.diagnostics) {
    if ((d.severity ?? DiagnosticSeverity.Error) !== DiagnosticSeverity.Error) continue;
    if (scope && !inside(d.range, scope)) continue;
    shown.add(String(d.code));
  }
  return { reasons, silenced: reasons.filter((r) => !shown.has(r)) };
}
