/**
 * `check --cache`: a file's report is reused when its content (sha256), the configuration
 * in force for it, the checker and, for Polytoken, the paths of the definitions of its
 * name (shadowing) are those of the last run. Unchanged files are read and hashed but
 * neither parsed nor checked. A cache that is missing, corrupt or from another checker is
 * ignored and written anew.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import { posix } from 'path';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { LoadedConfig } from '../config/config';
import type { WorkspaceIndex } from '../engine';
import type { CheckOptions, ItemsRun, Preset } from './check';
import { Runner, type Item } from './check-runner';
import { describeError } from './walk';

export interface CacheOptions {
  /** The cache file (absolute). */
  file: string;
  /** The checker's version and build: a cache written by another checker is not used. */
  checker: string;
}

/** Bumped when the layout of the file changes. */
const FORMAT = 2;

/** One file: sha256 of its bytes, index of its context, its diagnostics, and for Polytoken the name it registers under. */
type Entry = [hash: string, context: number, diagnostics: Diagnostic[], name?: string];

interface CacheFile {
  format: number;
  checker: string;
  /** Dialect and configuration identities, referred to by index. */
  contexts: string[];
  /** Per name: the paths of the Polytoken definitions registered under it, sorted, one a line. */
  groups: Record<string, string>;
  files: Record<string, Entry>;
}

const EMPTY: CacheFile = { format: FORMAT, checker: '', contexts: [], groups: {}, files: {} };

const digest = (data: string | Buffer): string => (crypto.hash ? crypto.hash('sha256', data, 'base64') : crypto.createHash('sha256').update(data).digest('base64'));

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The previous run's cache; empty when there is none or it cannot be trusted. */
function load(cache: CacheOptions): CacheFile {
  let parsed: Partial<CacheFile> | null;
  try {
    parsed = JSON.parse(fs.readFileSync(cache.file, 'utf8'));
  } catch {
    return EMPTY;
  }
  if (!isRecord(parsed) || parsed.format !== FORMAT || parsed.checker !== cache.checker) return EMPTY;
  if (!Array.isArray(parsed.contexts) || !isRecord(parsed.groups) || !isRecord(parsed.files)) return EMPTY;
  return parsed as CacheFile;
}

const isPosition = (p: unknown) => {
  const q = p as { line?: unknown; character?: unknown } | null;
  return !!q && Number.isInteger(q.line) && Number.isInteger(q.character) && (q.line as number) >= 0 && (q.character as number) >= 0;
};

/** An entry as this checker writes it (a hand-edited or truncated one is a miss, never a crash). */
function isEntry(e: unknown): e is Entry {
  if (!Array.isArray(e) || typeof e[0] !== 'string' || !Number.isInteger(e[1]) || !Array.isArray(e[2]) || (e[3] !== undefined && typeof e[3] !== 'string')) return false;
  return (e[2] as unknown[]).every((d) => {
    const diagnostic = d as Partial<Diagnostic> | null;
    return (
      !!diagnostic &&
      typeof diagnostic.message === 'string' &&
      typeof diagnostic.code === 'string' &&
      [1, 2, 3, 4].includes(diagnostic.severity as number) &&
      isPosition(diagnostic.range?.start) &&
      isPosition(diagnostic.range?.end)
    );
  });
}

const configIds = new WeakMap<LoadedConfig, string>();

/** What the checker's verdict on a file depends on besides its text: dialect and configuration in force. */
function contextOf(item: Item): string {
  let id = configIds.get(item.config);
  if (id === undefined) {
    const { path, dir, globalDir, config } = item.config;
    id = digest(JSON.stringify([path ?? null, dir, globalDir ?? null, config]));
    configIds.set(item.config, id);
  }
  return `${item.kind} ${id}`;
}

const chunk = Buffer.allocUnsafe(1 << 16);

