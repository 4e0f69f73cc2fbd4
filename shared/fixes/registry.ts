/**
 * Every rule's quick fixes, by full rule id, gathered from the rules that register them
 * beside their checks. `fixPlansFor` is the one way features and `--fix` ask for fixes.
 */
import type { Diagnostic, Range } from 'vscode-languageserver-types';
import { dialectModule, dialectModules } from '../dialects';
import type { DialectModule } from '../dialects/module';
import type { ParsedFile } from '../text/document';
import type { Analysis, FixPlan, FixProvider, FixRequest, FixTarget, Rule, RuleId } from '../types';
import { inLineEndingOf, nodeForRange } from './edits';
import { directiveFixes } from '../rules/directives';
import { configFixPlans } from '../config/fixes';
import { syntaxYamlFixes } from './syntax';
import { skeletonFixes } from './plans';
import { onForgetMemos } from '../memos';

/** Each dialect's fixes by rule id, per list of rules (a module's list may be swapped: tests do). */
let byRules = new WeakMap<readonly Rule<unknown>[], Map<string, FixProvider<unknown>>>();
onForgetMemos(() => (byRules = new WeakMap()));

function providersOf(module: DialectModule): Map<string, FixProvider<unknown>> {
  let providers = byRules.get(module.rules);
  // Stryker disable next-line ConditionalExpression: a memo; the map built again from the same rules is the same
  if (!providers) {
    providers = new Map();
    for (const rule of module.rules)
      for (const [id, provider] of Object.entries(rule.fixes ?? {})) if (provider) providers.set(id, provider);
    byRules.set(module.rules, providers);
  }
  return providers;
}

/** Fixes that need only the file, not a dialect's model: they apply to `.subagents.yaml` too. */
const fileFixes = new Map<string, (req: FixTarget) => FixPlan[]>([
  ['config/invalid', configFixPlans],
  ['syntax/yaml', syntaxYamlFixes],
]);
for (const [id, provider] of Object.entries(directiveFixes())) if (provider) fileFixes.set(id, provider);

/**
 * Syntax findings that say a definition file holds nothing yet, and when: its module's skeleton
 * fixes them (`skeletonFixes`). A dialect's own rule that says so registers the same fix beside
 * its check (an empty role file).
 */
const skeletonCases = new Map<string, (file: ParsedFile) => boolean>([
  ['syntax/frontmatter', (file) => file.frontmatter?.kind === 'none'],
  ['syntax/json', (file) => !file.source.text.trim()],
]);

/** The rule ids that have quick fixes (docs and tests list them). */
export function rulesWithFixes(): RuleId[] {
  const ids: string[] = [];
  for (const module of dialectModules()) for (const id of providersOf(module).keys()) ids.push(id);
  for (const id of fileFixes.keys()) ids.push(id);
  for (const id of skeletonCases.keys()) if (!ids.includes(id)) ids.push(id);
  return ids as RuleId[];
}

const sameRange = (a: Range, b: Range) =>
  a.start.line === b.start.line &&
  a.start.character === b.start.character &&
  a.end.line === b.end.line &&
  a.end.character === b.end.character;

const messageOf = (d: Diagnostic) =>
  typeof d.message === 'string' ? d.message : (d.message as { value?: string })?.value;

/**
 * The engine's own diagnostic for one a client sent back (clients may drop `data`): same rule,
 * range and message; several findings can share a rule and a range (missing keys on the first line).
 */
export function ownDiagnostic(analysis: Analysis, given: Diagnostic, rule: string): Diagnostic | undefined {
  const candidates = analysis.diagnostics.filter((d) => d.code === rule && sameRange(d.range, given.range));
  return (
    candidates.find((d) => d.message === messageOf(given)) ?? (candidates.length === 1 ? candidates[0] : undefined)
  );
}

/** The fixes of one of the analysis's diagnostics; a provider that throws offers none. */
export function fixPlansFor(analysis: Analysis, diagnostic: Diagnostic): FixPlan[] {
  const rule = typeof diagnostic.code === 'string' ? diagnostic.code : undefined;
  const file = analysis.kind === 'config' ? analysis.configDocument?.file : analysis.context?.file;
  const fileFix = rule && fileFixes.get(rule);
  const module = analysis.context && analysis.kind ? dialectModule(analysis.kind) : undefined;
  const skeletonCase = rule && skeletonCases.get(rule);
  const ruleFix =
    rule && module
      ? (providersOf(module).get(rule) ??
        (skeletonCase
          ? (req: FixRequest) => (skeletonCase(req.ctx.file) ? skeletonFixes(req, (name) => module.skeleton(name)) : [])
          : undefined))
      : undefined;
  if (!file || (!fileFix && !ruleFix)) return [];
  const start = file.source.offset(diagnostic.range.start);
  const end = file.source.offset(diagnostic.range.end);
  const node = nodeForRange(file.root, start, end);
  // A value copied through an alias has the alias's range: an edit there would rewrite `*base`.
  if (node?.viaAlias) return [];
  const target: FixTarget = {
    ctx: { file },
    diagnostic,
    data: (diagnostic.data ?? {}) as Record<string, unknown>,
    start,
    end,
    node,
    directives: analysis.directives ?? [],
  };
  const plans = guarded(() => (fileFix ? fileFix(target) : ruleFix!({ ...target, ctx: analysis.context! })));
  // Lines a fix inserts end as the file's own do (rules write `\n`).
  return plans.map((p) => ({ ...p, edits: inLineEndingOf(file.source.text, p.edits) }));
}

/** A provider that throws offers no fix. */
function guarded(plans: () => FixPlan[]): FixPlan[] {
  try {
    return plans();
  } catch {
    return [];
  }
}

/**
 * A fix `--fix` and "Fix all" apply: a preferred one with edits in the file. Only its edits
 * are applied there; a rename that comes with them is left to the author (the name-mismatch
 * warning then says so).
 */
export function isAppliedByFixAll(plan: FixPlan): boolean {
  return !!plan.preferred && plan.edits.length > 0;
}
