import { receiveMessageOnPort } from 'worker_threads';
import type { Diagnostic } from 'vscode-languageserver-types';
import type { LoadedConfig } from '../../shared';
import { nameIndex, type NameLists } from '../../shared';
import type { FileKind } from '../../shared';
import type { CheckOptions, FileReport, ItemsRun, Preset } from './check-types';
import { applyCorrections, buildIndex, namedIndexes, Runner, type Item, type ReadError } from './check-runner';
import {
  closePool,
  GO,
  heartbeatSlot,
  itemsSlot,
  ownListSlot,
  P1,
  P2,
  SIGNAL,
  spawnWorkers,
  STATE,
  type WorkerPool,
  type WorkerStart,
} from './worker-pool';

/** Files per unit of work handed out between threads. */
const CHUNK = 32;

// ---- Worker threads -------------------------------------------------------------
//
// The main thread walks, finds configurations and recognizes files, then shares the
// work with `count` workers. It stays synchronous: it blocks on a shared counter
// (Atomics.wait) and takes the workers' messages with receiveMessageOnPort. Work is
// handed out in chunks through shared counters, so a worker that starts late simply
// takes fewer chunks, and one that never starts takes none (the main thread does all).
// In phase 2 any thread analyzes any file: each first takes the files it named in phase 1
// (their text is in its memory), then the unnamed ones, then those other threads named
// and have not reached (read again), so that all threads finish together.

interface WireItem {
  path: string;
  kind: FileKind;
  config: number;
  root: string;
}

/** The work a worker is sent when the walk is done. */
interface WorkerInput {
  items: WireItem[];
  configs: LoadedConfig[];
  poly: number[];
  other: number[];
}

export type { WorkerStart };

/**
 * A worker stopped making progress while busy: it died without running its `finally`
 * (out of memory) or hangs. The caller runs the whole check again on one thread.
 */
export class WorkerStalledError extends Error {}

/** Far above the slowest legal file (a 5 MB definition takes a few seconds). */
export const DEFAULT_WORKER_STALL_MS = 60_000;

/** Tells a busy worker whose heartbeat has not moved for longer than `stallMs`. */
export class StallWatch {
  private readonly last = new Map<number, { beat: number; at: number }>();

  constructor(readonly stallMs: number) {}

  stalled(slot: number, busy: boolean, beat: number, now: number): boolean {
    const last = this.last.get(slot);
    if (!busy || !last || last.beat !== beat) {
      this.last.set(slot, { beat, at: now });
      return false;
    }
    return now - last.at > this.stallMs;
  }
}

interface RuleErrorWire {
  rule: string;
  message: string;
  stack?: string;
}

/** What a worker gets when phase 2 starts: the index, and the files each thread named (the main thread's first) with their names. */
interface Phase2Start {
  lists: NameLists;
  named: [number, string][][];
}

type WorkerMessage =
  | { type: 'names'; names: [number, string][]; errors: ReadError[]; ruleErrors?: undefined }
  | {
      type: 'reports';
      reports: [number, Diagnostic[]][];
      errors: ReadError[];
      ruleErrors: RuleErrorWire[];
      corrections: [number, string][];
    }
  | { type: 'failed'; phase: 1 | 2; indexes: number[]; ruleErrors?: undefined }
  | { type: 'done'; ruleErrors?: undefined };

const chunkOf = <T>(list: readonly T[], c: number) => list.slice(c * CHUNK, (c + 1) * CHUNK);
const chunks = (list: readonly unknown[]) => Math.ceil(list.length / CHUNK);

/**
 * Phase 2's order for `thread`: its own named files, the unnamed ones, then the named
 * files of the other threads; `analyze` gets each chunk it claims.
 */
function claimPhase2(
  ctl: Int32Array,
  count: number,
  thread: number,
  named: readonly (readonly [number, string])[][],
  other: readonly number[],
  analyze: (chunk: readonly (readonly [number, string | undefined])[]) => void,
): void {
  const claim = (slot: number, list: readonly (readonly [number, string | undefined])[]) => {
    const total = chunks(list);
    for (let c = Atomics.add(ctl, slot, 1); c < total; c = Atomics.add(ctl, slot, 1)) analyze(chunkOf(list, c));
  };
  claim(ownListSlot(count, thread), named[thread] ?? []);
  claim(
    P2,
    other.map((i) => [i, undefined] as const),
  );
  for (let t = 0; t < named.length; t++) if (t !== thread) claim(ownListSlot(count, t), named[t]);
}

