/**
 * `check --cache`: a file's report is reused when its content (sha256), the configuration
 * in force for it, the checker and, for Polytoken and Picasso, the paths of the definitions
 * of its name (shadowing, duplicate roles) are those of the last run. Unchanged files are neither
 * parsed nor checked, nor read when their stamp says they are unchanged (file-digest.ts: git's rule,
 * with its protection against racy timestamps); unchanged `.subagents.yaml` files are not parsed either.
 * A cache that is missing, corrupt (its digest does not match) or from another checker is
 * ignored and written anew. A reused report holds what the CLI prints of each diagnostic
 * (range, severity, rule, message): kept compact, the file loads fast.
 */
import { isAscii } from 'buffer';
import * as fs from 'fs';
import type { Diagnostic } from 'vscode-languageserver-types';
import { parseConfig, type LoadedConfig } from '../../shared';
import { namesClash, type FileKind, type WorkspaceIndex } from '../../shared';
import { writeAtomically } from './atomic-write';
import { digest, fileDigest, isStamp, type Stamp } from './file-digest';
import type { CacheOptions, CheckOptions, ItemsRun, Preset } from './check-types';
import { Runner, type Item } from './check-runner';

/** Bumped when the layout of the file changes. */
const FORMAT = 7;

/** A diagnostic as stored: what the CLI prints of it. */
type StoredDiagnostic = [
  startLine: number,
  startCharacter: number,
  endLine: number,
  endCharacter: number,
  severity: number,
  rule: string,
  message: string,
];

/**
 * One file: sha256 of its bytes, index of its context, its diagnostics, for Polytoken and
 * Picasso the name it registers under, and its stamp when it was read well after its last
 * change (file-digest.ts: unchanged, it is not read again).
 */
type Entry = [hash: string, context: number, diagnostics: StoredDiagnostic[], name?: string | null, stamp?: Stamp];

/** A configuration file: sha256 of its text and what parseConfig made of it. */
type ConfigEntry = [hash: string, parsed: LoadedConfig];

interface CacheFile {
  format: number;
  checker: string;
  /** Dialect and configuration identities, referred to by index. */
  contexts: string[];
  /**
   * Per `<kind> <name>` that more than one path registers under: the paths of those Polytoken
   * definitions or Picasso roles, sorted, one a line. A name missing here had one path: the file's own.
   */
  groups: Record<string, string>;
  configs: Record<string, ConfigEntry>;
  files: Record<string, Entry>;
}

/** JSON with every character past ASCII escaped (`\u00e9`): the same value, and a file read back as latin1. */
const asciiJson = (value: unknown): string =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

const empty = (checker: string): CacheFile => ({
  format: FORMAT,
  checker,
  contexts: [],
  groups: {},
  configs: {},
  files: {},
});

const own = <T>(record: Record<string, T>, key: string): T | undefined =>
  Object.hasOwn(record, key) ? record[key] : undefined;

/**
 * The cache file is a digest line, then the JSON it is the digest of: a file that was cut
 * short, damaged or edited by hand does not match and is not used.
 */
function load(options: CacheOptions): CacheFile {
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(options.file);
  } catch {
    return empty(options.checker);
  }
  // The digest is taken over the bytes: no text is decoded before it matches.
  const eol = bytes.indexOf(10);
  if (eol < 0 || !isAscii(bytes) || digest(bytes.subarray(eol + 1)) !== bytes.toString('latin1', 0, eol))
    return empty(options.checker);
  try {
    // Written as ASCII (see asciiJson): latin1 decodes it exactly, several times faster than UTF-8.
    const parsed = JSON.parse(bytes.toString('latin1', eol + 1)) as CacheFile;
    const usable =
      parsed.format === FORMAT &&
      parsed.checker === options.checker &&
      [parsed.contexts, parsed.groups, parsed.configs, parsed.files].every((v) => typeof v === 'object' && v !== null);
    return usable ? parsed : empty(options.checker);
  } catch {
    return empty(options.checker);
  }
}

const isCount = (n: unknown) => Number.isInteger(n) && (n as number) >= 0;

/** A stored diagnostic as this checker writes it. */
function isStoredDiagnostic(d: unknown): d is StoredDiagnostic {
  return (
    Array.isArray(d) &&
    d.length === 7 &&
    isCount(d[0]) &&
    isCount(d[1]) &&
    isCount(d[2]) &&
    isCount(d[3]) &&
    [1, 2, 3, 4].includes(d[4]) &&
    typeof d[5] === 'string' &&
    typeof d[6] === 'string'
  );
}

/** An entry as this checker writes it: one written by other means is a miss, never a crash. */
function isEntry(e: unknown): e is Entry {
  if (
    !Array.isArray(e) ||
    typeof e[0] !== 'string' ||
    !Number.isInteger(e[1]) ||
    !Array.isArray(e[2]) ||
    (e[3] != null && typeof e[3] !== 'string') ||
    (e[4] !== undefined && !isStamp(e[4]))
  )
    return false;
  return (e[2] as unknown[]).every(isStoredDiagnostic);
}

