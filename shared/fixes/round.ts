/**
 * One round of "Fix all" and `--fix`, verified: the fixes the rules propose as preferred are
 * applied only where they hold the property of ./property.ts, alone and together.
 *
 * A round of at most `ALONE_LIMIT` fixes checks each alone first. Then the fixes left are
 * checked together: one analysis when they hold. A group that fails is narrowed by blame
 * (the fixes whose edits hold a finding of a kind that grew, or lie in a definition granted
 * more, are demoted for the round and the others checked again) and, when blame cannot tell,
 * by halving (each half on top of the fixes already accepted). At most `GROUP_ANALYSES`
 * analyses go to that; what is not decided by then waits for the next round. A demoted fix is
 * proposed again next round, when the file around it has changed; the editor still offers
 * it, not as the preferred one.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { SeverityName } from '../basics';
import { analyze } from '../engine';
import { defaultSeverity } from '../rules/registry';
import { severityName } from '../severity';
import type { Analysis, DocumentInput, FixPlan } from '../types';
import { applyFixes } from './apply-edits';
import { baselineOf, SEVERITY_RANK, worsening, type FixBaseline, type Worsening } from './property';
import { fixPlansFor, isAppliedByFixAll } from './registry';
import { onForgetMemos } from '../memos';

/** A fix a rule proposes as preferred, for one diagnostic of the analysis. */
export interface Candidate {
  rule: string;
  plan: FixPlan;
  diagnostic: Diagnostic;
  /** The default severity of the finding it fixes: it may gain nothing at this severity or above. */
  severity: SeverityName;
}

export interface RoundOptions {
  /** File renames are applied too (the editor's quick fixes, when the client can rename). */
  renames?: boolean;
}

/** The file a round works on: its text as it is (a BOM kept) and its analysis. */
export interface FixSubject {
  text: string;
  analysis: Analysis;
  onRuleError?: DocumentInput['onRuleError'];
}

export interface VerifiedRound {
  /** The fixes applied together this round. */
  accepted: Candidate[];
  /** Proposed fixes that break the property, with why: offered, not applied this round. */
  demoted: { candidate: Candidate; reason: string }[];
  /**
   * Proposed fixes not decided this round (their edits overlap an accepted one's, or the round ran out of analyses).
   */
  waiting: Candidate[];
  text: string;
  path: string;
  analysis: Analysis;
  /** Analyses made to verify the round. */
  analyses: number;
}

/** At most this many fixes in a round are each checked alone before they are checked together. */
export const ALONE_LIMIT = 16;
/** Analyses a round spends on checking its fixes together (and narrowing a group that fails). */
export const GROUP_ANALYSES = 32;

/** The preferred fix each diagnostic's rule proposes, in position order (not verified). */
export function proposedFixes(analysis: Analysis, options: RoundOptions = {}): Candidate[] {
  const out: Candidate[] = [];
  for (const d of analysis.diagnostics) {
    const plan = fixPlansFor(analysis, d).find((p) => p.preferred);
    if (!plan || !(isAppliedByFixAll(plan) || (options.renames && plan.rename))) continue;
    out.push({ rule: String(d.code), plan, diagnostic: d, severity: findingSeverity(analysis, d) });
  }
  return out;
}

let findingSeverities = new WeakMap<Analysis, Map<string, SeverityName>>();
const findingKey = (rule: unknown, message: string, line: number, character: number) =>
  `${String(rule)}\u0000${line}\u0000${character}\u0000${message}`;

/**
 * The default severity of the finding behind a diagnostic (its shown one may be the author's override). The
 * findings are indexed once per analysis: a lookup per diagnostic would be quadratic in a file's findings.
 */
function findingSeverity(analysis: Analysis, d: Diagnostic): SeverityName {
  let index = findingSeverities.get(analysis);
  if (!index) {
    index = new Map();
    for (const f of analysis.findings) {
      const key = findingKey(f.rule, f.message, f.range.start.line, f.range.start.character);
      if (!index.has(key)) index.set(key, defaultSeverity(f));
    }
    findingSeverities.set(analysis, index);
  }
  const found =
    typeof d.message === 'string'
      ? index.get(findingKey(d.code, d.message, d.range.start.line, d.range.start.character))
      : undefined;
  return found ?? severityName(d.severity);
}

