/**
 * Every rule's metadata: each registered dialect's own (its module's `ruleMeta`, in registry
 * order), then the generic rules. `RULES` is a live list: a dialect registered or disposed of
 * later is added or removed in place.
 */
import type { SeverityName } from '../basics';
import { dialectModules, onDialectsChanged } from '../dialects';
import type { PicassoRuleId } from '../dialects/picasso/rule-meta';
import type { PolytokenRuleId } from '../dialects/polytoken/rule-meta';
import type { ProfyRuleId } from '../dialects/profy/rule-meta';
import { GENERIC_RULES, type GenericRuleId, type RuleMeta } from './ids';

export { DOCS_BASE_URL, ruleDocsUrl, type RuleMeta } from './ids';

/** A rule id of a built-in dialect or a generic rule: a misspelled one does not compile. */
export type BuiltinRuleId = PolytokenRuleId | ProfyRuleId | PicassoRuleId | GenericRuleId;

/** Every rule, grouped by dialect in registry order (the order docs/runtimes/ describes them), then the generic ones. */
export const RULES: readonly RuleMeta[] = [];
const byId = new Map<string, RuleMeta>();

function refresh(): void {
  const all = RULES as RuleMeta[];
  all.length = 0;
  byId.clear();
  for (const module of dialectModules()) for (const meta of module.ruleMeta) all.push(meta);
  for (const meta of GENERIC_RULES) all.push(meta);
  for (const meta of all) byId.set(meta.id, meta);
}
refresh();
onDialectsChanged(refresh);

export function ruleMeta(id: string): RuleMeta | undefined {
  return byId.get(id);
}

/** A finding's severity before any display setting: its own, else its rule's default. */
export function defaultSeverity(finding: { rule: string; severity?: SeverityName }): SeverityName {
  return finding.severity ?? ruleMeta(finding.rule)?.defaultSeverity ?? 'error';
}

export function isRuleId(id: string): boolean {
  return byId.has(id);
}
