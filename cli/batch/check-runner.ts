/**
 * What every thread of `checkPaths` does, serial or in workers: read and name the files whose
 * names clash across files, for the name index (phase 1), then analyze files reusing those
 * reads (phase 2).
 */
import {
  analyze,
  dialectModule,
  fileStem,
  findingsToDiagnostics,
  markFixable,
  unreadableReason,
  type Analysis,
  type WorkspaceIndex,
} from '../../shared';
import type { LoadedConfig } from '../../shared';
import { SourceText } from '../../shared';
import type { ParsedFile } from '../../shared';
import type { Dialect, FileKind, Finding } from '../../shared';
import type { CheckOptions, FileReport } from './check-types';
import { unreadableConfigFinding } from '../../shared/node';
import { definitionNames, nameIndex, namesClash, quickName, type NameLists } from '../../shared';
import { discoveryFolders, readDiscoveryFolders, registeredName } from '../../shared';
import { nodeWorkspaceHost } from '../../shared/node';
import { tooLargeReason } from '../../shared';
import { readRegularFile, RefusedFileError } from '../../shared/node';
import { describeError } from '../../shared/node';

/** The name a file registers under, from its parse (undefined: it could not be read, so its stem). */
export function nameOf(kind: Dialect, parsed: ParsedFile | undefined, path: string): string {
  return registeredName(kind, parsed && definitionNames(kind, parsed, path), path);
}

export interface Item {
  path: string;
  kind: FileKind;
  config: LoadedConfig;
  root: string;
}

export interface ReadError {
  index: number;
  path: string;
  message: string;
}

/**
 * The work every thread does, in two phases: (1) read and name the files whose names clash
 * (Polytoken shadowing, Picasso duplicate roles), keeping the parse; (2) analyze files, reusing it.
 */
export class Runner {
  private readonly cache = new Map<
    number,
    | { text: string; parsed?: ParsedFile; quickName?: string }
    | { tooLarge: { bytes: number; limit: number } }
    | undefined
  >();

  constructor(
    private readonly items: readonly Item[],
    private readonly onRuleError?: (rule: string, error: unknown) => void,
    /** Texts that replace files on disk (standard input). */
    private readonly contents?: ReadonlyMap<string, string>,
    /**
     * Whether phase 1 may read a name off a plain `name:` line. A broken file's parse can name it
     * otherwise, which phase 2 corrects; files phase 2 does not analyze must be parsed instead.
     */
    private readonly quickNames = true,
  ) {}

  private read(path: string): string {
    return this.contents?.get(path) ?? readRegularFile(path);
  }

  /** Phase 1: the name a file whose names clash registers under, or why it could not be read. */
  indexEntry(index: number): { name: string } | { error: string } {
    const c = this.items[index];
    let text: string;
    try {
      text = this.read(c.path);
    } catch (e) {
      if (e instanceof RefusedFileError && e.tooLarge) {
        this.cache.set(index, { tooLarge: e.tooLarge });
        return { name: nameOf(c.kind, undefined, c.path) };
      }
      this.cache.set(index, undefined);
      return { error: describeError(e) };
    }
    const module = dialectModule(c.kind);
    if (unreadableReason(text) || !module) {
      this.cache.set(index, { text });
      return { name: nameOf(c.kind, undefined, c.path) };
    }
    // Most files name themselves on one plain `name:` line: no parse is needed (nor kept) yet.
    const quick = this.quickNames ? quickName(c.kind, text, c.path)?.name : undefined;
    if (quick !== undefined) {
      this.cache.set(index, { text, quickName: quick });
      return { name: quick };
    }
    const parsed = module.parse(new SourceText(text), c.path);
    this.cache.set(index, { text, parsed });
    return { name: nameOf(c.kind, parsed, c.path) };
  }

  /** Drops phase-1 results (a chunk that failed and is done again elsewhere). */
  forget(indexes: readonly number[]): void {
    for (const i of indexes) this.cache.delete(i);
  }

  /** The files this thread read in phase 1 (it analyzes them too). */
  owned(): number[] {
    return [...this.cache.keys()];
  }

