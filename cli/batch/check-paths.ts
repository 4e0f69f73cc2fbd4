import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { posix } from 'path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { CONFIG_FILE_NAME, type LoadedConfig } from '../../shared';
import { folderDialects, isInGlobalDir, neighbourFolders, toPosix } from '../../shared';
import type { FileKind } from '../../shared';
import { ConfigResolver } from '../../shared/node';
import type { CheckOptions, FileReport, ItemsRun, Preset } from './check-types';
import { runParallel, WorkerStalledError } from './check-parallel';
import { applyCorrections, buildIndex, namedIndexes, Runner, type Item, type ReadError } from './check-runner';
import { expandInput, nearMissIn, UnmatchedInputError, type UnmatchedInput } from './inputs';
import { undecodableMessage } from '../../shared/node';
import { CheckCache } from './check-cache';
import { EarlyWorkers, type WorkerPool } from './worker-pool';
import { mark } from '../phase-marks';
import { optimizeOnlyWhatStaysHot } from '../tiering';

export { nameOf } from './check-runner';
export { QUICK_NAMES } from '../../shared';
export { workerMain, type WorkerStart } from './parallel-worker';
export {
  InputError,
  MissingPathError,
  UnmatchedInputError,
  describeUnmatched,
  nearMissAdvice,
  unmatchedFile,
  type UnmatchedInput,
} from './inputs';

export type { CacheOptions, CheckOptions, FileReport, ItemsRun, Preset } from './check-types';

export interface CheckRun {
  files: FileReport[];
  /** Paths that could not be read: an I/O error for the CLI's exit status. */
  ioErrors: { path: string; message: string }[];
  /**
   * Inputs, as given, that hold no definition file: a folder or glob without one, or a
   * file that is neither a definition nor a configuration.
   */
  unmatched: UnmatchedInput[];
  /** Why the previous cache was ignored, or why the cache could not be written (the check itself went on). */
  cacheNotes?: string[];
}

/** Checks every definition under the given files and folders (`subagents check`, README: Command line). */
export function checkPaths(inputs: string[], options: CheckOptions): CheckRun {
  mark('start');
  const cache = options.cache && options.keepAnalysis === false ? new CheckCache(options.cache) : undefined;
  // Workers start during the walk; those that turn out not to be needed (or an input that fails) end here.
  const early = cache ? undefined : earlyWorkers(options);
  try {
    return checkWith(inputs, options, cache, early);
  } finally {
    early?.close();
  }
}

