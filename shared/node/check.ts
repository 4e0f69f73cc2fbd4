import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { posix } from 'path';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'worker_threads';
import type { Diagnostic } from 'vscode-languageserver-types';
import { analyze, DIALECT_MODULES, fileStem, findingsToDiagnostics, kindOf, unreadableReason, type Analysis, type WorkspaceIndex } from '../engine';
import type { LoadedConfig } from '../config/config';
import { isInGlobalDir, toPosix } from '../files';
import { SourceText } from '../text/source';
import { findFrontmatter } from '../text/frontmatter';
import type { ParsedFile } from '../text/document';
import { getValue } from '../text/tree';
import type { FileKind } from '../types';
import { ConfigResolver, unreadableConfigFinding, type ConfigOptions } from './config-loader';
import { describeError, walkFiles } from './walk';

export interface CheckOptions extends ConfigOptions {
  /** Paths in reports are relative to this folder. */
  cwd: string;
  onRuleError?: (rule: string, error: unknown) => void;
  /**
   * Worker threads besides the main thread; default: none up to PARALLEL_THRESHOLD
   * candidate files, else one per extra core (env SUBAGENTS_WORKERS overrides). The
   * output is the same either way. Only when `keepAnalysis` is not `true`.
   */
  workers?: number;
  /**
   * Which reports keep their `analysis` (for resolution, editor features); default: all.
   * Keeping every analysis holds every parse in memory and rules out worker threads:
   * `subagents check` passes false, `resolve` a predicate for its one file.
   */
  keepAnalysis?: boolean | ((path: string) => boolean);
}

export interface FileReport {
  /** Absolute, posix. */
  path: string;
  kind: FileKind;
  diagnostics: Diagnostic[];
  analysis?: Analysis;
}

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
  text?: string;
  parsed?: ParsedFile;
}

/** Checks every definition under the given files and folders (SPEC §9 `check`). */
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
  // A broken configuration in force is listed too, also one above the checked paths:
  // it is reported on itself (SPEC §2) while the definitions get the defaults.
  for (const c of candidates.slice()) {
    const loaded = c.config;
    if (!loaded.path || !loaded.findings.length || seen.has(loaded.path)) continue;
    seen.add(loaded.path);
    candidates.push({ path: loaded.path, kind: 'config', config: loaded, root: posix.dirname(loaded.path) });
  }
  return runCandidates(candidates, ioErrors, options);
}

/** The name a Polytoken definition registers under: its `name`, else its file name. */
export function polytokenName(parsed: ParsedFile | undefined, path: string): string {
  const name = getValue(parsed?.root, 'name');
  return name?.kind === 'string' && name.value ? String(name.value) : posix.basename(path, '.md');
}

/** Tests turn the quick path off to compare with full parses. */
export const QUICK_NAMES = { enabled: true };

const TOP_KEY_LINE = /^[A-Za-z_][\w-]*:(?:[ ]|$)/;
const NAME_LINE = /^name:[ ]+(?:([A-Za-z_][\w.-]*)|"([^"\\]+)"|'([^']+)')[ ]*(?:[ ]#.*)?$/;
const YAML_WORDS = /^(true|false|yes|no|on|off|null|y|n)$/i;

/**
 * The `name` of a Polytoken definition read off its frontmatter's lines, without a YAML
 * parse: a closed frontmatter whose top-level lines are all simple `key:` lines, one of
 * them `name:` with a plain identifier or a quoted string without escapes, and no line
 * that could open a multi-line quoted or flow value. Otherwise undefined (then the file is
 * parsed). For a file that parses cleanly this is polytokenName's answer; a broken file's
 * parse can disagree, and checkPaths corrects the index after that parse (applyCorrections).
 */
