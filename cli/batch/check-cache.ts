/**
 * `check --cache`: a file's report is reused when its content (sha256), the configuration
 * in force for it, the checker and, for Polytoken and Picasso, the paths of the definitions
 * of its name (shadowing, duplicate roles) are those of the last run. Unchanged files are neither
 * parsed nor checked, nor read when their stamp says they are unchanged (file-digest.ts: git's rule,
 * with its protection against racy timestamps); unchanged `.subagents.yaml` files are not parsed either.
 * A cache that is missing, from another checker, not signed with the user's key, or not as
 * this checker writes it is ignored and written anew (check-cache-file.ts). A reused report
 * holds what the CLI prints of each diagnostic (range, severity, rule, message): kept
 * compact, the file loads fast.
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import { parseConfig, type LoadedConfig } from '../../shared';
import { namesClash, type FileKind, type WorkspaceIndex } from '../../shared';
import {
  cachePlace,
  emptyCache,
  loadCache,
  MAX_CACHE_BYTES,
  serializeCache,
  type CacheFile,
  type Entry,
  type StoredData,
  type StoredDiagnostic,
} from './check-cache-file';
import { digest, fileDigest, type Stamp } from './file-digest';
import type { CacheOptions, CheckOptions, ItemsRun, Preset } from './check-types';
import { Runner, type Item } from './check-runner';
import { writeFileSafely } from './safe-write';
import { sizeOverLimit } from '../../shared';
import { mark } from '../phase-marks';

/** Stamps tried before a run that finds most of them failed opens each file at once (file-digest.ts `openFirst`). */
const STAMPS_BEFORE_OPEN_FIRST = 16;

/** An array of `length` holes, sized ahead for speed. */
// Stryker disable next-line ArrayDeclaration: an index not set reads undefined either way
const presized = <T>(length: number): T[] => new Array<T>(length);

