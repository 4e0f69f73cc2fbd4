import { createColors } from 'picocolors';
import type { Diagnostic, Range } from 'vscode-languageserver-types';
import { dialectModules, severityName } from '../shared';
import type { FileKind, SeverityName } from '../shared';
import { printable, printableJson } from '../shared';

/** One diagnostic as `check --format json` prints it (README: Command line). */
export interface JsonDiagnostic {
  rule: string;
  severity: SeverityName;
  message: string;
  range: Range;
}

export interface JsonFile {
  /** Relative to the current folder, `/` separators. */
  path: string;
  dialect: FileKind;
  diagnostics: JsonDiagnostic[];
}

export interface Summary {
  files: number;
  errors: number;
  warnings: number;
  information: number;
  hints: number;
}

/** `check --format json`: exactly this document. */
export interface JsonReport {
  files: JsonFile[];
  summary: Summary;
}

export function ruleOf(d: Diagnostic): string {
  const data = d.data as { rule?: unknown } | undefined;
  if (typeof d.code === 'string') return d.code;
  return typeof data?.rule === 'string' ? data.rule : String(d.code ?? 'unknown');
}

/**
 * What the text and SARIF reports say of a diagnostic beyond the JSON document, kept beside it
 * (the JSON report, and the MCP server's, print exactly the documented fields).
 */
export interface DiagnosticFacts {
  /** `--fix` would apply a fix for it (check-runner marks `data.fixable`). */
  fixable?: boolean;
  /** The unknown-tool rule's entry, as written. */
  unknownTool?: string;
}

const factsOfDiagnostic = new WeakMap<JsonDiagnostic, DiagnosticFacts>();

export const factsOf = (d: JsonDiagnostic): DiagnosticFacts => factsOfDiagnostic.get(d) ?? {};

/** The unknown-tool rules of every dialect (the tool name is in the finding's `data.tool`). */
function isUnknownToolRule(rule: string): boolean {
  return dialectModules().some((m) => m.editor.unknownToolRule === rule);
}

export function toJsonDiagnostic(d: Diagnostic): JsonDiagnostic {
  const json = plainDiagnostic(d);
  const data = (d.data ?? {}) as { fixable?: unknown; tool?: unknown };
  const facts: DiagnosticFacts = {};
  if (data.fixable === true) facts.fixable = true;
  if (typeof data.tool === 'string' && isUnknownToolRule(json.rule)) facts.unknownTool = data.tool;
  if (facts.fixable || facts.unknownTool !== undefined) factsOfDiagnostic.set(json, facts);
  return json;
}

function plainDiagnostic(d: Diagnostic): JsonDiagnostic {
  return {
    rule: ruleOf(d),
    severity: severityName(d.severity),
    message: typeof d.message === 'string' ? d.message : (d.message as { value: string }).value,
    range: {
      start: { line: d.range.start.line, character: d.range.start.character },
      end: { line: d.range.end.line, character: d.range.end.character },
    },
  };
}

export function buildReport(files: { path: string; kind: FileKind; diagnostics: readonly Diagnostic[] }[]): JsonReport {
  const summary: Summary = { files: files.length, errors: 0, warnings: 0, information: 0, hints: 0 };
  const out: JsonFile[] = files.map((f) => {
    const diagnostics = f.diagnostics.map(toJsonDiagnostic);
    for (const d of diagnostics) {
      if (d.severity === 'error') summary.errors++;
      else if (d.severity === 'warning') summary.warnings++;
      else if (d.severity === 'information') summary.information++;
      else summary.hints++;
    }
    return { path: f.path, dialect: f.kind, diagnostics };
  });
  return { files: out, summary };
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function summaryLine(s: Summary): string {
  return `${plural(s.files, 'file')} checked: ${plural(s.errors, 'error')}, ${plural(s.warnings, 'warning')}, ${s.information} information, ${plural(s.hints, 'hint')}.`;
}

export type Colors = ReturnType<typeof createColors>;
const PLAIN = createColors(false);

/**
 * Colour for the text report: on a terminal only; NO_COLOR turns it off, FORCE_COLOR (not
 * empty, "0" or "false") on, and wins over NO_COLOR as in Node itself.
 */
export function textColors(env: NodeJS.ProcessEnv, isTTY: boolean): Colors {
  const force = env.FORCE_COLOR;
  if (force !== undefined && force !== '') return createColors(force !== '0' && force !== 'false');
  return createColors(isTTY && !env.NO_COLOR);
}

/**
 * `path:line:col severity message [rule]`, 1-based, one line per diagnostic, then the summary.
 * Control characters in a path or a message are escaped (`printable`): one diagnostic is one line.
 */
/** The colour of each severity's word, in the text and stylish reports. */
export function severityColors(c: Colors): Record<SeverityName, (s: string) => string> {
  return { error: c.red, warning: c.yellow, information: c.blue, hint: c.dim };
}

export function formatText(report: JsonReport, c: Colors = PLAIN): string {
  const severity = severityColors(c);
  const lines: string[] = [];
  for (const f of report.files) {
    for (const d of f.diagnostics) {
      lines.push(
        `${c.bold(printable(f.path))}:${d.range.start.line + 1}:${d.range.start.character + 1} ${severity[d.severity](d.severity)} ${printable(d.message)} ${c.dim(`[${printable(d.rule)}]`)}`,
      );
    }
  }
  const s = report.summary;
  const summary = summaryLine(s);
  lines.push(s.errors ? c.red(c.bold(summary)) : s.warnings ? c.yellow(c.bold(summary)) : c.green(summary));
  return lines.join('\n') + '\n';
}

export function formatJson(report: JsonReport): string {
  return printableJson(report) + '\n';
}