/** `pool`: workers started during the walk (else started here). */
export function runParallel(
  items: Item[],
  options: CheckOptions,
  count: number,
  file: string,
  keepFor: (path: string) => boolean,
  preset?: Preset,
  pool?: WorkerPool,
): ItemsRun {
  // Files whose analysis is kept are done on this thread; the rest is shared. Skipped
  // items (answered by the cache) come with their names and need neither phase.
  const pinned = items.map((c) => keepFor(c.path));
  const todo = (i: number) => !preset?.skip.has(i);
  const named = namedIndexes(items);
  const isNamed = new Set(named);
  const poly = named.filter((i) => !pinned[i] && todo(i));
  const pinnedPoly = named.filter((i) => pinned[i] && todo(i));
  // Named files are analyzed by the thread that named them (phase 1 keeps their text), not again.
  const other = items.map((_, i) => i).filter((i) => !isNamed.has(i) && !pinned[i] && todo(i));
  const pinnedOther = items.map((_, i) => i).filter((i) => !isNamed.has(i) && pinned[i] && todo(i));
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
  pool ??= spawnWorkers(count, file);
  const ctl = pool.ctl;
  const workers = pool.workers.map((w) => ({ ...w, active: true, done: false }));
  const reports: (FileReport | undefined)[] = new Array(items.length);
  const readErrors: ReadError[] = [];
  const names = new Map<number, string>(preset?.names);
  const redo: { phase: 1 | 2; indexes: number[] }[] = [];
  const corrections: [number, string][] = [];
  /** The files each worker named in phase 1, by slot. */
  const namedBy: number[][] = Array.from({ length: count }, () => []);
  let phase1Done = 0;

  const handle = (m: WorkerMessage, w: (typeof workers)[number]) => {
    for (const e of m.ruleErrors ?? []) {
      const error = new Error(e.message);
      error.stack = e.stack;
      options.onRuleError?.(e.rule, error);
    }
    switch (m.type) {
      case 'names':
        for (const [i, name] of m.names) {
          names.set(i, name);
          namedBy[w.slot].push(i);
        }
        for (const e of m.errors) readErrors.push(e);
        phase1Done++;
        break;
      case 'reports':
        for (const [i, diagnostics] of m.reports)
          reports[i] = { path: items[i].path, kind: items[i].kind, diagnostics };
        for (const e of m.errors) readErrors.push(e);
        for (const c of m.corrections) corrections.push(c);
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
      for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port))
        handle(m.message as WorkerMessage, w);
    }
  };
  const watch = new StallWatch(options.workerStallMs ?? DEFAULT_WORKER_STALL_MS);
  /** Throws when a busy worker's heartbeat has not moved for too long. */
  const checkAlive = () => {
    const now = Date.now();
    for (const w of workers) {
      const busy = w.active && !w.done && Atomics.load(ctl, STATE + w.slot) === 1;
      if (watch.stalled(w.slot, busy, Atomics.load(ctl, heartbeatSlot(count, w.slot)), now)) {
        throw new WorkerStalledError(`worker ${w.slot} made no progress for ${watch.stallMs} ms`);
      }
    }
  };
  const waitUntil = (done: () => boolean) => {
    for (;;) {
      const seen = Atomics.load(ctl, SIGNAL);
      drain();
      if (done()) return;
      checkAlive();
      Atomics.wait(ctl, SIGNAL, seen, Math.min(1000, Math.max(10, watch.stallMs)));
    }
  };

  try {
    const work: WorkerInput = { items: wire, configs, poly, other };
    for (const w of workers) w.port.postMessage(work);
    Atomics.store(ctl, itemsSlot(count), 1);
    Atomics.notify(ctl, itemsSlot(count));
    const runner = new Runner(items, options.onRuleError, options.contents);

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
    // Unreadable files were reported in phase 1: not named, and analyzed by nobody.
    const withName = (list: number[]) =>
      list.filter((i) => names.has(i)).map((i): [number, string] => [i, names.get(i)!]);
    const named = [withName(runner.owned().filter((i) => !pinned[i])), ...namedBy.map(withName)];
    const start: Phase2Start = { lists: workspace.lists, named };
    for (const w of workers) if (w.active) w.port.postMessage(start);
    Atomics.store(ctl, GO, 1);
    Atomics.notify(ctl, GO);

    // Phase 2: every thread analyzes the Polytoken files it parsed, then takes chunks of the rest.
    const analyzeHere = (i: number, indexedName?: string) => {
      const r = runner.analyzeOne(i, workspace, indexedName);
      if ('error' in r) readErrors.push({ index: i, path: items[i].path, message: r.error });
      else if ('analysis' in r) {
        reports[i] = {
          path: items[i].path,
          kind: items[i].kind,
          diagnostics: r.analysis.diagnostics,
          ...(pinned[i] ? { analysis: r.analysis } : {}),
        };
        if (r.corrected !== undefined) corrections.push([i, r.corrected]);
      }
    };
    for (const i of runner.owned()) if (pinned[i]) analyzeHere(i);
    for (const i of pinnedOther) analyzeHere(i);
    claimPhase2(ctl, count, 0, named, other, (chunk) => {
      for (const [i, name] of chunk) analyzeHere(i, name);
    });
    waitUntil(() => workers.every((w) => !w.active || w.done || Atomics.load(ctl, STATE + w.slot) === 2));
    drain();
    for (const r of redo.splice(0)) for (const i of r.indexes) analyzeHere(i, names.get(i));
    const corrected = applyCorrections(items, names, corrections, reports, options, (i) => pinned[i]);
    return { reports, readErrors, names, workspace: corrected ?? workspace };
  } finally {
    if (Atomics.load(ctl, GO) === 0) {
      Atomics.store(ctl, GO, 2);
      Atomics.notify(ctl, GO);
    }
    closePool(pool);
  }
}