const own = <T>(record: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/** A diagnostic as stored; undefined for one the cache cannot hold (its file is then not cached). */
function storedDiagnostic(d: Diagnostic): StoredDiagnostic | undefined {
  if (typeof d.code !== 'string' || typeof d.message !== 'string' || d.severity === undefined) return undefined;
  const stored: StoredDiagnostic = [
    d.range.start.line,
    d.range.start.character,
    d.range.end.line,
    d.range.end.character,
    d.severity,
    d.code,
    d.message,
  ];
  const data = (d.data ?? {}) as { fixable?: unknown; tool?: unknown };
  const kept: StoredData = {
    ...(data.fixable === true ? { fixable: true } : {}),
    ...(typeof data.tool === 'string' ? { tool: data.tool } : {}),
  };
  if (kept.fixable || kept.tool !== undefined) stored.push(kept);
  return stored;
}

function restoredDiagnostic([
  startLine,
  startCharacter,
  endLine,
  endCharacter,
  severity,
  code,
  message,
  data,
]: StoredDiagnostic): Diagnostic {
  return {
    range: { start: { line: startLine, character: startCharacter }, end: { line: endLine, character: endCharacter } },
    severity: severity as Diagnostic['severity'],
    code,
    message,
    ...(data ? { data: { ...data } } : {}),
  };
}

/** Per configuration: its context string per kind (one string for thousands of files). */
const contextIds = new WeakMap<LoadedConfig, Map<FileKind, string>>();

/** What the checker's verdict on a file depends on besides its text: dialect and configuration in force. */
function contextOf(item: Item): string {
  let byKind = contextIds.get(item.config);
  // Stryker disable next-line ConditionalExpression: a memo; made again, the context string is the same
  if (byKind === undefined) contextIds.set(item.config, (byKind = new Map()));
  let context = byKind.get(item.kind);
  // Stryker disable next-line ConditionalExpression: a memo, as above
  if (context === undefined) {
    const { path, dir, globalDir, config } = item.config;
    byKind.set(
      item.kind,
      (context = `${item.kind} ${digest(JSON.stringify([path ?? null, dir, globalDir ?? null, config]))}`),
    );
  }
  return context;
}

/** The paths registered under a kind and name, sorted, one a line: what those rules look at. */
function groupsOf(workspace: WorkspaceIndex): (kind: FileKind, name: string) => string {
  const groups = new Map<string, string>();
  return (kind, name) => {
    const key = `${kind} ${name}`;
    let group = groups.get(key);
    // Stryker disable next-line ConditionalExpression: a memo; made again, the group is the same
    if (group === undefined) {
      const members = workspace.byName(kind, name) ?? [];
      group =
        members.length === 1
          ? members[0].path
          : members
              .map((e) => e.path)
              .sort()
              .join('\n');
      groups.set(key, group);
    }
    return group;
  };
}

/** One run's cache: the previous run's file, and what this run records for the next. */
export class CheckCache {
  private readonly previous: CacheFile;
  private readonly next: CacheFile;
  private configsParsed = 0;
  /** What the run says about the cache: why the previous one was ignored, why this one is not written. */
  private readonly notes: string[] = [];
  private readonly unwritable: boolean;

  /** How many files the previous run recorded. */
  private readonly previousFiles: number;
  /** `--cache-strategy content`: no stamp is trusted or kept. */
  private readonly byContent: boolean;

  constructor(private readonly options: CacheOptions) {
    const loaded = loadCache(options);
    if (loaded.note) this.notes.push(loaded.note);
    this.unwritable = !!loaded.unwritable;
    this.previous = loaded.cache;
    this.previousFiles = Object.keys(this.previous.files).length;
    this.next = emptyCache(options.checker);
    this.byContent = options.strategy === 'content';
  }

  /**
   * parseConfig, counting the configurations whose text changed since the last run. Parsed every
   * run: a configuration is a few lines, and what parseConfig makes of it (each dialect's own
   * section) is not something the cache file could vouch for.
   */
  readonly parseConfig = (text: string, path: string, dir: string): LoadedConfig => {
    mark('walk');
    const hash = digest(text);
    const entry = own(this.previous.configs, path);
    if (!entry || entry[0] !== hash) this.configsParsed++;
    this.next.configs[path] = [hash];
    const loaded = parseConfig(text, path, dir);
    mark('config.parse');
    return loaded;
  };

  /**
   * Runs the check: `run` analyzes every file the cache cannot answer, then a reused
   * Polytoken report whose same-name definitions changed is checked again.
   */
  run(
    items: Item[],
    options: CheckOptions,
    run: (preset: Preset, options: CheckOptions) => ItemsRun,
  ): ItemsRun & { notes: string[] } {
    mark('walk');
    const { previous, next } = this;
    // One pass over the files: read (or stamp) each, then see whether its report can be reused.
    const hashes = presized<string | undefined>(items.length);
    const stamps = presized<Stamp | undefined>(items.length);
    const contexts = presized<string>(items.length);
    const reused = presized<Entry | undefined>(items.length);
    const skip = new Set<number>();
    const names = new Map<number, string>();
    // A file read again that has now settled: its stamp is worth writing the cache for.
    let stampsLearned = false;
    // Stamps that did not hold so far, of those tried: when most fail (a fresh checkout), each file is opened at once.
    let stampsTried = 0;
    let stampsFailed = 0;
    const { byContent } = this;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const entry = own(previous.files, item.path);
      const known = entry?.[4] && !byContent ? { hash: entry[0], stamp: entry[4] } : undefined;
      const read = fileDigest(
        item.path,
        known,
        stampsTried >= STAMPS_BEFORE_OPEN_FIRST && stampsFailed * 2 > stampsTried,
      );
      if (known) {
        stampsTried++;
        if (read !== known) stampsFailed++;
      }
      const hash = (hashes[i] = read?.hash);
      const stamp = (stamps[i] = byContent ? undefined : read?.stamp);
      if (stamp !== undefined && stamp !== entry?.[4]) stampsLearned = true;
      const context = (contexts[i] = contextOf(item));
      if (hash === undefined || !entry || entry[0] !== hash || previous.contexts[entry[1]] !== context) continue;
      if (namesClash(item.kind)) {
        if (entry[3] == null) continue;
        names.set(i, entry[3]);
      }
      skip.add(i);
      reused[i] = entry;
    }

    mark('stamps');
    // A rule that threw left its file's report incomplete: nothing of such a run is kept.
    let ruleFailed = false;
    const result = run(
      { skip, names },
      {
        ...options,
        onRuleError: (rule, error) => {
          ruleFailed = true;
          options.onRuleError?.(rule, error);
        },
      },
    );
    mark('analysis');
    // A reused Polytoken or Picasso report holds while the same paths are registered under its name.
    const groupOf = groupsOf(result.workspace);
    const stale: number[] = [];
    for (const i of skip) {
      const entry = reused[i]!;
      const name = entry[3];
      if (
        name != null &&
        (own(previous.groups, `${items[i].kind} ${name}`) ?? items[i].path) !== groupOf(items[i].kind, name)
      ) {
        stale.push(i);
        reused[i] = undefined; // analyzed again below
      } else
        result.reports[i] = { path: items[i].path, kind: items[i].kind, diagnostics: entry[2].map(restoredDiagnostic) };
    }
    if (stale.length) {
      const runner = new Runner(items, options.onRuleError);
      for (const i of stale) {
        const r = runner.analyzeOne(i, result.workspace);
        if ('error' in r) result.readErrors.push({ index: i, path: items[i].path, message: r.error });
        else if ('analysis' in r)
          result.reports[i] = { path: items[i].path, kind: items[i].kind, diagnostics: r.analysis.diagnostics };
      }
    }

    mark('restore');
    const unchanged =
      skip.size === items.length &&
      !stale.length &&
      !stampsLearned &&
      !this.configsParsed &&
      this.previousFiles === items.length &&
      Object.keys(previous.configs).length === Object.keys(next.configs).length;
    if (!unchanged && !ruleFailed && !this.unwritable) {
      this.record(items, hashes, stamps, contexts, result, groupOf, reused);
      mark('record');
      this.write();
    }
    return { ...result, notes: this.notes };
  }

  private write(): void {
    const { file, key } = this.options;
    const bytes = serializeCache(this.next, key);
    // What would not be read back is not written.
    if (bytes.length > MAX_CACHE_BYTES) {
      this.notes.push(`the cache would be ${sizeOverLimit(bytes.length, MAX_CACHE_BYTES)}; not written`);
      return;
    }
    mark('serialize');
    const outcome = writeFileSafely(file, bytes, cachePlace(this.options), { makeFolders: true });
    mark('write');
    if (outcome.status !== 'written') this.notes.push(`cannot write the cache ${file}: ${outcome.reason}`);
  }

  /** What the next run may reuse: every file read and reported, and the groups of its name. */
  private record(
    items: Item[],
    hashes: (string | undefined)[],
    stamps: (Stamp | undefined)[],
    contexts: string[],
    result: ItemsRun,
    groupOf: (kind: FileKind, name: string) => string,
    reused: (Entry | undefined)[],
  ): void {
    const { next } = this;
    const contextIndex = new Map<string, number>();
    items.forEach((item, i) => {
      const report = result.reports[i];
      const hash = hashes[i];
      if (!report || hash === undefined) return;
      // A reused report is kept as it was stored (its diagnostics were restored from these).
      let diagnostics = reused[i]?.[2];
      if (diagnostics === undefined) {
        diagnostics = [];
        for (const d of report.diagnostics) {
          const stored = storedDiagnostic(d);
          if (!stored) return;
          diagnostics.push(stored);
        }
      }
      let context = contextIndex.get(contexts[i]);
      if (context === undefined) contextIndex.set(contexts[i], (context = next.contexts.push(contexts[i]) - 1));
      const name = namesClash(item.kind) ? result.names.get(i) : undefined;
      const stamp = stamps[i];
      next.files[item.path] = stamp
        ? [hash, context, diagnostics, name ?? null, stamp]
        : name === undefined
          ? [hash, context, diagnostics]
          : [hash, context, diagnostics, name];
      const group = name === undefined ? undefined : groupOf(item.kind, name);
      if (group !== undefined && group !== item.path) next.groups[`${item.kind} ${name}`] = group;
    });
  }
}
