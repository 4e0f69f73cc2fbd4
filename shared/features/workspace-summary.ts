/**
 * The workspace view's line for each definition of a file (`subagents/workspace`): the
 * runtime's verdict, the tool count, the problems as shown and where the name is. Read from
 * the resolution, whose status uses the rules' DEFAULT severities: `rules:`, editor settings
 * and suppression comments change the problem counts, never the status. Pure: the server keeps
 * these summaries and drops the analysis.
 */
import { DiagnosticSeverity, type Diagnostic, type Range } from 'vscode-languageserver-types';
import { posix } from 'path';
import type { Analysis, IndexedName } from '../types';
import { dialectModule, dialectModules } from '../dialects';
import type { DialectModule } from '../dialects/module';
import { relativeInside, toPosix } from '../files';
import type { ProblemCounts, WorkspaceDefinition, WorkspaceRuntime } from '../protocol';
import { shownStatus } from '../results';
import type { ResolvedDefinition } from '../results';
import { definitionNames } from '../workspace/names';
import { resolveWithProvenance } from './resolve';

export interface SummaryPlace {
  /** The workspace folder holding the file (absolute, posix): groups are relative to it. */
  folder?: string;
  /** Prefix each group with the folder's name: a workspace of several folders. */
  multiRoot?: boolean;
}

/** The problems as the editor shows them (after `rules:` and suppression comments). */
function problemCounts(diagnostics: readonly Diagnostic[]): ProblemCounts {
  const counts: ProblemCounts = { errors: 0, warnings: 0, information: 0, hints: 0 };
  for (const d of diagnostics) addTo(counts, d);
  return counts;
}

/**
 * A path as the view names it: relative to the workspace folder (its name for the folder itself), absolute outside it.
 */
function placeLabel(path: string, place: SummaryPlace): string {
  const folder = place.folder;
  if (!folder) return path;
  const name = posix.basename(folder) || folder;
  if (path === folder) return name;
  const rel = relativeInside(folder, path);
  if (rel === undefined) return path;
  return place.multiRoot ? `${name}/${rel}` : rel;
}

/** Every registered runtime as the view shows it, in display order. */
export function workspaceRuntimes(): WorkspaceRuntime[] {
  return [...dialectModules()]
    .sort((a, b) => a.displayOrder - b.displayOrder)
    .map((m) => ({ id: m.id, title: m.title, ...m.view }));
}

/**
 * Where a definition belongs under its runtime (its module's `view.groupKind`): the project
 * holding its project folder (Polytoken's `.polytoken/subagents/`), else its folder; or the
 * file's own definition (a Profy Expert).
 */
function groupOf(module: DialectModule, path: string, names: readonly IndexedName[], place: SummaryPlace): string {
  if (module.view.groupKind === 'definition') return names[0]?.name ?? posix.basename(path);
  const dir = posix.dirname(path);
  const projectFolder = module.files.projectFolder;
  if (module.view.groupKind !== 'project' || !projectFolder || !`/${dir}`.endsWith(`/${projectFolder}`))
    return placeLabel(dir, place);
  let project = dir;
  for (let i = projectFolder.split('/').length; i > 0; i--) project = posix.dirname(project);
  return placeLabel(project, place);
}

/** Every definition of an analysed file as the workspace view lists it; none for files that are not definitions. */
export function summarizeFile(analysis: Analysis, uri: string, place: SummaryPlace = {}): WorkspaceDefinition[] {
  const ctx = analysis.context;
  const dialect = analysis.kind;
  const module = ctx && dialect ? dialectModule(dialect) : undefined;
  if (!ctx || !dialect || !module) return [];
  const resolution = resolveWithProvenance(analysis, uri);
  if (!resolution) return [];
  const path = toPosix(ctx.path);
  const many = module.definitionsPerFile === 'many';
  const problemsOf = definitionProblems(analysis.diagnostics, many ? resolution.definitions.map((d) => d.range) : []);
  const names = definitionNames(dialect, ctx.file, path);
  const posixPlace: SummaryPlace = { ...place, folder: place.folder && toPosix(place.folder) };
  const group = groupOf(module, path, names, posixPlace);
  const nameRanges = many ? nestedNameRanges(resolution.definitions, names.slice(1)) : [];
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
      unknown: d.unknown?.length ?? 0,
      problems: problemsOf(index),
      range: many ? nameRanges[index] : (d.range ?? FIRST_LINE),
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

/**
 * Where each of several definitions of a file is named (a Profy subagent's `name`): the name
 * inside its range (the resolver's range is the whole entry); without one, the start of its
 * entry. Both lists are in document order: one pass.
 */
function nestedNameRanges(definitions: readonly ResolvedDefinition[], names: readonly IndexedName[]): Range[] {
  let next = 0;
  return definitions.map((d) => {
    const entry = d.range;
    if (!entry) return FIRST_LINE;
    while (next < names.length && !atOrBefore(entry.start, names[next].range.start)) next++;
    const name = names[next];
    if (name && atOrBefore(name.range.end, entry.end)) {
      next++;
      return name.range;
    }
    return { start: entry.start, end: entry.start };
  });
}