interface State {
  applied: Candidate[];
  text: string;
  path: string;
  analysis: Analysis;
  baseline: FixBaseline;
  /** Where each applied fix's edits are in `text`. */
  spans: Map<Candidate, { start: number; end: number }[]>;
}

/** Verifies and applies one round of the preferred fixes of `subject`. */
export function verifyRound(subject: FixSubject, options: RoundOptions = {}): VerifiedRound {
  const { text, analysis } = subject;
  const start: State = {
    applied: [],
    text,
    path: analysis.input?.path ?? '',
    analysis,
    baseline: baselineOf(analysis),
    spans: new Map(),
  };
  const proposed = analysis.input ? proposedFixes(analysis, options) : [];
  const picked = applyFixes(text, proposed).applied;
  const round = new Round(subject, options, start);
  // One by one: a file's proposals are as many as its findings (no spread into arguments).
  const taken = new Set(picked);
  for (const c of proposed) if (!taken.has(c)) round.waiting.push(c);
  const end = round.together(start, round.alone(picked));
  return {
    accepted: end.applied,
    demoted: round.demoted,
    waiting: round.waiting,
    text: end.text,
    path: end.path,
    analysis: end.analysis,
    analyses: round.analyses,
  };
}

class Round {
  readonly demoted: VerifiedRound['demoted'] = [];
  readonly waiting: Candidate[] = [];
  analyses = 0;
  private groupAnalyses = 0;

  constructor(
    private readonly subject: FixSubject,
    private readonly options: RoundOptions,
    private readonly start: State,
  ) {}

  /** The fixes that hold the property each on its own (all of them when the round is too large to check one by one). */
  alone(picked: Candidate[]): Candidate[] {
    if (picked.length < 2 || picked.length > ALONE_LIMIT) return picked;
    return picked.filter((c) => {
      this.analyses++;
      const why = worsening(this.start.baseline, applied(this.subject, [c], this.options).baseline, c.severity);
      if (why) this.demoted.push({ candidate: c, reason: why.reason });
      return !why;
    });
  }

  /** `group` on top of `state`: as much of it as holds the property together. */
  together(state: State, group: Candidate[]): State {
    if (!group.length) return state;
    if (this.groupAnalyses >= GROUP_ANALYSES) {
      for (const c of group) this.waiting.push(c);
      return state;
    }
    this.analyses++;
    this.groupAnalyses++;
    const next = applied(this.subject, state.applied.concat(group), this.options);
    const why = worsening(state.baseline, next.baseline, lowest(group));
    if (!why) return next;
    if (group.length === 1) {
      this.demoted.push({ candidate: group[0], reason: why.reason });
      return state;
    }
    const suspects = blamed(next, group, why);
    if (suspects.length && suspects.length < group.length) {
      for (const c of suspects) this.demoted.push({ candidate: c, reason: why.reason });
      return this.together(
        state,
        group.filter((c) => !suspects.includes(c)),
      );
    }
    const half = group.length >> 1;
    return this.together(this.together(state, group.slice(0, half)), group.slice(half));
  }
}

/** `set` applied to the subject's text (with the first rename among them when renames are on) and analysed. */
function applied(subject: FixSubject, set: Candidate[], options: RoundOptions): State {
  const input = subject.analysis.input!;
  const next = applyFixes(subject.text, set);
  const rename = options.renames ? set.find((c) => c.plan.rename)?.plan.rename : undefined;
  const path = rename?.newPath ?? input.path;
  const after = analyze({ ...input, text: next.text, path, onRuleError: subject.onRuleError });
  return { applied: set, text: next.text, path, analysis: after, baseline: baselineOf(after), spans: next.spans };
}

/**
 * The fixes of a failing group whose edits share a line with a finding of a kind that grew,
 * or lie in a definition granted more: the likely culprits (the others are checked again
 * without them; one blamed wrongly is only put off to the next round).
 */
