/**
 * Several fixes' edits applied to one text at once: the fixes whose edits do not overlap or
 * touch an accepted one's (identical edits from two diagnostics count once), in their order.
 */
import type { TextEdit } from 'vscode-languageserver-types';
import { SourceText } from '../text/source';
import type { FixPlan } from '../types';

const offsetsOf = (source: SourceText, e: TextEdit) => ({
  start: source.offset(e.range.start),
  end: source.offset(e.range.end),
  text: e.newText,
});

/** Fixes applied to a text, and where each one's edits landed in the result. */
export interface AppliedFixes<C> {
  text: string;
  applied: C[];
  /**
   * For each applied fix, the spans of its edits in `text` (offsets after a leading BOM, as SourceText counts them).
   */
  spans: Map<C, { start: number; end: number }[]>;
}

/**
 * Applies the non-overlapping fixes of `candidates` to `text` (in their order of appearance):
 * a fix whose edits overlap or touch an accepted edit waits for the next round.
 */
export function applyFixes<C extends { plan: FixPlan }>(text: string, candidates: readonly C[]): AppliedFixes<C> {
  const source = new SourceText(text);
  const accepted = new EditSet();
  const applied: C[] = [];
  const editsOf = new Map<C, OffsetEdit[]>();
  for (const c of candidates) {
    const edits = c.plan.edits.map((e) => offsetsOf(source, e));
    if (edits.some((e) => accepted.clashes(e))) continue;
    for (const e of edits) accepted.add(e);
    applied.push(c);
    editsOf.set(c, edits);
  }
  let out = '';
  let at = 0;
  const landed = new Map<string, { start: number; end: number }>();
  for (const e of accepted.inOrder()) {
    out += source.text.slice(at, e.start);
    landed.set(EditSet.key(e), { start: out.length, end: out.length + e.text.length });
    out += e.text;
    at = e.end;
  }
  const spans = new Map<C, { start: number; end: number }[]>();
  for (const [c, edits] of editsOf)
    spans.set(
      c,
      edits.map((e) => landed.get(EditSet.key(e))!),
    );
  // SourceText drops a leading BOM; keep it as the file had it.
  const bom = text.charCodeAt(0) === 0xfeff ? '\ufeff' : '';
  return { text: bom + out + source.text.slice(at), applied, spans };
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

  static key(e: OffsetEdit): string {
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