export function quickPolytokenName(raw: string): string | undefined {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const fm = findFrontmatter(text);
  if (fm.kind !== 'closed') return undefined;
  const region = text.slice(fm.yamlStart, fm.yamlEnd);
  if (region.includes('\t')) return undefined;
  let name: string | undefined;
  let afterName = false;
  let seenKey = false;
  for (const line of region.split(/\r\n|\n|\r/)) {
    if (!line.trim()) continue;
    // The line after `name:` must be a new key: an indented one would continue the value.
    if (afterName && !TOP_KEY_LINE.test(line)) return undefined;
    afterName = false;
    if (line[0] === '#') continue;
    if (!balanced(line)) return undefined;
    if (line[0] === ' ') {
      if (!seenKey) return undefined; // indented content first: the top level may not be a mapping
      continue;
    }
    if (!TOP_KEY_LINE.test(line)) return undefined;
    seenKey = true;
    if (!line.startsWith('name:')) continue;
    const m = NAME_LINE.exec(line);
    if (!m || name !== undefined) return undefined;
    name = m[1] ?? m[2] ?? m[3];
    if (m[1] !== undefined && YAML_WORDS.test(name)) return undefined;
    afterName = true;
  }
  return name;
}

/** No quote or bracket left open on the line (so nothing can swallow the next lines). */
function balanced(line: string): boolean {
  let square = 0;
  let curly = 0;
  let double = 0;
  let single = 0;
  for (let i = 0; i < line.length; i++) {
    switch (line.charCodeAt(i)) {
      case 0x5b: square++; break; // [
      case 0x5d: square--; break; // ]
      case 0x7b: curly++; break; // {
      case 0x7d: curly--; break; // }
      case 0x22: if (line[i - 1] !== '\\') double++; break; // "
      case 0x27: single++; break; // '
      case 0x5c: if (line[i + 1] !== '"' && line[i + 1] !== '\\') return false; i++; break; // other escapes: let the parser decide
    }
  }
  return square === 0 && curly === 0 && double % 2 === 0 && single % 2 === 0;
}

/** Runs with more candidate files than this use worker threads (when the machine has more than one core). */
export const PARALLEL_THRESHOLD = 2000;
/** Files per unit of work handed out between threads. */
const CHUNK = 32;

interface Item {
  path: string;
  kind: FileKind;
  config: LoadedConfig;
  root: string;
}

interface ReadError {
  index: number;
  path: string;
  message: string;
}

/**
 * The work every thread does, in two phases: (1) read and parse the Polytoken files,
 * for the shadowing index, keeping the parse; (2) analyze files, reusing that parse.
 */
class Runner {
  private readonly cache = new Map<number, { text: string; parsed?: ParsedFile; quickName?: string } | undefined>();

  constructor(private readonly items: readonly Item[], private readonly onRuleError?: (rule: string, error: unknown) => void) {}

  /** Phase 1: the name a Polytoken file registers under, or why it could not be read. */
  indexEntry(index: number): { name: string } | { error: string } {
    const c = this.items[index];
    let text: string;
    try {
      text = fs.readFileSync(c.path, 'utf8');
    } catch (e) {
      this.cache.set(index, undefined);
      return { error: describeError(e) };
    }
    if (unreadableReason(text)) {
      this.cache.set(index, { text });
      return { name: polytokenName(undefined, c.path) };
    }
    // Most files name themselves on one plain `name:` line: no parse is needed (nor kept) yet.
    const quick = QUICK_NAMES.enabled ? quickPolytokenName(text) : undefined;
    if (quick !== undefined) {
      this.cache.set(index, { text, quickName: quick });
      return { name: quick };
    }
    const parsed = DIALECT_MODULES.polytoken.parse(new SourceText(text), c.path);
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
  analyzeOne(index: number, workspace: WorkspaceIndex): { analysis: Analysis; corrected?: string } | { error: string } | { skipped: true } {
    const c = this.items[index];
    let text: string;
    let parsed: ParsedFile | undefined;
    let quickName: string | undefined;
    if (this.cache.has(index)) {
      const cached = this.cache.get(index);
      this.cache.delete(index);
      if (!cached) return { skipped: true };
      ({ text, parsed, quickName } = cached);
    } else {
      try {
        text = fs.readFileSync(c.path, 'utf8');
      } catch (e) {
        // A configuration that cannot be read is reported on itself (SPEC §2): the check carries on with the defaults.
        if (c.kind === 'config') return { analysis: { kind: 'config', diagnostics: findingsToDiagnostics([unreadableConfigFinding(e)]) } };
        return { error: describeError(e) };
      }
    }
    const analysis = analyze({ text, path: c.path, config: c.config, root: c.root, kind: c.kind, workspace, parsed, onRuleError: this.onRuleError });
    if (quickName !== undefined) {
      const name = polytokenName(analysis.context?.file, c.path);
      if (name !== quickName) return { analysis, corrected: name };
    }
    return { analysis };
  }
}

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
  const file = count > 0 ? workerFile() : undefined;
  const { reports, readErrors } = file ? runParallel(items, options, count, file, keepFor) : runSerial(items, options, keepFor);
  readErrors.sort((a, b) => a.index - b.index);
  for (const e of readErrors) ioErrors.push({ path: e.path, message: e.message });
  const files = reports.filter((r): r is FileReport => !!r);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, ioErrors };
}

