import type { Diagnostic } from 'vscode-languageserver-types';

/** At most this many diagnostics of one rule are shown per file; the rest are summed up in one more. */
export const MAX_DIAGNOSTICS_PER_RULE = 1000;

/**
 * Keeps the first MAX_DIAGNOSTICS_PER_RULE diagnostics of each rule (`sorted` is in
 * position order) and puts, where the first left-out one was, one diagnostic of the
 * same rule and severity saying how many more there are. A file with 130,000 unknown
 * tools then costs the editor and the report 1,001 entries, not 130,000.
 */
export function capPerRule(sorted: Diagnostic[]): Diagnostic[] {
  const total = new Map<unknown, number>();
  let over = false;
  for (const d of sorted) {
    const n = (total.get(d.code) ?? 0) + 1;
    total.set(d.code, n);
    if (n > MAX_DIAGNOSTICS_PER_RULE) over = true;
  }
  if (!over) return sorted;
  const seen = new Map<unknown, number>();
  const out: Diagnostic[] = [];
  for (const d of sorted) {
    const n = (seen.get(d.code) ?? 0) + 1;
    seen.set(d.code, n);
    if (n <= MAX_DIAGNOSTICS_PER_RULE) out.push(d);
    else if (n === MAX_DIAGNOSTICS_PER_RULE + 1) out.push(leftOut(d, total.get(d.code)! - MAX_DIAGNOSTICS_PER_RULE));
  }
  return out;
}

function leftOut(first: Diagnostic, count: number): Diagnostic {
  const rule = String(first.code);
  return {
    range: first.range,
    severity: first.severity,
    source: first.source,
    code: first.code,
    codeDescription: first.codeDescription,
    message: `${count.toLocaleString('en')} more \`${rule}\` problems in this file are not shown (only the first ${MAX_DIAGNOSTICS_PER_RULE.toLocaleString('en')} are); fix those first.`,
    data: { rule, omitted: count },
  };
}
