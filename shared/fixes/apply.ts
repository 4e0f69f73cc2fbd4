/**
 * Applying fixes: every preferred fix of a file at once, round after round, as "Fix all" and
 * `subagents check --fix` do. Each round is verified (./round.ts): only the fixes that hold
 * the property of ./property.ts, alone and together, are applied; the others are demoted. The
 * rounds go on until nothing changes, at most `maxRounds` times.
 */
import { analyze } from '../engine';
import type { Analysis, DocumentInput } from '../types';
import { firstRound, proposedFixes, verifyRound, type Candidate, type RoundOptions } from './round';

export { applyFixes } from './apply-edits';

export interface FixAllOptions extends RoundOptions {
  maxRounds?: number;
}

export interface FixAllResult {
  text: string;
  /** The path after renames (the input path without them). */
  path: string;
  /** Rounds that changed something. */
  rounds: number;
  /** Fixes applied, in order, with their rule ids. */
  applied: { rule: string; title: string }[];
  /**
   * Fixes the rules propose for the final text that break the property, with why: left to the author (the editor offers
   * them).
   */
  demoted: { rule: string; title: string; reason: string }[];
  /** Analyses made to verify the rounds. */
  analyses: number;
  /** A text came back that an earlier round had produced: stopped there. */
  oscillated: boolean;
  /** The last analysis (of the final text). */
  analysis: Analysis;
}

/** The preferred fixes "Fix all" applies to this analysis in its first round (verified). */
export function preferredFixes(analysis: Analysis, options: RoundOptions = {}): Candidate[] {
  const file = analysis.context?.file ?? analysis.configDocument?.file;
  return file ? firstRound(analysis, file.source.text, !!options.renames).accepted : [];
}

/**
 * Marks each diagnostic that "Fix all" and `--fix` fix in their first round (`data.fixable`: its
 * preferred fix, verified with the round's others), for reports that count them. The
 * diagnostics are the analysis's own.
 */
export function markFixable(analysis: Analysis): void {
  // Most files have nothing to fix: no verification for them.
  if (!proposedFixes(analysis).length) return;
  for (const { diagnostic } of preferredFixes(analysis))
    diagnostic.data = { ...(diagnostic.data as object | undefined), fixable: true };
}

/** Applies every preferred fix of a file until nothing changes (at most `maxRounds` rounds). */
export function fixAll(input: DocumentInput, options: FixAllOptions = {}): FixAllResult {
  const maxRounds = options.maxRounds ?? 10;
  let text = input.text;
  let path = input.path;
  let analysis = analyze(input);
  const seen = new Set<string>([text]);
  const applied: FixAllResult['applied'] = [];
  let demoted: FixAllResult['demoted'] = [];
  let analyses = 0;
  let rounds = 0;
  let oscillated = false;
  while (rounds < maxRounds) {
    const round = verifyRound({ text, analysis, onRuleError: input.onRuleError }, options);
    analyses += round.analyses;
    demoted = round.demoted.map((d) => ({ rule: d.candidate.rule, title: d.candidate.plan.title, reason: d.reason }));
    if (!round.accepted.length || (round.text === text && round.path === path)) break;
    if (seen.has(round.text) && round.path === path) {
      oscillated = true;
      break;
    }
    seen.add(round.text);
    for (const c of round.accepted) applied.push({ rule: c.rule, title: c.plan.title });
    ({ text, path, analysis } = round);
    rounds++;
  }
  return { text, path, rounds, applied, demoted, analyses, oscillated, analysis };
}