  /**
   * Phase 2: one file's analysis; `skipped` when phase 1 already reported it unreadable.
   * `corrected`: the parse names the file differently from its quick name, or from
   * `indexedName`, the name the index holds for a file another thread named (a broken file).
   */
  analyzeOne(
    index: number,
    workspace: WorkspaceIndex,
    indexedName?: string,
  ): { analysis: Analysis; corrected?: string } | { error: string } | { skipped: true } {
    const c = this.items[index];
    let text: string;
    let parsed: ParsedFile | undefined;
    let quickName: string | undefined;
    if (this.cache.has(index)) {
      const cached = this.cache.get(index);
      this.cache.delete(index);
      if (!cached) return { skipped: true };
      if ('tooLarge' in cached) return { analysis: tooLargeAnalysis(c.kind, c.path, cached.tooLarge) };
      ({ text, parsed, quickName } = cached);
    } else {
      try {
        text = this.read(c.path);
      } catch (e) {
        // A configuration that cannot be read is reported on itself (README, Configuration): the check carries on with
        // the defaults.
        if (c.kind === 'config') {
          const findings = [unreadableConfigFinding(e)];
          return { analysis: { kind: 'config', findings, diagnostics: findingsToDiagnostics(findings) } };
        }
        if (e instanceof RefusedFileError && e.tooLarge)
          return { analysis: tooLargeAnalysis(c.kind, c.path, e.tooLarge) };
        return { error: describeError(e) };
      }
    }
    const analysis = analyze({
      text,
      path: c.path,
      config: c.config,
      root: c.root,
      kind: c.kind,
      workspace,
      parsed,
      onRuleError: this.onRuleError,
    });
    // The reports count what `--fix` would fix (report.ts `DiagnosticFacts`).
    markFixable(analysis);
    const registered = quickName ?? indexedName;
    if (registered !== undefined) {
      const name = nameOf(c.kind, analysis.context?.file, c.path);
      if (name !== registered) return { analysis, corrected: name };
    }
    return { analysis };
  }
}

/** A definition above the size limit, not read: reported on its first line, as the engine reports a text that large. */
function tooLargeAnalysis(kind: FileKind, path: string, size: { bytes: number; limit: number }): Analysis {
  const rule = dialectModule(kind)?.syntaxRule ?? 'syntax/yaml';
  const findings: Finding[] = [
    {
      rule,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      message: tooLargeReason(size.bytes, size.limit),
    },
  ];
  return { kind, path, findings, diagnostics: findingsToDiagnostics(findings) };
}

/** The files phase 1 names: those of the dialects whose names clash (Polytoken shadowing, Picasso duplicate roles). */
export function namedIndexes(items: readonly Item[]): number[] {
  const out: number[] = [];
  items.forEach((c, i) => namesClash(c.kind) && out.push(i));
  return out;
}

/**
 * A quick name the parse disagrees with (only in broken files) made the index wrong for
 * that name: fix the index and check again every named file the change can concern
 * (its own name or its file name is the old or the new name), on this thread. Returns
 * the corrected index, or undefined when nothing needed correcting.
 */
export function applyCorrections(
  items: readonly Item[],
  names: Map<number, string>,
  corrections: readonly [number, string][],
  reports: (FileReport | undefined)[],
  options: CheckOptions,
  keep: (index: number) => boolean,
): WorkspaceIndex | undefined {
  if (!corrections.length) return undefined;
  const concerned = new Set<string>();
  for (const [i, name] of corrections) {
    concerned.add(names.get(i)!);
    concerned.add(name);
    names.set(i, name);
  }
  const workspace = buildIndex(items, names);
  const runner = new Runner(items, options.onRuleError, options.contents);
  items.forEach((c, i) => {
    if (!namesClash(c.kind) || !reports[i]) return;
    if (!concerned.has(names.get(i)!) && !concerned.has(fileStem(c.path, c.kind))) return;
    const r = runner.analyzeOne(i, workspace);
    if (!('analysis' in r)) return;
    options.onAnalysis?.(c.path, r.analysis);
    reports[i] = {
      path: c.path,
      kind: c.kind,
      diagnostics: r.analysis.diagnostics,
      ...(keep(i) ? { analysis: r.analysis } : {}),
    };
  });
  return workspace;
}

/**
 * The names other files' rules need, per dialect whose names clash: the checked files named in
 * phase 1 and those of the dialect's discovery folders under their configurations (Polytoken's
 * global folder and `subagentDirs`: read for shadowing, never reported). Entries keep the
 * candidates' order. Only the plain lists go to worker threads; each groups them itself (a Map
 * of 50,000 entries clones slowly).
 */
export function buildIndex(
  items: readonly Item[],
  names: ReadonlyMap<number, string>,
): WorkspaceIndex & { readonly lists: NameLists } {
  const entries = new Map<Dialect, Map<string, string>>();
  const configs = new Map<Dialect, Set<LoadedConfig>>();
  items.forEach((c, i) => {
    if (!namesClash(c.kind)) return;
    const name = names.get(i);
    let byPath = entries.get(c.kind);
    if (!byPath) {
      entries.set(c.kind, (byPath = new Map()));
      configs.set(c.kind, new Set());
    }
    if (name !== undefined) byPath.set(c.path, name);
    configs.get(c.kind)!.add(c.config);
  });
  const lists: NameLists = {};
  for (const [kind, byPath] of entries) {
    const dirs = discoveryFolders(kind, configs.get(kind)!);
    for (const e of readDiscoveryFolders(kind, dirs, nodeWorkspaceHost, (path) => byPath.has(path)))
      byPath.set(e.path, registeredName(kind, e.names, e.path));
    lists[kind] = [...byPath].map(([path, name]) => ({ path, name }));
  }
  return nameIndex(lists);
}
