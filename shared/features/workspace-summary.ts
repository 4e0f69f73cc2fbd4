/**
 * The workspace view's line for each definition of a file (`subagents/workspace`): the
 * runtime's verdict, the tool count, the problems as shown and where the name is. Read from
 * the resolution, whose status uses the rules' DEFAULT severities: `rules:`, editor settings
 * and suppression comments change the problem counts, never the status. Pure: the server keeps
 * these summaries and drops the analysis.
 */
import { DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver-types';
import { posix } from 'path';
import type { Analysis } from '../types';
import { relativeInside, toPosix } from '../files';
import type { ProblemCounts, WorkspaceDefinition } from '../protocol';
import type { ExpertModel } from '../dialects/profy/model';
import { shownStatus } from '../results';
import type { Dialect } from '../types';
import type { SourceText } from '../text/source';
import type { AstNode } from '../text/tree';
import { definitionNames } from '../workspace/names';
import { resolveWithProvenance } from './resolve';

export interface SummaryPlace {
  /** The workspace folder holding the file (absolute, posix): groups are relative to it. */
  folder?: string;
  /** Prefix each group with the folder's name: a workspace of several folders. */
  multiRoot?: boolean;
}

const PROJECT_DIR = /(^|\/)\.polytoken\/subagents$/;

/** The problems as the editor shows them (after `rules:` and suppression comments). */
function problemCounts(diagnostics: readonly Diagnostic[]): ProblemCounts {
  const counts: ProblemCounts = { errors: 0, warnings: 0, information: 0, hints: 0 };
  for (const d of diagnostics) addTo(counts, d);
  return counts;
}

/** A path as the view names it: relative to the workspace folder (its name for the folder itself), absolute outside it. */
function placeLabel(path: string, place: SummaryPlace): string {
  const folder = place.folder;
  if (!folder) return path;
  const name = posix.basename(folder) || folder;
  if (path === folder) return name;
  const rel = relativeInside(folder, path);
  if (rel === undefined) return path;
  return place.multiRoot ? `${name}/${rel}` : rel;
}

/**
 * Where a definition belongs under its runtime: Polytoken, the project holding its
 * `.polytoken/subagents/` (or the discovery folder it is in); Picasso, its folder; Profy, the Expert.
 */
export function groupOf(dialect: Dialect, path: string, expert: string | undefined, place: SummaryPlace): string {
  if (dialect === 'profy') return expert ?? posix.basename(path);
  const dir = posix.dirname(path);
  const project = dialect === 'polytoken' && PROJECT_DIR.test(dir) ? posix.dirname(posix.dirname(dir)) : dir;
  return placeLabel(project, place);
}

/** Every definition of an analysed file as the workspace view lists it; none for files that are not definitions. */
export function summarizeFile(analysis: Analysis, uri: string, place: SummaryPlace = {}): WorkspaceDefinition[] {
  const ctx = analysis.context;
  const dialect = analysis.kind;
  if (!ctx || !dialect || dialect === 'config') return [];
  const resolution = resolveWithProvenance(analysis, uri);
  if (!resolution) return [];
  const path = toPosix(ctx.path);
  const entries = resolution.definitions.map((d) => d.range);
  const problemsOf = definitionProblems(analysis.diagnostics, dialect === 'profy' ? entries : []);
  const expert = dialect === 'profy' ? definitionNames('profy', ctx.file, path)[0]?.name : undefined;
  const posixPlace: SummaryPlace = { ...place, folder: place.folder && toPosix(place.folder) };
  const group = groupOf(dialect, path, expert, posixPlace);
  const subagents = dialect === 'profy' ? (ctx.model as ExpertModel | undefined)?.subagents : undefined;
  return resolution.definitions.map((d, index) => {
    // A rejected definition is not loaded at all; shadowing is only news for one that would load.
    const status = shownStatus(d);
    const shadowed = status === 'shadowed';
    const out: WorkspaceDefinition = {
      uri,
      name: d.name,
      dialect,
      group,
      status,
      tools: d.tools.length,
      problems: problemsOf(index),
      range:
        dialect === 'profy'
          ? profyNameRange(ctx.file.source, subagents?.[index]?.nameNode, d.range)
          : (d.range ?? FIRST_LINE),
      index,
    };
    // The rule that said so: the finding naming the definition that replaces this one.
    const by = d.shadowedBy;
    const shadowing = shadowed ? analysis.findings.find((f) => f.data?.by === by)?.rule : undefined;
    const reasons = shadowed ? (shadowing ? [shadowing] : []) : (d.reasons ?? []);
    if (reasons.length) out.reasons = [...new Set(reasons)];
    if (d.silenced?.length) out.silenced = d.silenced;
    if (shadowed && by !== undefined) out.shadowedBy = placeLabel(toPosix(by), { folder: posixPlace.folder });
    return out;
  });
}

/**
 * Each definition's problems: in an Expert, those inside its `subagents` entry plus those outside
 * every entry (the Expert's own, which concern all of them), so a subagent that loads is not
 * shown with its sibling's errors. A file with one definition has all of the file's.
 */
function definitionProblems(
  diagnostics: readonly Diagnostic[],
  entries: readonly (Range | undefined)[],
): (index: number) => ProblemCounts {
  if (entries.length < 2) {
    const all = problemCounts(diagnostics);
    return () => all;
  }
  // The entries are array items, in document order and disjoint: one binary search per diagnostic.
  const sorted = entries.flatMap((range, index) => (range ? [{ range, index }] : []));
  const own = entries.map(() => problemCounts([]));
  const shared = problemCounts([]);
  for (const d of diagnostics) {
    let lo = 0;
    let hi = sorted.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (atOrBefore(sorted[mid].range.start, d.range.start)) {
        found = mid;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    const entry = found >= 0 && atOrBefore(d.range.end, sorted[found].range.end) ? sorted[found].index : -1;
    addTo(entry >= 0 ? own[entry] : shared, d);
  }
  return (index) => sumCounts(shared, own[index]);
}

const atOrBefore = (a: Range['start'], b: Range['start']) =>
  a.line < b.line || (a.line === b.line && a.character <= b.character);

function addTo(counts: ProblemCounts, d: Diagnostic): void {
  const s = d.severity ?? DiagnosticSeverity.Error;
  if (s === DiagnosticSeverity.Error) counts.errors++;
  else if (s === DiagnosticSeverity.Warning) counts.warnings++;
  else if (s === DiagnosticSeverity.Information) counts.information++;
  else counts.hints++;
}

function sumCounts(a: ProblemCounts, b: ProblemCounts | undefined): ProblemCounts {
  if (!b) return { ...a };
  return {
    errors: a.errors + b.errors,
    warnings: a.warnings + b.warnings,
    information: a.information + b.information,
    hints: a.hints + b.hints,
  };
}

const FIRST_LINE: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };

/** A Profy subagent's `name` value; without one, the start of its entry (the resolver's range is the whole entry). */
function profyNameRange(source: SourceText, nameNode: AstNode | undefined, entry: Range | undefined): Range {
  if (nameNode) return source.range(nameNode.start, nameNode.end);
  return entry ? { start: entry.start, end: entry.start } : FIRST_LINE;
}