function checkWith(
  inputs: string[],
  options: CheckOptions,
  cache: CheckCache | undefined,
  early: EarlyWorkers | undefined,
): CheckRun {
  const cwd = toPosix(options.cwd);
  const resolver = new ConfigResolver(cache ? { ...options, parse: cache.parseConfig } : options);
  const ioErrors: CheckRun['ioErrors'] = [];
  const candidates: Item[] = [];
  const virtual = options.contents ? new Set(options.contents.keys()) : undefined;
  const unmatched: UnmatchedInput[] = [];
  /**
   * Kind of every file seen (undefined: not a definition), so an input overlapping an earlier one still counts its
   * files.
   */
  const kinds = new Map<string, FileKind | undefined>();
  const reportedUndecodable = new Set<string>();
  /** Definitions named by a file or a glob (not found in a walked folder): checked with the folders around them. */
  const named: Item[] = [];
  for (const input of inputs.length ? inputs : ['.']) {
    const { form, root, files, undecodable, links } = expandInput(input, cwd, ioErrors, virtual, early?.onFile);
    const folders = new Map<string, Folder>();
    const kindOf = (path: string) => {
      const dir = posix.dirname(path);
      let folder = folders.get(dir);
      if (!folder) folders.set(dir, (folder = folderOf(dir, resolver.forDir(dir), root)));
      return { kind: folder.kindOf(posix.basename(path)), folder };
    };
    let matched = false;
    for (const path of files) {
      let kind = kinds.get(path);
      if (!kinds.has(path)) {
        const { kind: k, folder } = kindOf(path);
        kinds.set(path, (kind = k));
        // Only a link is ever refused: of a walk's files, only those it saw as links are asked about (no lstat each).
        const mayBeLink = links === undefined || links.has(path);
        const refused = kind && mayBeLink && !virtual?.has(path) ? options.refuse?.(path) : undefined;
        if (refused !== undefined) ioErrors.push({ path, message: refused });
        else if (kind) {
          candidates.push({ path, kind, config: folder.config, root });
          if (form !== 'folder' && kind !== 'config') named.push(candidates[candidates.length - 1]);
        }
      }
      // A configuration counts as a match only when named itself.
      if (kind && (kind !== 'config' || form === 'file')) matched = true;
    }
    // A file whose name is not UTF-8 cannot be read: reported when its (decoded) name makes it a definition.
    for (const u of undecodable) {
      const key = `${u.path}\0${u.name}`; // the folder and the name's bytes: one file
      if (!kindOf(u.path).kind || reportedUndecodable.has(key)) continue;
      reportedUndecodable.add(key);
      ioErrors.push({ path: u.path, message: undecodableMessage(u.name, 'file') });
      matched = true;
    }
    if (!matched) {
      // The error's path only: a file that looks meant as a definition is named.
      const nearMiss = nearMissIn(files, cwd);
      unmatched.push(nearMiss ? { input, form, nearMiss } : { input, form });
    }
  }
  if (options.failOnUnmatched && unmatched.length) throw new UnmatchedInputError(unmatched);
  mark('walk');
  // Not with --cache: a file it answers is never analyzed, and a neighbour has no report to keep.
  const around = cache ? [] : neighbours(named, kinds, resolver, options, virtual);
  for (const c of around) candidates.push(c);
  // A broken configuration in force is listed too, also one above the checked paths and an
  // explicit one (--config) no checked file uses: it is reported on itself (README, Configuration) while
  // the definitions get the defaults.
  const inForce = new Set(candidates.map((c) => c.config));
  if (options.configFile) inForce.add(resolver.forDir(cwd));
  for (const loaded of inForce) {
    if (!loaded.path || !loaded.findings.length || kinds.has(loaded.path)) continue;
    kinds.set(loaded.path, 'config');
    candidates.push({ path: loaded.path, kind: 'config', config: loaded, root: posix.dirname(loaded.path) });
  }
  const context = new Set(around.map((c) => c.path));
  const analyze = context.size ? (p: string) => !context.has(p) && (options.analyze?.(p) ?? true) : options.analyze;
  const run = runCandidates(candidates, ioErrors, { ...options, analyze }, cache, early);
  // A neighbour that cannot be read is only context: it is not this run's error.
  if (context.size) run.ioErrors = run.ioErrors.filter((e) => !context.has(e.path));
  return { ...run, unmatched };
}

/**
 * The definitions around files checked on their own (a file, a glob, an unsaved text) that can
 * clash with them: those of each dialect's neighbour folders (`neighbourFolders`) not already
 * candidates, each as its own folder's configuration makes it. Only their names are read, so
 * that such a file gets what `check .` reports for it (shadowing, duplicate roles). Each folder
 * is listed once; one that cannot be read, or a file refused, is left out (they are context).
 */
function neighbours(
  named: readonly Item[],
  kinds: Map<string, FileKind | undefined>,
  resolver: ConfigResolver,
  options: CheckOptions,
  virtual: ReadonlySet<string> | undefined,
): Item[] {
  const out: Item[] = [];
  const listed = new Set<string>();
  for (const item of named)
    for (const dir of neighbourFolders(item.kind, item.path, item.config)) {
      if (listed.has(dir)) continue;
      listed.add(dir);
      const folder = folderOf(dir, resolver.forDir(dir), dir);
      for (const name of regularFileNames(dir)) {
        const path = posix.join(dir, name);
        if (kinds.has(path)) continue;
        const kind = folder.kindOf(name);
        kinds.set(path, kind);
        if (!kind || kind === 'config' || virtual?.has(path) || options.refuse?.(path) !== undefined) continue;
        out.push({ path, kind, config: folder.config, root: dir });
      }
    }
  return out;
}

