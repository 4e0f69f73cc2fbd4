/**
 * Applying fixes: every preferred fix of a file at once, round after round, as "Fix all" and
 * `subagents check --fix` do. A round applies the fixes whose edits do not overlap (identical
 * edits from two diagnostics count once), re-analyses and goes on until nothing changes, at
 * most `maxRounds` times. A round that would make a file that parsed stop parsing is redone
 * fix by fix, keeping only the fixes that keep it parsing.
 */
import type { TextEdit } from 'vscode-languageserver-types';
import { analyze } from '../engine';
import { SourceText } from '../text/source';
import type { Analysis, DocumentInput, FixPlan } from '../types';
import { fixPlansFor, isAppliedByFixAll } from './registry';

export interface FixAllOptions {
  maxRounds?: number;
  /** Also apply file renames (tests that follow the editor's behaviour); the CLI never does. */
  renames?: boolean;
}

export interface FixAllResult {
  text: string;
  /** The path after renames (the input path without them). */
  path: string;
  /** Rounds that changed something. */
  rounds: number;
  /** Fixes applied, in order, with their rule ids. */
  applied: { rule: string; title: string }[];
  /** A text came back that an earlier round had produced: stopped there. */
  oscillated: boolean;
  /** The last analysis (of the final text). */
  analysis: Analysis;
}

interface Candidate {
  rule: string;
  plan: FixPlan;
}

/** The preferred fix of each diagnostic that "Fix all" applies, in position order. */
export function preferredFixes(analysis: Analysis, options: { renames?: boolean } = {}): Candidate[] {
  const out: Candidate[] = [];
  for (const d of analysis.diagnostics) {
    const plan = fixPlansFor(analysis, d).find((p) => p.preferred);
    if (!plan) continue;
    if (isAppliedByFixAll(plan) || (options.renames && plan.rename)) out.push({ rule: String(d.code), plan });
  }
  return out;
}

/**
 * Marks each diagnostic that "Fix all" and `--fix` would fix (`data.fixable`: its preferred fix
 * has edits in the file), for reports that count them. The diagnostics are the analysis's own.
 */
export function markFixable(analysis: Analysis): void {
  for (const d of analysis.diagnostics) {
    const plan = fixPlansFor(analysis, d).find((p) => p.preferred);
    if (plan && isAppliedByFixAll(plan)) d.data = { ...(d.data as object | undefined), fixable: true };
  }
}

const offsetsOf = (source: SourceText, e: TextEdit) => ({
  start: source.offset(e.range.start),
  end: source.offset(e.range.end),
  text: e.newText,
});

/**
 * Applies the non-overlapping fixes of `candidates` to `text` (in their order of appearance):
 * a fix whose edits overlap or touch an accepted edit waits for the next round.
 */
export function applyFixes(text: string, candidates: readonly Candidate[]): { text: string; applied: Candidate[] } {
  const source = new SourceText(text);
  const accepted = new EditSet();
  const applied: Candidate[] = [];
  for (const c of candidates) {
    const edits = c.plan.edits.map((e) => offsetsOf(source, e));
    if (edits.some((e) => accepted.clashes(e))) continue;
    for (const e of edits) accepted.add(e);
    applied.push(c);
  }
  let out = '';
  let at = 0;
  for (const e of accepted.inOrder()) {
    out += source.text.slice(at, e.start) + e.text;
    at = e.end;
  }
  // SourceText drops a leading BOM; keep it as the file had it.
  const bom = text.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  return { text: bom + out + source.text.slice(at), applied };
}

interface OffsetEdit {
  start: number;
  end: number;
  text: string;
}

/**
 * Accepted edits, sorted by position. Fixes mostly come in position order, so an edit usually
 * lands after the last one (constant time); otherwise a binary search finds its neighbours.
 */
class EditSet {
  private readonly edits: OffsetEdit[] = [];
  private readonly keys = new Set<string>();

  private static key(e: OffsetEdit): string {
    return `${e.start}:${e.end}:${e.text}`;
  }

  /** Overlaps or touches an accepted edit that is not the very same edit. */
  clashes(e: OffsetEdit): boolean {
    if (this.keys.has(EditSet.key(e))) return false;
    const next = this.edits[this.firstEndingAtOrAfter(e.start)];
    return !!next && next.start <= e.end;
  }

  add(e: OffsetEdit): void {
    const key = EditSet.key(e);
    if (this.keys.has(key)) return;
    this.keys.add(key);
    const last = this.edits[this.edits.length - 1];
    if (!last || last.start <= e.start) this.edits.push(e);
    else this.edits.splice(this.firstEndingAtOrAfter(e.start), 0, e);
  }

  inOrder(): readonly OffsetEdit[] {
    return this.edits;
  }

  /** The index of the first edit whose end is at or after `offset` (edits never overlap, so ends are sorted too). */
  private firstEndingAtOrAfter(offset: number): number {
    let lo = 0;
    let hi = this.edits.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.edits[mid].end < offset) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

const parses = (a: Analysis) => !a.findings.some((f) => f.rule.startsWith('syntax/'));

/** Applies every preferred fix of a file until nothing changes (at most `maxRounds` rounds). */
export function fixAll(input: DocumentInput, options: FixAllOptions = {}): FixAllResult {
  const maxRounds = options.maxRounds ?? 10;
  let text = input.text;
  let path = input.path;
  let analysis = analyze({ ...input, text, path });
  const seen = new Set<string>([text]);
  const applied: FixAllResult['applied'] = [];
  let rounds = 0;
  let oscillated = false;
  while (rounds < maxRounds) {
    const candidates = preferredFixes(analysis, options);
    if (!candidates.length) break;
    let next = applyFixes(text, candidates);
    let nextPath = path;
    const rename = options.renames ? next.applied.find((c) => c.plan.rename)?.plan.rename : undefined;
    if (rename) nextPath = rename.newPath;
    let nextAnalysis = analyze({ ...input, text: next.text, path: nextPath, parsed: undefined });
    if (parses(analysis) && !parses(nextAnalysis)) {
      // Keep only the fixes that keep the file parsing, one at a time.
      ({ next, nextAnalysis } = oneByOne(input, text, path, candidates));
      nextPath = path;
    }
    if (next.text === text && nextPath === path) break;
    if (seen.has(next.text) && nextPath === path) {
      oscillated = true;
      break;
    }
    seen.add(next.text);
    for (const c of next.applied) applied.push({ rule: c.rule, title: c.plan.title });
    text = next.text;
    path = nextPath;
    analysis = nextAnalysis;
    rounds++;
  }
  return { text, path, rounds, applied, oscillated, analysis };
}

function oneByOne(input: DocumentInput, text: string, path: string, candidates: readonly Candidate[]) {
  let current = { text, applied: [] as Candidate[] };
  let currentAnalysis = analyze({ ...input, text, path, parsed: undefined });
  for (const c of candidates) {
    if (c.plan.rename) continue;
    const tried = applyFixes(current.text, [c]);
    if (!tried.applied.length) continue;
    const a = analyze({ ...input, text: tried.text, path, parsed: undefined });
    if (!parses(a)) continue;
    current = { text: tried.text, applied: [...current.applied, c] };
    currentAnalysis = a;
    break; // the other fixes' ranges refer to the old text: next round
  }
  return { next: current, nextAnalysis: currentAnalysis };
}
