/**
 * `check --cache`: a file's report is reused when its content (sha256), the configuration
 * in force for it, the checker and, for Polytoken, the paths of the definitions of its
 * name (shadowing) are those of the last run. Unchanged files are read and hashed but
 * neither parsed nor checked. A cache that is missing, corrupt or from another checker is
 * ignored and written anew.
 */
import { createHash } from 'crypto';
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
const FORMAT = 1;

interface Entry {
  /** sha256 of the file's bytes. */
  hash: string;
  /** Dialect and configuration identity. */
  context: string;
  /** Polytoken: the name it registers under, and a digest of the paths of every definition of that name. */
  name?: string;
  group?: string;
  diagnostics: Diagnostic[];
}

interface CacheFile {
  format: number;
  checker: string;
  files: Record<string, Entry>;
}

const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('base64');

/** The previous run's entries; empty when there is none or it cannot be trusted. */
function loadEntries(cache: CacheOptions): Map<string, Entry> {
  let parsed: Partial<CacheFile>;
  try {
    parsed = JSON.parse(fs.readFileSync(cache.file, 'utf8'));
  } catch {
    return new Map();
  }
  if (!parsed || parsed.format !== FORMAT || parsed.checker !== cache.checker || typeof parsed.files !== 'object' || parsed.files === null) return new Map();
  return new Map(Object.entries(parsed.files));
}

const isPosition = (p: unknown) => {
  const q = p as { line?: unknown; character?: unknown } | null;
  return !!q && Number.isInteger(q.line) && Number.isInteger(q.character) && (q.line as number) >= 0 && (q.character as number) >= 0;
};

/** An entry as this checker writes it (a hand-edited or truncated one is a miss, never a crash). */
function isEntry(e: unknown): e is Entry {
  const entry = e as Partial<Entry> | null;
  if (!entry || typeof entry.hash !== 'string' || typeof entry.context !== 'string' || !Array.isArray(entry.diagnostics)) return false;
  if (entry.name !== undefined && typeof entry.name !== 'string') return false;
  return entry.diagnostics.every((d) => {
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
    id = sha256(JSON.stringify([path ?? null, dir, globalDir ?? null, config]));
    configIds.set(item.config, id);
  }
  return `${item.kind} ${id}`;
}

function hashFile(path: string): string | undefined {
  try {
    return sha256(fs.readFileSync(path));
  } catch {
    return undefined; // the run reads it again and reports why it cannot
  }
}

/** Digest of the paths registered under each name: what `polytoken/shadowed` looks at. */
function groupDigests(workspace: WorkspaceIndex): (name: string) => string {
  const digests = new Map<string, string>();
  return (name) => {
    let digest = digests.get(name);
    if (digest === undefined) {
      const entries = workspace.polytokenByName?.get(name) ?? workspace.polytoken.filter((e) => e.name === name);
      digest = sha256(entries.map((e) => e.path).sort().join('\n'));
      digests.set(name, digest);
    }
    return digest;
  };
}

/**
 * Runs the check with the cache: `run` analyzes every file the cache cannot answer, then
 * a reused Polytoken report whose same-name definitions changed is checked again.
 */
export function runCached(items: Item[], options: CheckOptions, cache: CacheOptions, run: (preset: Preset, options: CheckOptions) => ItemsRun): ItemsRun & { problem?: string } {
  const previous = loadEntries(cache);
  const hashes = items.map((item) => hashFile(item.path));
  const contexts = items.map(contextOf);
  const skip = new Set<number>();
  const names = new Map<number, string>();
  const reused: (Entry | undefined)[] = new Array(items.length);
  items.forEach((item, i) => {
    const entry = previous.get(item.path);
    if (hashes[i] === undefined || !isEntry(entry) || entry.hash !== hashes[i] || entry.context !== contexts[i]) return;
    if (item.kind === 'polytoken') {
      if (entry.name === undefined || typeof entry.group !== 'string') return;
      names.set(i, entry.name);
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
  const groupOf = groupDigests(result.workspace);
  const stale: number[] = [];
  for (const i of skip) {
    const entry = reused[i]!;
    if (items[i].kind === 'polytoken' && entry.group !== groupOf(result.names.get(i)!)) stale.push(i);
    else result.reports[i] = { path: items[i].path, kind: items[i].kind, diagnostics: entry.diagnostics };
  }
  if (stale.length) {
    const runner = new Runner(items, options.onRuleError);
    for (const i of stale) {
      const r = runner.analyzeOne(i, result.workspace);
      if ('error' in r) result.readErrors.push({ index: i, path: items[i].path, message: r.error });
      else if ('analysis' in r) result.reports[i] = { path: items[i].path, kind: items[i].kind, diagnostics: r.analysis.diagnostics };
    }
  }

  const files: Record<string, Entry> = {};
  let count = 0;
  items.forEach((item, i) => {
    const report = result.reports[i];
    if (!report || hashes[i] === undefined) return;
    const polytoken = item.kind === 'polytoken' ? { name: result.names.get(i)!, group: groupOf(result.names.get(i)!) } : {};
    files[item.path] = { hash: hashes[i]!, context: contexts[i], ...polytoken, diagnostics: report.diagnostics };
    count++;
  });
  const unchanged = skip.size === items.length && !stale.length && previous.size === count;
  if (unchanged || ruleFailed) return result;
  const problem = writeAtomically(cache.file, JSON.stringify({ format: FORMAT, checker: cache.checker, files } satisfies CacheFile));
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