/**
 * The names of the regular files (and links) of a folder; none when it cannot be read. A name
 * that is not valid UTF-8 is left out: it cannot be read by its decoded name (the walk reports it).
 */
function regularFileNames(dir: string): string[] {
  try {
    const out: string[] = [];
    for (const e of fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' })) {
      if (!e.isFile() && !e.isSymbolicLink()) continue;
      const name = e.name.toString('utf8');
      if (Buffer.from(name, 'utf8').equals(e.name)) out.push(name);
    }
    return out;
  } catch {
    return [];
  }
}

/** A folder of checked files: the configuration in force there, and which kind each of its files is. */
interface Folder {
  config: LoadedConfig;
  kindOf(name: string): FileKind | undefined;
}

function folderOf(dir: string, config: LoadedConfig, root: string): Folder {
  // The dialect comes from the path alone, also for a file named on the command line
  // or a folder below the workspace root (`check .polytoken`): the default globs start
  // with `**/`, so the whole path is tried when the part below `root` does not match.
  const belowRoot = folderDialects(dir, config, root);
  const anywhere = folderDialects(dir, config);
  // The Polytoken global folder is read for shadowing, never reported.
  const inGlobalDir = isInGlobalDir(posix.join(dir, CONFIG_FILE_NAME), config);
  return {
    config,
    kindOf: (name) =>
      inGlobalDir ? undefined : name === CONFIG_FILE_NAME ? 'config' : (belowRoot(name) ?? anywhere(name)),
  };
}

/** Runs with more candidate files than this use worker threads (when the machine has more than one core). */
export const PARALLEL_THRESHOLD = 2000;

const workersFromEnv = (env: NodeJS.ProcessEnv) =>
  env.SUBAGENTS_WORKERS !== undefined ? Number(env.SUBAGENTS_WORKERS) : undefined;

/** The number of workers asked for (the `workers` option, else SUBAGENTS_WORKERS of the run's environment), if any. */
function requestedWorkers(options: CheckOptions): number | undefined {
  const requested = options.workers ?? workersFromEnv(options.env ?? process.env);
  return requested !== undefined && Number.isFinite(requested)
    ? Math.max(0, Math.min(16, Math.floor(requested)))
    : undefined;
}

/**
 * Workers by default for a machine of `cores`: one per two cores beyond the main thread's two.
 * A JavaScript thread keeps about 1.7 cores busy (V8 compiles and collects garbage on helper
 * threads: one check of 10,000 definitions takes 2.3 s on one core, 1.3 s on two), so on two
 * cores a worker only competes with the main thread's helpers and slows the check.
 */
export const defaultWorkerCount = (cores: number): number => Math.max(0, Math.min(Math.floor(cores / 2) - 1, 7));

const defaultWorkers = () => defaultWorkerCount(os.availableParallelism());

/** The workers a check of `candidates` files uses: the count asked for (0 to 16), else the default above the threshold. */
export function workerCount(candidates: number, options: CheckOptions, cores = os.availableParallelism()): number {
  const requested = requestedWorkers(options);
  if (requested !== undefined) return requested;
  return candidates <= PARALLEL_THRESHOLD ? 0 : defaultWorkerCount(cores);
}

/** Whether the run may use workers at all (it keeps no analysis and hands none over). */
const mayUseWorkers = (options: CheckOptions) =>
  options.keepAnalysis === false && !options.analyze && !options.onAnalysis;

/**
 * Workers for a check that may need them, started during the walk so that their start-up
 * overlaps it: at once when a count was asked for, else once the walk has passed more
 * possible definition files than PARALLEL_THRESHOLD. Not with `--cache`, whose warm runs
 * analyze few files.
 */
function earlyWorkers(options: CheckOptions): EarlyWorkers | undefined {
  // Stryker disable next-line ConditionalExpression,BooleanLiteral: workers started early go unused, or do what workers started later would; only the time changes
  if (!mayUseWorkers(options)) return undefined;
  const requested = requestedWorkers(options);
  const count = requested ?? defaultWorkers();
  const file = count > 0 ? (options.workerScript ?? workerFile()) : undefined;
  return file ? new EarlyWorkers(count, file, requested !== undefined ? 0 : PARALLEL_THRESHOLD) : undefined;
}