/** The body of `check-worker.js`: it waits for its work, which comes when the walk is done. */
export function workerMain(begin: WorkerStart): void {
  const ctl = new Int32Array(begin.ctl);
  const port = begin.port;
  try {
    Atomics.wait(ctl, itemsSlot(begin.count), 0);
    const posted = Atomics.load(ctl, itemsSlot(begin.count)) === 1 ? receiveMessageOnPort(port) : undefined;
    if (!posted || Atomics.compareExchange(ctl, STATE + begin.slot, 0, 1) !== 0) return;
    const data = { ...begin, ...(posted.message as WorkerInput) };
    const beat = () => Atomics.add(ctl, heartbeatSlot(data.count, data.slot), 1);
    const post = (m: WorkerMessage) => {
      port.postMessage(m);
      Atomics.add(ctl, SIGNAL, 1);
      Atomics.notify(ctl, SIGNAL);
    };
    const items: Item[] = data.items.map((w) => ({
      path: w.path,
      kind: w.kind,
      config: data.configs[w.config],
      root: w.root,
    }));
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
          beat();
          if ('error' in r) errors.push({ index: i, path: items[i].path, message: r.error });
          else names.push([i, r.name]);
        }
        post({ type: 'names', names, errors });
      } catch {
        runner.forget(indexes);
        post({ type: 'failed', phase: 1, indexes });
      }
    }

    Atomics.store(ctl, STATE + data.slot, 4); // idle: not a stalled worker
    Atomics.wait(ctl, GO, 0);
    Atomics.store(ctl, STATE + data.slot, 1);
    const received = Atomics.load(ctl, GO) === 1 ? receiveMessageOnPort(port) : undefined;
    if (!received) return;
    const start = received.message as Phase2Start;
    const workspace = nameIndex(start.lists);

    const analyzeAll = (chunk: readonly (readonly [number, string | undefined])[]) => {
      const reports: [number, Diagnostic[]][] = [];
      const errors: ReadError[] = [];
      const failed: number[] = [];
      const corrections: [number, string][] = [];
      for (const [i, indexedName] of chunk) {
        try {
          const r = runner.analyzeOne(i, workspace, indexedName);
          beat();
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
        // Not cloneable: done again on the main thread.
        for (const [i] of reports) failed.push(i);
        for (const e of errors) failed.push(e.index);
      }
      ruleErrors = [];
      if (failed.length) post({ type: 'failed', phase: 2, indexes: failed });
    };
    claimPhase2(ctl, data.count, 1 + data.slot, start.named, data.other, analyzeAll);
    post({ type: 'done' });
  } finally {
    Atomics.store(ctl, STATE + begin.slot, 2);
    Atomics.add(ctl, SIGNAL, 1);
    Atomics.notify(ctl, SIGNAL);
    port.close();
  }
}