function polytokenIndexes(items: readonly Item[]): number[] {
  const out: number[] = [];
  items.forEach((c, i) => c.kind === 'polytoken' && out.push(i));
  return out;
}

function runSerial(items: Item[], options: CheckOptions, keepFor: (path: string) => boolean): { reports: (FileReport | undefined)[]; readErrors: ReadError[] } {
  const runner = new Runner(items, options.onRuleError);
  const names = new Map<number, string>();
  const readErrors: ReadError[] = [];
  for (const i of polytokenIndexes(items)) {
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

/**
 * A quick name the parse disagrees with (only in broken files) made the index wrong for
 * that name: fix the index and check again every Polytoken file the change can concern
 * (its own name or its file name is the old or the new name), on this thread.
 */
function applyCorrections(
  items: readonly Item[],
  names: Map<number, string>,
  corrections: readonly [number, string][],
  reports: (FileReport | undefined)[],
  options: CheckOptions,
  keep: (index: number) => boolean,
): void {
  if (!corrections.length) return;
  const concerned = new Set<string>();
  for (const [i, name] of corrections) {
    concerned.add(names.get(i)!);
    concerned.add(name);
    names.set(i, name);
  }
  const workspace = buildIndex(items, names);
  const runner = new Runner(items, options.onRuleError);
  items.forEach((c, i) => {
    if (c.kind !== 'polytoken' || !reports[i]) return;
    if (!concerned.has(names.get(i)!) && !concerned.has(fileStem(c.path))) return;
    const r = runner.analyzeOne(i, workspace);
    if ('analysis' in r) reports[i] = { path: c.path, kind: c.kind, diagnostics: r.analysis.diagnostics, ...(keep(i) ? { analysis: r.analysis } : {}) };
  });
}

/**
 * Polytoken definitions for shadowing: the checked ones (named in phase 1) and those
 * in the global folder and `subagentDirs`. Entries keep the candidates' order.
 */
function buildIndex(items: readonly Item[], names: ReadonlyMap<number, string>): WorkspaceIndex {
  const entries = new Map<string, string>();
  const extraDirs = new Set<string>();
  items.forEach((c, i) => {
    if (c.kind !== 'polytoken') return;
    const name = names.get(i);
    if (name !== undefined) entries.set(c.path, name);
    if (c.config.globalDir) extraDirs.add(c.config.globalDir);
    for (const d of c.config.config.polytoken.subagentDirs) extraDirs.add(posix.resolve(c.config.dir, toPosix(d)));
  });
  for (const dir of extraDirs) {
    let names: string[];
    try {
      names = fs.readdirSync(dir).filter((n) => n.endsWith('.md'));
    } catch {
      continue; // Polytoken skips missing folders too.
    }
    for (const n of names) {
      const path = posix.join(dir, n);
      if (entries.has(path)) continue;
      try {
        const text = fs.readFileSync(path, 'utf8');
        if (unreadableReason(text)) continue;
        entries.set(path, polytokenName(DIALECT_MODULES.polytoken.parse(new SourceText(text), path), path));
      } catch {
        // An unreadable file in a discovery folder cannot shadow anything we can show.
      }
    }
  }
  return withByName({ polytoken: [...entries].map(([path, name]) => ({ path, name })) });
}

/** Adds the by-name grouping (not sent to workers: each rebuilds it, a Map of 50,000 entries clones slowly). */
function withByName(index: WorkspaceIndex): WorkspaceIndex {
  const byName = new Map<string, { path: string; name: string }[]>();
  for (const entry of index.polytoken) {
    const list = byName.get(entry.name);
    if (list) list.push(entry);
    else byName.set(entry.name, [entry]);
  }
  return { polytoken: index.polytoken, polytokenByName: byName };
}

// ---- Worker threads -------------------------------------------------------------
//
// The main thread walks, finds configurations and recognizes files, then shares the
// work with `count` workers. It stays synchronous: it blocks on a shared counter
// (Atomics.wait) and takes the workers' messages with receiveMessageOnPort. Work is
// handed out in chunks through shared counters, so a worker that starts late simply
// takes fewer chunks, and one that never starts takes none (the main thread does all).

/** Slots of the shared Int32Array. */
const P1 = 0; // next phase-1 chunk
const P2 = 1; // next phase-2 chunk
const SIGNAL = 2; // bumped after every message a worker posts
const GO = 3; // 1: the index is posted, phase 2 may start; 2: abort
const STATE = 4; // per worker: 0 not started, 1 running, 2 done, 3 cancelled before it started

interface WireItem {
  path: string;
  kind: FileKind;
  config: number;
  root: string;
}

export interface WorkerInput {
  items: WireItem[];
  configs: LoadedConfig[];
  poly: number[];
  other: number[];
  ctl: SharedArrayBuffer;
  port: MessagePort;
  slot: number;
}

interface RuleErrorWire {
  rule: string;
  message: string;
  stack?: string;
}

type WorkerMessage =
  | { type: 'names'; names: [number, string][]; errors: ReadError[]; ruleErrors?: undefined }
  | { type: 'reports'; reports: [number, Diagnostic[]][]; errors: ReadError[]; ruleErrors: RuleErrorWire[]; corrections: [number, string][] }
  | { type: 'failed'; phase: 1 | 2; indexes: number[]; ruleErrors?: undefined }
  | { type: 'done'; ruleErrors?: undefined };

const chunkOf = (list: readonly number[], c: number) => list.slice(c * CHUNK, (c + 1) * CHUNK);
const chunks = (list: readonly number[]) => Math.ceil(list.length / CHUNK);

function runParallel(
  items: Item[],
  options: CheckOptions,
  count: number,
  file: string,
  keepFor: (path: string) => boolean,
): { reports: (FileReport | undefined)[]; readErrors: ReadError[] } {
  // Files whose analysis is kept are done on this thread; the rest is shared.
  const pinned = items.map((c) => keepFor(c.path));
  const poly = polytokenIndexes(items).filter((i) => !pinned[i]);
  const pinnedPoly = polytokenIndexes(items).filter((i) => pinned[i]);
  const other = items.map((_, i) => i).filter((i) => items[i].kind !== 'polytoken' && !pinned[i]);
  const pinnedOther = items.map((_, i) => i).filter((i) => items[i].kind !== 'polytoken' && pinned[i]);
  const configIds = new Map<LoadedConfig, number>();
  const configs: LoadedConfig[] = [];
  const wire: WireItem[] = items.map((c) => {
    let id = configIds.get(c.config);
    if (id === undefined) {
      configIds.set(c.config, (id = configs.length));
      configs.push(c.config);
    }
    return { path: c.path, kind: c.kind, config: id, root: c.root };
  });
  const ctlBuffer = new SharedArrayBuffer(4 * (STATE + count));
  const ctl = new Int32Array(ctlBuffer);
  const workers: { worker: Worker; port: MessagePort; slot: number; active: boolean; done: boolean }[] = [];
  const reports: (FileReport | undefined)[] = new Array(items.length);
  const readErrors: ReadError[] = [];
  const names = new Map<number, string>();
  const redo: { phase: 1 | 2; indexes: number[] }[] = [];
  const corrections: [number, string][] = [];
  let phase1Done = 0;

  const handle = (m: WorkerMessage, w: (typeof workers)[number]) => {
    for (const e of m.ruleErrors ?? []) {
      const error = new Error(e.message);
      error.stack = e.stack;
      options.onRuleError?.(e.rule, error);
    }
    switch (m.type) {
      case 'names':
        for (const [i, name] of m.names) names.set(i, name);
        readErrors.push(...m.errors);
        phase1Done++;
        break;
      case 'reports':
        for (const [i, diagnostics] of m.reports) reports[i] = { path: items[i].path, kind: items[i].kind, diagnostics };
        readErrors.push(...m.errors);
        corrections.push(...m.corrections);
        break;
      case 'failed':
        redo.push({ phase: m.phase, indexes: m.indexes });
        if (m.phase === 1) phase1Done++;
        break;
      case 'done':
        w.done = true;
        break;
    }
  };
  const drain = () => {
    for (const w of workers) {
      for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port)) handle(m.message as WorkerMessage, w);
    }
  };
  const waitUntil = (done: () => boolean) => {
    for (;;) {
      const seen = Atomics.load(ctl, SIGNAL);
      drain();
      if (done()) return;
      Atomics.wait(ctl, SIGNAL, seen, 1000);
    }
  };

  try {
    for (let slot = 0; slot < count; slot++) {
      const { port1, port2 } = new MessageChannel();
      const workerData: WorkerInput = { items: wire, configs, poly, other, ctl: ctlBuffer, port: port2, slot };
      let worker: Worker;
      try {
        worker = new Worker(file, { workerData, transferList: [port2] });
      } catch {
        port1.close(); // no thread (resource limits…): the others, and this one, share its work
        continue;
      }
      worker.unref();
      worker.on('error', () => undefined); // a failed start leaves its work to the others
      workers.push({ worker, port: port1, slot, active: true, done: false });
    }
    const runner = new Runner(items, options.onRuleError);

    // Phase 1: the shadowing index.
    for (const i of pinnedPoly) {
      const r = runner.indexEntry(i);
      if ('error' in r) readErrors.push({ index: i, path: items[i].path, message: r.error });
      else names.set(i, r.name);
    }
    const phase1Chunks = chunks(poly);
    for (let c = Atomics.add(ctl, P1, 1); c < phase1Chunks; c = Atomics.add(ctl, P1, 1)) {
      for (const i of chunkOf(poly, c)) {
        const r = runner.indexEntry(i);
        if ('error' in r) readErrors.push({ index: i, path: items[i].path, message: r.error });
        else names.set(i, r.name);
      }
      phase1Done++;
    }
    workers.forEach((w) => {
      if (Atomics.compareExchange(ctl, STATE + w.slot, 0, 3) === 0) w.active = false;
    });
    waitUntil(() => phase1Done >= phase1Chunks);
    for (const r of redo.splice(0)) {
      for (const i of r.indexes) {
        const e = runner.indexEntry(i);
        if ('error' in e) readErrors.push({ index: i, path: items[i].path, message: e.error });
        else names.set(i, e.name);
      }
    }
    const workspace = buildIndex(items, names);
    for (const w of workers) if (w.active) w.port.postMessage({ polytoken: workspace.polytoken });
    Atomics.store(ctl, GO, 1);
    Atomics.notify(ctl, GO);

    // Phase 2: every thread analyzes the Polytoken files it parsed, then takes chunks of the rest.
    const analyzeHere = (i: number) => {
      const r = runner.analyzeOne(i, workspace);
      if ('error' in r) readErrors.push({ index: i, path: items[i].path, message: r.error });
      else if ('analysis' in r) {
        reports[i] = { path: items[i].path, kind: items[i].kind, diagnostics: r.analysis.diagnostics, ...(pinned[i] ? { analysis: r.analysis } : {}) };
        if (r.corrected !== undefined) corrections.push([i, r.corrected]);
      }
    };
    for (const i of runner.owned()) analyzeHere(i);
    for (const i of pinnedOther) analyzeHere(i);
    const phase2Chunks = chunks(other);
    for (let c = Atomics.add(ctl, P2, 1); c < phase2Chunks; c = Atomics.add(ctl, P2, 1)) {
      for (const i of chunkOf(other, c)) analyzeHere(i);
    }
    waitUntil(() => workers.every((w) => !w.active || w.done || Atomics.load(ctl, STATE + w.slot) === 2));
    drain();
    for (const r of redo.splice(0)) for (const i of r.indexes) analyzeHere(i);
    applyCorrections(items, names, corrections, reports, options, (i) => pinned[i]);
    return { reports, readErrors };
  } finally {
    if (Atomics.load(ctl, GO) === 0) {
      Atomics.store(ctl, GO, 2);
      Atomics.notify(ctl, GO);
    }
    for (const w of workers) {
      w.port.close();
      void w.worker.terminate().catch(() => undefined);
    }
  }
}

