/**
 * Every rule's metadata: each registered dialect's own (its module's `ruleMeta`, in registry
 * order), then the generic rules. `RULES` is a live list: a dialect registered or disposed of
 * later is added or removed in place. The ids are checked at compile time where they are
 * written: each dialect types its findings with its own ids, the generic rules with theirs.
 */
import type { SeverityName } from '../basics';
import { dialectModules, onDialectsChanged } from '../dialects';
import { GENERIC_RULES, type RuleMeta } from './ids';
import { onForgetMemos } from '../memos';

export { DOCS_BASE_URL, ruleDocsUrl, type RuleMeta } from './ids';

/**
 * Every rule, grouped by dialect in registry order (the order docs/runtimes/ describes them), then the generic ones.
 */
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
onForgetMemos(refresh);

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
