import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { posix } from 'path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { kindOf, type Analysis } from '../engine';
import type { LoadedConfig } from '../config/config';
import { isInGlobalDir, toPosix } from '../files';
import type { FileKind } from '../types';
import { ConfigResolver } from './config-loader';
import type { CheckOptions, FileReport } from './check-types';
import { runParallel, WorkerStalledError } from './check-parallel';
import { applyCorrections, buildIndex, namedIndexes, Runner, type Item, type ReadError } from './check-runner';
import { describeError, walkFiles } from './walk';

export { polytokenName } from './check-runner';
export { QUICK_NAMES, quickPolytokenName } from '../workspace/quick-name';
export { workerMain, type WorkerInput } from './check-parallel';

export type { CheckOptions, FileReport } from './check-types';

export interface CheckRun {
  files: FileReport[];
  /** Paths that could not be read: an I/O error for the CLI's exit status. */
  ioErrors: { path: string; message: string }[];
}

export class MissingPathError extends Error {}

interface Candidate {
  path: string;
  kind: FileKind;
  config: LoadedConfig;
  root: string;
}

/** Checks every definition under the given files and folders (`subagents check`, README: Command line). */
export function checkPaths(inputs: string[], options: CheckOptions): CheckRun {
  const cwd = toPosix(options.cwd);
  const resolver = new ConfigResolver(options);
  const ioErrors: CheckRun['ioErrors'] = [];
  const candidates: Candidate[] = [];
  const seen = new Set<string>();
  for (const input of inputs.length ? inputs : ['.']) {
    const abs = posix.resolve(cwd, toPosix(input));
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch (e) {
      throw new MissingPathError(`${input}: ${describeError(e)}`);
    }
    const root = stat.isDirectory() ? abs : posix.dirname(abs);
    const files = stat.isDirectory() ? walkFiles(abs, ioErrors) : [abs];
    for (const path of files) {
      if (seen.has(path)) continue;
      seen.add(path);
      const config = resolver.forFile(path);
      // The dialect comes from the path alone, also for a file named on the command line
      // or a folder below the workspace root (`check .polytoken`): the default globs start
      // with `**/`, so the whole path is tried when the part below `root` does not match.
      const kind = kindOf({ path, config, root }) ?? kindOf({ path, config });
      if (!kind || isInGlobalDir(path, config)) continue;
      candidates.push({ path, kind, config, root });
    }
  }
  // A broken configuration in force is listed too, also one above the checked paths and an
  // explicit one (--config) no checked file uses: it is reported on itself (README, Configuration) while
  // the definitions get the defaults.
  const inForce = new Set(candidates.map((c) => c.config));
  if (options.configFile) inForce.add(resolver.forDir(cwd));
  for (const loaded of inForce) {
    if (!loaded.path || !loaded.findings.length || seen.has(loaded.path)) continue;
    seen.add(loaded.path);
    candidates.push({ path: loaded.path, kind: 'config', config: loaded, root: posix.dirname(loaded.path) });
  }
  return runCandidates(candidates, ioErrors, options);
}

/** Runs with more candidate files than this use worker threads (when the machine has more than one core). */
export const PARALLEL_THRESHOLD = 2000;

function workerCount(candidates: number, options: CheckOptions): number {
  const requested = options.workers ?? (process.env.SUBAGENTS_WORKERS !== undefined ? Number(process.env.SUBAGENTS_WORKERS) : undefined);
  if (requested !== undefined && Number.isFinite(requested)) return Math.max(0, Math.min(16, Math.floor(requested)));
  if (candidates <= PARALLEL_THRESHOLD) return 0;
  return Math.max(0, Math.min(os.availableParallelism() - 1, 7));
}

/** The worker entry: next to this file in `out/`, next to the bundle in `dist/`. */
function workerFile(): string | undefined {
  const file = path.join(__dirname, 'check-worker.js');
  return fs.existsSync(file) ? file : undefined;
}

function runCandidates(candidates: Candidate[], ioErrors: CheckRun['ioErrors'], options: CheckOptions): CheckRun {
  const items: Item[] = candidates.map((c) => ({ path: c.path, kind: c.kind, config: c.config, root: c.root }));
  const keep = options.keepAnalysis ?? true;
  const keepFor = typeof keep === 'function' ? keep : () => keep;
  const count = keep === true ? 0 : workerCount(items.length, options);
  const file = count > 0 ? options.workerScript ?? workerFile() : undefined;
  const { reports, readErrors } = file ? runParallelOrSerial(items, options, count, file, keepFor) : runSerial(items, options, keepFor);
  readErrors.sort((a, b) => a.index - b.index);
  for (const e of readErrors) ioErrors.push({ path: e.path, message: e.message });
  const files = reports.filter((r): r is FileReport => !!r);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, ioErrors };
}

/** A worker that dies or hangs mid-run must not hang the check: it starts again on one thread. */
function runParallelOrSerial(items: Item[], options: CheckOptions, count: number, file: string, keepFor: (path: string) => boolean) {
  try {
    return runParallel(items, options, count, file, keepFor);
  } catch (error) {
    if (!(error instanceof WorkerStalledError)) throw error;
    return runSerial(items, options, keepFor);
  }
}

function runSerial(items: Item[], options: CheckOptions, keepFor: (path: string) => boolean): { reports: (FileReport | undefined)[]; readErrors: ReadError[] } {
  const runner = new Runner(items, options.onRuleError);
  const names = new Map<number, string>();
  const readErrors: ReadError[] = [];
  for (const i of namedIndexes(items)) {
    const r = runner.indexEntry(i);
    if ('error' in r) readErrors.push({ index: i, path: items[i].path, message: r.error });
    else names.set(i, r.name);
  }
  const workspace = buildIndex(items, names);
  const reports: (FileReport | undefined)[] = new Array(items.length);
  const corrections: [number, string][] = [];
  for (let i = 0; i < items.length; i++) {
    const r = runner.analyzeOne(i, workspace);
    if ('error' in r) readErrors.push({ index: i, path: items[i].path, message: r.error });
    else if ('analysis' in r) {
      reports[i] = { path: items[i].path, kind: items[i].kind, diagnostics: r.analysis.diagnostics, ...(keepFor(items[i].path) ? { analysis: r.analysis } : {}) };
      if (r.corrected !== undefined) corrections.push([i, r.corrected]);
    }
  }
  applyCorrections(items, names, corrections, reports, options, (i) => keepFor(items[i].path));
  return { reports, readErrors };
}