/** The body of `check-worker.js`. */
export function workerMain(data: WorkerInput): void {
  const ctl = new Int32Array(data.ctl);
  const port = data.port;
  try {
    if (Atomics.compareExchange(ctl, STATE + data.slot, 0, 1) !== 0) return;
    const post = (m: WorkerMessage) => {
      port.postMessage(m);
      Atomics.add(ctl, SIGNAL, 1);
      Atomics.notify(ctl, SIGNAL);
    };
    const items: Item[] = data.items.map((w) => ({ path: w.path, kind: w.kind, config: data.configs[w.config], root: w.root }));
    let ruleErrors: RuleErrorWire[] = [];
    const runner = new Runner(items, (rule, error) => {
      const e = error as Error;
      ruleErrors.push({ rule, message: e?.message ?? String(error), stack: e?.stack });
    });

    const phase1Chunks = chunks(data.poly);
    for (let c = Atomics.add(ctl, P1, 1); c < phase1Chunks; c = Atomics.add(ctl, P1, 1)) {
      const indexes = chunkOf(data.poly, c);
      const names: [number, string][] = [];
      const errors: ReadError[] = [];
      try {
        for (const i of indexes) {
          const r = runner.indexEntry(i);
          if ('error' in r) errors.push({ index: i, path: items[i].path, message: r.error });
          else names.push([i, r.name]);
        }
        post({ type: 'names', names, errors });
      } catch {
        runner.forget(indexes);
        post({ type: 'failed', phase: 1, indexes });
      }
    }

    Atomics.wait(ctl, GO, 0);
    const received = Atomics.load(ctl, GO) === 1 ? receiveMessageOnPort(port) : undefined;
    if (!received) return;
    const workspace = withByName(received.message as WorkspaceIndex);

    const analyzeAll = (indexes: number[]) => {
      const reports: [number, Diagnostic[]][] = [];
      const errors: ReadError[] = [];
      const failed: number[] = [];
      const corrections: [number, string][] = [];
      for (const i of indexes) {
        try {
          const r = runner.analyzeOne(i, workspace);
          if ('error' in r) errors.push({ index: i, path: items[i].path, message: r.error });
          else if ('analysis' in r) {
            reports.push([i, r.analysis.diagnostics]);
            if (r.corrected !== undefined) corrections.push([i, r.corrected]);
          }
        } catch {
          failed.push(i); // the main thread runs it again, and fails the same way a single thread would
        }
      }
      try {
        post({ type: 'reports', reports, errors, ruleErrors, corrections });
      } catch {
        failed.push(...reports.map(([i]) => i), ...errors.map((e) => e.index)); // not cloneable: done again on the main thread
      }
      ruleErrors = [];
      if (failed.length) post({ type: 'failed', phase: 2, indexes: failed });
    };
    const owned = runner.owned();
    for (let k = 0; k < owned.length; k += CHUNK) analyzeAll(owned.slice(k, k + CHUNK));
    const phase2Chunks = chunks(data.other);
    for (let c = Atomics.add(ctl, P2, 1); c < phase2Chunks; c = Atomics.add(ctl, P2, 1)) analyzeAll(chunkOf(data.other, c));
    post({ type: 'done' });
  } finally {
    Atomics.store(ctl, STATE + data.slot, 2);
    Atomics.add(ctl, SIGNAL, 1);
    Atomics.notify(ctl, SIGNAL);
    port.close();
  }
}