/** A diagnostic as stored; undefined for one the cache cannot hold (its file is then not cached). */
function storedDiagnostic(d: Diagnostic): StoredDiagnostic | undefined {
  if (typeof d.code !== 'string' || typeof d.message !== 'string' || d.severity === undefined) return undefined;
  return [
    d.range.start.line,
    d.range.start.character,
    d.range.end.line,
    d.range.end.character,
    d.severity,
    d.code,
    d.message,
  ];
}

function restoredDiagnostic([
  startLine,
  startCharacter,
  endLine,
  endCharacter,
  severity,
  code,
  message,
]: StoredDiagnostic): Diagnostic {
  return {
    range: { start: { line: startLine, character: startCharacter }, end: { line: endLine, character: endCharacter } },
    severity: severity as Diagnostic['severity'],
    code,
    message,
  };
}

/** Per configuration: its context string per kind (one string for thousands of files). */
const contextIds = new WeakMap<LoadedConfig, Map<FileKind, string>>();

/** What the checker's verdict on a file depends on besides its text: dialect and configuration in force. */
function contextOf(item: Item): string {
  let byKind = contextIds.get(item.config);
  if (byKind === undefined) contextIds.set(item.config, (byKind = new Map()));
  let context = byKind.get(item.kind);
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

  /** How many files the previous run recorded. */
  private readonly previousFiles: number;

  constructor(private readonly options: CacheOptions) {
    this.previous = load(options);
    this.previousFiles = Object.keys(this.previous.files).length;
    this.next = empty(options.checker);
  }

  /** parseConfig, answered from the cache when the text is the same. */
  readonly parseConfig = (text: string, path: string, dir: string): LoadedConfig => {
    const hash = digest(text);
    const entry = own(this.previous.configs, path);
    let parsed: LoadedConfig;
    if (Array.isArray(entry) && entry[0] === hash && typeof entry[1]?.config === 'object') parsed = entry[1];
    else {
      parsed = parseConfig(text, path, dir);
      this.configsParsed++;
    }
    this.next.configs[path] = [hash, parsed];
    return structuredClone(parsed); // the caller completes it (globalDir)
  };

  /**
   * Runs the check: `run` analyzes every file the cache cannot answer, then a reused
   * Polytoken report whose same-name definitions changed is checked again.
   */
  run(
    items: Item[],
    options: CheckOptions,
    run: (preset: Preset, options: CheckOptions) => ItemsRun,
  ): ItemsRun & { problem?: string } {
    const { previous, next } = this;
    // One pass over the files: read (or stamp) each, then see whether its report can be reused.
    const hashes: (string | undefined)[] = new Array(items.length);
    const stamps: (Stamp | undefined)[] = new Array(items.length);
    const contexts: string[] = new Array(items.length);
    const reused: (Entry | undefined)[] = new Array(items.length);
    const skip = new Set<number>();
    const names = new Map<number, string>();
    // A file read again that has now settled: its stamp is worth writing the cache for.
    let stampsLearned = false;
    for (let i = 0; i < items.length; i++) {
      const item = items[i];
      const found = own(previous.files, item.path);
      const entry = isEntry(found) ? found : undefined;
      const read = fileDigest(item.path, entry?.[4] ? { hash: entry[0], stamp: entry[4] } : undefined);
      const hash = (hashes[i] = read?.hash);
      const stamp = (stamps[i] = read?.stamp);
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
    // A reused Polytoken or Picasso report holds while the same paths are registered under its name.
    const groupOf = groupsOf(result.workspace);
    const stale: number[] = [];
    for (const i of skip) {
      const entry = reused[i]!;
      const name = entry[3];
      if (
        name != null &&
        (own(previous.groups, `${items[i].kind} ${name}`) ?? items[i].path) !== groupOf(items[i].kind, name)
      )
        stale.push(i);
      else
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

    const unchanged =
      skip.size === items.length &&
      !stale.length &&
      !stampsLearned &&
      !this.configsParsed &&
      this.previousFiles === items.length &&
      Object.keys(previous.configs).length === Object.keys(next.configs).length;
    if (unchanged || ruleFailed) return result;
    this.record(items, hashes, stamps, contexts, result, groupOf);
    const json = asciiJson(next);
    const problem = writeAtomically(this.options.file, `${digest(json)}\n${json}`);
    return problem ? { ...result, problem: `cannot write the cache ${this.options.file}: ${problem}` } : result;
  }

  /** What the next run may reuse: every file read and reported, and the groups of its name. */
  private record(
    items: Item[],
    hashes: (string | undefined)[],
    stamps: (Stamp | undefined)[],
    contexts: string[],
    result: ItemsRun,
    groupOf: (kind: FileKind, name: string) => string,
  ): void {
    const { next } = this;
    const contextIndex = new Map<string, number>();
    items.forEach((item, i) => {
      const report = result.reports[i];
      const hash = hashes[i];
      if (!report || hash === undefined) return;
      const diagnostics: StoredDiagnostic[] = [];
      for (const d of report.diagnostics) {
        const stored = storedDiagnostic(d);
        if (!stored) return;
        diagnostics.push(stored);
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