/** sha256 of a file's bytes, read through one reused buffer (no allocation or fstat per file). */
function hashFile(path: string): string | undefined {
  let fd: number | undefined;
  try {
    fd = fs.openSync(path, 'r');
    let n = fs.readSync(fd, chunk, 0, chunk.length, null);
    if (n < chunk.length) return digest(chunk.subarray(0, n));
    const hash = crypto.createHash('sha256');
    for (; n > 0; n = fs.readSync(fd, chunk, 0, chunk.length, null)) hash.update(chunk.subarray(0, n));
    return hash.digest('base64');
  } catch {
    return undefined; // the run reads it again and reports why it cannot
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}

/** The paths registered under each name: what `polytoken/shadowed` looks at. */
function groupsOf(workspace: WorkspaceIndex): (name: string) => string {
  const groups = new Map<string, string>();
  return (name) => {
    let group = groups.get(name);
    if (group === undefined) {
      const entries = workspace.polytokenByName?.get(name) ?? workspace.polytoken.filter((e) => e.name === name);
      group = entries
        .map((e) => e.path)
        .sort()
        .join('\n');
      groups.set(name, group);
    }
    return group;
  };
}

/**
 * Runs the check with the cache: `run` analyzes every file the cache cannot answer, then
 * a reused Polytoken report whose same-name definitions changed is checked again.
 */
export function runCached(items: Item[], options: CheckOptions, cache: CacheOptions, run: (preset: Preset, options: CheckOptions) => ItemsRun): ItemsRun & { problem?: string } {
  const previous = load(cache);
  const hashes = items.map((item) => hashFile(item.path));
  const contexts = items.map(contextOf);
  const skip = new Set<number>();
  const names = new Map<number, string>();
  const reused: (Entry | undefined)[] = new Array(items.length);
  items.forEach((item, i) => {
    const entry = Object.hasOwn(previous.files, item.path) ? previous.files[item.path] : undefined;
    if (hashes[i] === undefined || !isEntry(entry) || entry[0] !== hashes[i] || previous.contexts[entry[1]] !== contexts[i]) return;
    if (item.kind === 'polytoken') {
      if (entry[3] === undefined) return;
      names.set(i, entry[3]);
    }
    skip.add(i);
    reused[i] = entry;
  });

  // A rule that threw left its file's report incomplete: nothing of such a run is kept.
  let ruleFailed = false;
  const result = run({ skip, names }, {
    ...options,
    onRuleError: (rule, error) => {
      ruleFailed = true;
      options.onRuleError?.(rule, error);
    },
  });
  // A reused Polytoken report holds while the same paths are registered under its name.
  const groupOf = groupsOf(result.workspace);
  const stale: number[] = [];
  for (const i of skip) {
    const entry = reused[i]!;
    const name = entry[3];
    if (name !== undefined && (!Object.hasOwn(previous.groups, name) || previous.groups[name] !== groupOf(name))) stale.push(i);
    else result.reports[i] = { path: items[i].path, kind: items[i].kind, diagnostics: entry[2] };
  }
  if (stale.length) {
    const runner = new Runner(items, options.onRuleError);
    for (const i of stale) {
      const r = runner.analyzeOne(i, result.workspace);
      if ('error' in r) result.readErrors.push({ index: i, path: items[i].path, message: r.error });
      else if ('analysis' in r) result.reports[i] = { path: items[i].path, kind: items[i].kind, diagnostics: r.analysis.diagnostics };
    }
  }

  const next: CacheFile = { format: FORMAT, checker: cache.checker, contexts: [], groups: {}, files: {} };
  const contextIndex = new Map<string, number>();
  let count = 0;
  items.forEach((item, i) => {
    const report = result.reports[i];
    const hash = hashes[i];
    if (!report || hash === undefined) return;
    let context = contextIndex.get(contexts[i]);
    if (context === undefined) contextIndex.set(contexts[i], (context = next.contexts.push(contexts[i]) - 1));
    const name = item.kind === 'polytoken' ? result.names.get(i) : undefined;
    next.files[item.path] = name === undefined ? [hash, context, report.diagnostics] : [hash, context, report.diagnostics, name];
    if (name !== undefined) next.groups[name] = groupOf(name);
    count++;
  });
  const unchanged = skip.size === items.length && !stale.length && Object.keys(previous.files).length === count;
  if (unchanged || ruleFailed) return result;
  const problem = writeAtomically(cache.file, JSON.stringify(next));
  return problem ? { ...result, problem: `cannot write the cache ${cache.file}: ${problem}` } : result;
}

/** Writes a temporary file next to `file` (making its folder), then renames it into place: never a half-written file. */
export function writeAtomically(file: string, text: string): string | undefined {
  const temp = posix.join(posix.dirname(file), `.${posix.basename(file)}.${process.pid}.tmp`);
  try {
    fs.mkdirSync(posix.dirname(file), { recursive: true });
    fs.writeFileSync(temp, text);
    fs.renameSync(temp, file);
    return undefined;
  } catch (e) {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // nothing more to do
    }
    return describeError(e);
  }
}
