/**
 * What every thread of `checkPaths` does, serial or in workers: read and name Polytoken
 * files for the shadowing index (phase 1), then analyze files reusing those reads (phase 2).
 */
import {
  analyze,
  DIALECT_MODULES,
  fileStem,
  findingsToDiagnostics,
  unreadableReason,
  type Analysis,
  type WorkspaceIndex,
} from '../../shared';
import type { LoadedConfig } from '../../shared';
import { SourceText } from '../../shared';
import type { ParsedFile } from '../../shared';
import { getValue } from '../../shared';
import type { FileKind, Finding, NamedDefinition } from '../../shared';
import type { CheckOptions, FileReport } from './check-types';
import { unreadableConfigFinding } from '../../shared/node';
import { quickName } from '../../shared';
import { polytokenDiscoveryDirs, readDiscoveryFolders, registeredName } from '../../shared';
import { nodeWorkspaceHost } from '../../shared/node';
import { tooLargeReason } from '../../shared';
import { readRegularFile, RefusedFileError } from '../../shared/node';
import { describeError } from '../../shared/node';

/** The name a Polytoken definition or a Picasso role registers under: its `name`, else its file name. */
export function polytokenName(parsed: ParsedFile | undefined, path: string): string {
  const name = getValue(parsed?.root, 'name');
  return name?.kind === 'string' && name.value ? String(name.value) : fileStem(path);
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
 * The work every thread does, in two phases: (1) read and parse the Polytoken files,
 * for the shadowing index, keeping the parse; (2) analyze files, reusing that parse.
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

  /** Phase 1: the name a Polytoken file or a Picasso role registers under, or why it could not be read. */
  indexEntry(index: number): { name: string } | { error: string } {
    const c = this.items[index];
    let text: string;
    try {
      text = this.read(c.path);
    } catch (e) {
      if (e instanceof RefusedFileError && e.tooLarge) {
        this.cache.set(index, { tooLarge: e.tooLarge });
        return { name: polytokenName(undefined, c.path) };
      }
      this.cache.set(index, undefined);
      return { error: describeError(e) };
    }
    if (unreadableReason(text)) {
      this.cache.set(index, { text });
      return { name: polytokenName(undefined, c.path) };
    }
    // Most files name themselves on one plain `name:` line: no parse is needed (nor kept) yet.
    const kind = c.kind === 'picasso' ? 'picasso' : 'polytoken';
    const quick = this.quickNames ? quickName(kind, text, c.path)?.name : undefined;
    if (quick !== undefined) {
      this.cache.set(index, { text, quickName: quick });
      return { name: quick };
    }
    const parsed = DIALECT_MODULES[kind].parse(new SourceText(text), c.path);
    this.cache.set(index, { text, parsed });
    return { name: polytokenName(parsed, c.path) };
  }

  /** Drops phase-1 results (a chunk that failed and is done again elsewhere). */
  forget(indexes: readonly number[]): void {
    for (const i of indexes) this.cache.delete(i);
  }

  /** The Polytoken files this thread parsed in phase 1 (it analyzes them too). */
  owned(): number[] {
    return [...this.cache.keys()];
  }

  /**
   * Phase 2: one file's analysis; `skipped` when phase 1 already reported it unreadable.
   * `corrected`: the parse names the file differently from its quick name (a broken file).
   */
  analyzeOne(
    index: number,
    workspace: WorkspaceIndex,
  ): { analysis: Analysis; corrected?: string } | { error: string } | { skipped: true } {
    const c = this.items[index];
    let text: string;
    let parsed: ParsedFile | undefined;
    let quickName: string | undefined;
    if (this.cache.has(index)) {
      const cached = this.cache.get(index);
      this.cache.delete(index);
      if (!cached) return { skipped: true };
      if ('tooLarge' in cached) return { analysis: tooLargeAnalysis(c.kind, cached.tooLarge) };
      ({ text, parsed, quickName } = cached);
    } else {
      try {
        text = this.read(c.path);
      } catch (e) {
        // A configuration that cannot be read is reported on itself (README, Configuration): the check carries on with the defaults.
        if (c.kind === 'config') {
          const findings = [unreadableConfigFinding(e)];
          return { analysis: { kind: 'config', findings, diagnostics: findingsToDiagnostics(findings) } };
        }
        if (e instanceof RefusedFileError && e.tooLarge) return { analysis: tooLargeAnalysis(c.kind, e.tooLarge) };
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
    if (quickName !== undefined) {
      const name = polytokenName(analysis.context?.file, c.path);
      if (name !== quickName) return { analysis, corrected: name };
    }
    return { analysis };
  }
}

/** A definition above the size limit, not read: reported on its first line, as the engine reports a text that large. */
function tooLargeAnalysis(kind: FileKind, size: { bytes: number; limit: number }): Analysis {
  const rule = kind === 'profy' ? 'syntax/json' : 'syntax/yaml';
  const findings: Finding[] = [
    {
      rule,
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      message: tooLargeReason(size.bytes, size.limit),
    },
  ];
  return { kind, findings, diagnostics: findingsToDiagnostics(findings) };
}

/** The files phase 1 names: Polytoken definitions (shadowing) and Picasso roles (duplicate roles). */
export function namedIndexes(items: readonly Item[]): number[] {
  const out: number[] = [];
  items.forEach((c, i) => (c.kind === 'polytoken' || c.kind === 'picasso') && out.push(i));
  return out;
}

/**
 * A quick name the parse disagrees with (only in broken files) made the index wrong for
 * that name: fix the index and check again every Polytoken file the change can concern
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
    if ((c.kind !== 'polytoken' && c.kind !== 'picasso') || !reports[i]) return;
    if (!concerned.has(names.get(i)!) && !concerned.has(fileStem(c.path))) return;
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
 * The names other files' rules need: Polytoken definitions for shadowing (the checked ones,
 * named in phase 1, and those in the global folder and `subagentDirs`) and Picasso roles for
 * duplicate roles. Entries keep the candidates' order.
 */
export function buildIndex(items: readonly Item[], names: ReadonlyMap<number, string>): WorkspaceIndex {
  const entries = new Map<string, string>();
  const roles: NamedDefinition[] = [];
  const configs = new Set<LoadedConfig>();
  items.forEach((c, i) => {
    const name = names.get(i);
    if (c.kind === 'picasso' && name !== undefined) roles.push({ path: c.path, name });
    if (c.kind !== 'polytoken') return;
    if (name !== undefined) entries.set(c.path, name);
    configs.add(c.config);
  });
  // The global folder and `subagentDirs`: read for shadowing, never reported.
  for (const e of readDiscoveryFolders(polytokenDiscoveryDirs(configs), nodeWorkspaceHost, (path) => entries.has(path)))
    entries.set(e.path, registeredName(e.names, e.path));
  return withByName({ polytoken: [...entries].map(([path, name]) => ({ path, name })), picasso: roles });
}

function groupByName(list: readonly NamedDefinition[]): Map<string, NamedDefinition[]> {
  const byName = new Map<string, NamedDefinition[]>();
  for (const entry of list) {
    const group = byName.get(entry.name);
    if (group) group.push(entry);
    else byName.set(entry.name, [entry]);
  }
  return byName;
}

/** Adds the by-name groupings (not sent to workers: each rebuilds them, a Map of 50,000 entries clones slowly). */
export function withByName(index: WorkspaceIndex): WorkspaceIndex {
  return {
    polytoken: index.polytoken,
    picasso: index.picasso,
    polytokenByName: groupByName(index.polytoken),
    picassoByName: groupByName(index.picasso ?? []),
  };
}