/** The worker entry: next to this file in `out/`, next to the bundle in `dist/`. */
function workerFile(): string | undefined {
  const file = path.join(__dirname, 'check-worker.js');
  return fs.existsSync(file) ? file : undefined;
}

function runCandidates(
  items: Item[],
  ioErrors: CheckRun['ioErrors'],
  options: CheckOptions,
  cache?: CheckCache,
  early?: EarlyWorkers,
): Omit<CheckRun, 'unmatched'> {
  const keep = options.keepAnalysis ?? true;
  const keepFor = typeof keep === 'function' ? keep : () => keep;
  const runItems = (preset?: Preset, opts: CheckOptions = options) => {
    const todo = items.length - (preset?.skip.size ?? 0);
    const count = keep === true || opts.analyze || opts.onAnalysis ? 0 : workerCount(todo, opts);
    optimizeOnlyWhatStaysHot(todo);
    const file = count > 0 ? (opts.workerScript ?? workerFile()) : undefined;
    const pool = file ? early?.take(count) : undefined;
    early?.close();
    return file
      ? runParallelOrSerial(items, opts, count, file, keepFor, preset, pool)
      : runSerial(items, opts, keepFor, preset);
  };
  const cached = cache?.run(items, options, runItems);
  const { reports, readErrors } = cached ?? runItems();
  mark('analysis');
  readErrors.sort((a, b) => a.index - b.index);
  for (const e of readErrors) ioErrors.push({ path: e.path, message: e.message });
  const files = reports.filter((r): r is FileReport => !!r);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, ioErrors, ...(cached?.notes.length ? { cacheNotes: cached.notes } : {}) };
}

/** A worker that dies or hangs mid-run must not hang the check: it starts again on one thread. */
function runParallelOrSerial(
  items: Item[],
  options: CheckOptions,
  count: number,
  file: string,
  keepFor: (path: string) => boolean,
  preset?: Preset,
  pool?: WorkerPool,
): ItemsRun {
  try {
    return runParallel(items, options, count, file, keepFor, preset, pool);
  } catch (error) {
    if (!(error instanceof WorkerStalledError)) throw error;
    return runSerial(items, options, keepFor, preset);
  }
}

function runSerial(
  items: Item[],
  options: CheckOptions,
  keepFor: (path: string) => boolean,
  preset?: Preset,
): ItemsRun {
  // Files not analyzed (the folder around an unsaved or resolved file) get no name correction: parse them.
  const runner = new Runner(items, options.onRuleError, options.contents, !options.analyze);
  const names = new Map<number, string>(preset?.names);
  const readErrors: ReadError[] = [];
  for (const i of namedIndexes(items)) {
    if (preset?.skip.has(i)) continue;
    const r = runner.indexEntry(i);
    if ('error' in r) readErrors.push({ index: i, path: items[i].path, message: r.error });
    else names.set(i, r.name);
  }
  const workspace = buildIndex(items, names);
  const reports: (FileReport | undefined)[] = new Array(items.length);
  const corrections: [number, string][] = [];
  for (let i = 0; i < items.length; i++) {
    if (preset?.skip.has(i) || (options.analyze && !options.analyze(items[i].path))) continue;
    const r = runner.analyzeOne(i, workspace);
    if ('error' in r) readErrors.push({ index: i, path: items[i].path, message: r.error });
    else if ('analysis' in r) {
      options.onAnalysis?.(items[i].path, r.analysis);
      reports[i] = {
        path: items[i].path,
        kind: items[i].kind,
        diagnostics: r.analysis.diagnostics,
        ...(keepFor(items[i].path) ? { analysis: r.analysis } : {}),
      };
      if (r.corrected !== undefined) corrections.push([i, r.corrected]);
    }
  }
  const corrected = applyCorrections(items, names, corrections, reports, options, (i) => keepFor(items[i].path));
  return { reports, readErrors, names, workspace: corrected ?? workspace };
}