function blamed(next: State, group: readonly Candidate[], why: Worsening): Candidate[] {
  const source = (next.analysis.context?.file ?? next.analysis.configDocument?.file)?.source;
  if (!source) return [];
  const places: { from: number; to: number }[] = [];
  for (const f of next.analysis.findings)
    if (why.grownKeys.has(`${f.rule} ${defaultSeverity(f)}`))
      places.push({ from: f.range.start.line, to: f.range.end.line });
  for (const i of why.grownDefinitions) {
    const range = next.baseline.grants[i]?.range;
    if (range) places.push({ from: range.start.line, to: range.end.line });
  }
  if (!places.length) return [];
  return group.filter((c) =>
    (next.spans.get(c) ?? []).some((span) => {
      const from = source.position(span.start).line;
      const to = source.position(span.end).line;
      return places.some((p) => p.from <= to && from <= p.to);
    }),
  );
}

const lowest = (group: readonly Candidate[]): SeverityName =>
  group.reduce<SeverityName>((low, c) => (SEVERITY_RANK[c.severity] < SEVERITY_RANK[low] ? c.severity : low), 'error');

let rounds = new WeakMap<Analysis, Map<boolean, VerifiedRound>>();
let alone = new WeakMap<Analysis, Map<boolean, Map<Diagnostic, boolean>>>();
/** Each diagnostic a round decided: true when its fix was accepted, false when demoted. */
let decisions = new WeakMap<VerifiedRound, Map<Diagnostic, boolean>>();
onForgetMemos(() => {
  findingSeverities = new WeakMap();
  rounds = new WeakMap();
  alone = new WeakMap();
  decisions = new WeakMap();
});

function decisionOf(round: VerifiedRound, diagnostic: Diagnostic): boolean | undefined {
  let decided = decisions.get(round);
  if (!decided) {
    decided = new Map();
    for (const d of round.demoted) decided.set(d.candidate.diagnostic, false);
    for (const c of round.accepted) decided.set(c.diagnostic, true);
    decisions.set(round, decided);
  }
  return decided.get(diagnostic);
}

/** The analysed text (the editor's document; a leading BOM dropped, which changes no finding). */
const textOf = (analysis: Analysis) => (analysis.context?.file ?? analysis.configDocument?.file)?.source.text;

/**
 * A diagnostic's fixes as the editor offers them: the fix its rule proposes as preferred stays
 * preferred only if it holds the property, as "Fix all" finds in its first round (a fix that
 * round does not decide is checked alone). Rounds and checks are kept per analysis, so asking
 * again for the same document version costs nothing.
 */
export function offeredFixes(analysis: Analysis, diagnostic: Diagnostic, options: RoundOptions = {}): FixPlan[] {
  const plans = fixPlansFor(analysis, diagnostic);
  const proposal = plans.find((p) => p.preferred);
  if (!proposal) return plans;
  const holds = proposalHolds(analysis, diagnostic, proposal, !!options.renames);
  return plans.map((p) => (p.preferred && (p !== proposal || !holds) ? { ...p, preferred: false } : p));
}

/** "Fix all"'s first round on this analysis, verified once and kept with it. */
export function firstRound(analysis: Analysis, text: string, renames: boolean): VerifiedRound {
  let byOptions = rounds.get(analysis);
  if (!byOptions) rounds.set(analysis, (byOptions = new Map()));
  let round = byOptions.get(renames);
  if (!round) byOptions.set(renames, (round = verifyRound({ text, analysis }, { renames })));
  return round;
}

function proposalHolds(analysis: Analysis, diagnostic: Diagnostic, plan: FixPlan, renames: boolean): boolean {
  const text = textOf(analysis);
  if (text === undefined || !analysis.input) return false;
  if (!isAppliedByFixAll(plan) && !(renames && plan.rename)) return false;
  const round = firstRound(analysis, text, renames);
  const decided = decisionOf(round, diagnostic);
  if (decided !== undefined) return decided;
  // Not decided by the first round (waiting for its turn): alone.
  let byOptions = alone.get(analysis);
  if (!byOptions) alone.set(analysis, (byOptions = new Map()));
  let checked = byOptions.get(renames);
  if (!checked) byOptions.set(renames, (checked = new Map()));
  let holds = checked.get(diagnostic);
  if (holds === undefined) {
    const severity = findingSeverity(analysis, diagnostic);
    const candidate: Candidate = { rule: String(diagnostic.code), plan, diagnostic, severity };
    const after = applied({ text, analysis }, [candidate], { renames });
    holds = !worsening(baselineOf(analysis), after.baseline, severity);
    checked.set(diagnostic, holds);
  }
  return holds;
}
