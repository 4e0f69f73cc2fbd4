/**
 * `check --format stylish`, the default on a terminal: the diagnostics grouped under their
 * file, one `line:col  severity  message  rule` row each (ESLint's "stylish"), identical
 * consecutive messages folded into one row, the message wrapped to the terminal's width, and
 * a summary that counts the problems and those `--fix` would fix.
 */
import type { SeverityName } from '../shared';
import { printable } from '../shared';
import { factsOf, severityColors, type Colors, type JsonDiagnostic, type JsonReport } from './report';

export interface StylishOptions {
  colors: Colors;
  /** The terminal's width; undefined (piped, a file): no wrapping. */
  width?: number;
}

/** Below this many columns for the message, wrapping would make a column of single words. */
const MIN_MESSAGE_WIDTH = 30;
/** A folded row names at most this many further positions. */
const FOLDED_POSITIONS = 4;

interface Row {
  position: string;
  severity: SeverityName;
  message: string;
  rule: string;
}

const at = (d: JsonDiagnostic): string => `${d.range.start.line + 1}:${d.range.start.character + 1}`;

/** One row per run of consecutive diagnostics with the same severity, message and rule. */
function rowsOf(diagnostics: readonly JsonDiagnostic[]): Row[] {
  const rows: Row[] = [];
  for (let i = 0; i < diagnostics.length;) {
    const d = diagnostics[i];
    let j = i + 1;
    while (j < diagnostics.length && sameProblem(diagnostics[j], d)) j++;
    const others = diagnostics.slice(i + 1, Math.min(j, i + 1 + FOLDED_POSITIONS)).map(at);
    const more = j - i - 1 - others.length;
    const folded = j - i > 1 ? ` (×${j - i}: also ${others.join(', ')}${more ? ` and ${more} more` : ''})` : '';
    rows.push({
      position: at(d),
      severity: d.severity,
      message: printable(d.message) + folded,
      rule: printable(d.rule),
    });
    i = j;
  }
  return rows;
}

const sameProblem = (a: JsonDiagnostic, b: JsonDiagnostic): boolean =>
  a.severity === b.severity && a.message === b.message && a.rule === b.rule;

/** `text` cut at spaces into lines of at most `width` characters (a longer word stays whole). */
export function wrapWords(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines;
}

export function formatStylish(report: JsonReport, { colors: c, width }: StylishOptions): string {
  const severityColor = severityColors(c);
  const out: string[] = [];
  for (const f of report.files) {
    if (!f.diagnostics.length) continue;
    const rows = rowsOf(f.diagnostics);
    const positionWidth = rows.reduce((w, r) => Math.max(w, r.position.length), 0);
    const severityWidth = rows.reduce((w, r) => Math.max(w, r.severity.length), 0);
    const ruleWidth = rows.reduce((w, r) => Math.max(w, r.rule.length), 0);
    const indent = 2 + positionWidth + 2 + severityWidth + 2;
    // Wide enough: the message wraps in its column with the rule beside it; narrower, the message
    // takes the whole width and the rule its own line; narrower still, nothing wraps.
    const besideRule = width === undefined ? Infinity : width - indent - 2 - ruleWidth;
    const alone = width === undefined ? Infinity : width - indent;
    const ruleBeside = besideRule >= MIN_MESSAGE_WIDTH || alone < MIN_MESSAGE_WIDTH;
    const wrapAt = besideRule >= MIN_MESSAGE_WIDTH ? besideRule : alone >= MIN_MESSAGE_WIDTH ? alone : Infinity;
    const shownWidth = Math.min(
      wrapAt,
      rows.reduce((w, r) => Math.max(w, r.message.length), 0),
    );
    out.push('', c.underline(printable(f.path)));
    for (const r of rows) {
      const lines = wrapAt === Infinity ? [r.message] : wrapWords(r.message, wrapAt);
      const head = `  ${c.dim(r.position.padStart(positionWidth))}  ${severityColor[r.severity](r.severity.padEnd(severityWidth))}  `;
      if (ruleBeside) out.push(`${head}${lines[0].padEnd(shownWidth)}  ${c.dim(r.rule)}`.trimEnd());
      else out.push(`${head}${lines[0]}`);
      for (const more of lines.slice(1)) out.push(' '.repeat(indent) + more);
      if (!ruleBeside) out.push(' '.repeat(indent) + c.dim(r.rule));
    }
  }
  out.push('', ...summaryLines(report, c));
  return out.join('\n') + '\n';
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** `✖ 5 problems (3 errors, 2 warnings) in 4 files`, then how many `--fix` would fix. */
function summaryLines(report: JsonReport, c: Colors): string[] {
  const s = report.summary;
  const problems = s.errors + s.warnings + s.information + s.hints;
  const files = `${plural(s.files, 'file')} checked`;
  if (!problems) return [c.green(`✔ no problems in ${files}`)];
  const counts = [
    plural(s.errors, 'error'),
    plural(s.warnings, 'warning'),
    ...(s.information ? [`${s.information} information`] : []),
    ...(s.hints ? [plural(s.hints, 'hint')] : []),
  ];
  const paint = s.errors ? c.red : s.warnings ? c.yellow : c.blue;
  const lines = [paint(c.bold(`✖ ${plural(problems, 'problem')} (${counts.join(', ')}) in ${files}`))];
  let fixable = 0;
  for (const f of report.files) for (const d of f.diagnostics) if (factsOf(d).fixable) fixable++;
  if (fixable) lines.push(`  ${fixable} of them fixable with \`--fix\` (\`--fix-dry-run\` shows the changes).`);
  return lines;
}
