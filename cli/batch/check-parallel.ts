import { receiveMessageOnPort } from 'worker_threads';
import type { LoadedConfig, NameLists, WorkspaceIndex } from '../../shared';

import type { CheckOptions, FileReport, ItemsRun, Preset } from './check-types';
import { applyCorrections, buildIndex, namedIndexes, Runner, type Item, type ReadError } from './check-runner';
import {
  chunkOf,
  chunks,
  claimPhase2,
  type Phase2Start,
  type WireItem,
  type WorkerInput,
  type WorkerMessage,
} from './parallel-protocol';
import {
  closePool,
  GO,
  heartbeatSlot,
  itemsSlot,
  P1,
  SIGNAL,
  spawnWorkers,
  STATE,
  type PooledWorker,
  type WorkerPool,
} from './worker-pool';

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

type Workspace = WorkspaceIndex & { readonly lists: NameLists };
type Tracked = PooledWorker & { active: boolean; done: boolean };

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
  pool ??= spawnWorkers(count, file);
  try {
    return new MainThreadRun(items, options, count, keepFor, pool, preset).run();
  } finally {
    const ctl = pool.ctl;
    if (Atomics.load(ctl, GO) === 0) {
      Atomics.store(ctl, GO, 2);
      Atomics.notify(ctl, GO);
    }
    closePool(pool);
  }
}

/** The main thread's side of one parallel check: it hands out the work, takes its share, and gathers the results. */
class MainThreadRun {
  private readonly ctl: Int32Array;
  private readonly workers: Tracked[];
  /** Files whose analysis is kept are done on this thread; the rest is shared. */
  private readonly pinned: boolean[];
  private readonly reports: (FileReport | undefined)[];
  private readonly readErrors: ReadError[] = [];
  private readonly names: Map<number, string>;
  private readonly redo: { phase: 1 | 2; indexes: number[] }[] = [];
  private readonly corrections: [number, string][] = [];
  /** The files each worker named in phase 1, by slot. */
  private readonly namedBy: number[][];
  private readonly watch: StallWatch;
  private readonly runner: Runner;
  private phase1Done = 0;

  constructor(
    private readonly items: Item[],
    private readonly options: CheckOptions,
    private readonly count: number,
    keepFor: (path: string) => boolean,
    pool: WorkerPool,
    private readonly preset?: Preset,
  ) {
    this.ctl = pool.ctl;
    this.workers = pool.workers.map((w) => ({ ...w, active: true, done: false }));
    this.pinned = items.map((c) => keepFor(c.path));
    this.reports = new Array(items.length);
    this.names = new Map(preset?.names);
    this.namedBy = Array.from({ length: count }, () => []);
    this.watch = new StallWatch(options.workerStallMs ?? DEFAULT_WORKER_STALL_MS);
    this.runner = new Runner(items, options.onRuleError, options.contents);
  }

  run(): ItemsRun {
    const { items, pinned } = this;
    // Skipped items (answered by the cache) come with their names and need neither phase.
    const todo = (i: number) => !this.preset?.skip.has(i);
    const named = namedIndexes(items);
    const isNamed = new Set(named);
    const poly = named.filter((i) => !pinned[i] && todo(i));
    const pinnedPoly = named.filter((i) => pinned[i] && todo(i));
    // Named files are analyzed by the thread that named them (phase 1 keeps their text), not again.
    const other = items.map((_, i) => i).filter((i) => !isNamed.has(i) && !pinned[i] && todo(i));
    const pinnedOther = items.map((_, i) => i).filter((i) => !isNamed.has(i) && pinned[i] && todo(i));
    this.postWork(poly, other);
    const workspace = this.phase1(poly, pinnedPoly);
    this.phase2(workspace, other, pinnedOther);
    const corrected = applyCorrections(
      items,
      this.names,
      this.corrections,
      this.reports,
      this.options,
      (i) => pinned[i],
    );
    return { reports: this.reports, readErrors: this.readErrors, names: this.names, workspace: corrected ?? workspace };
  }

  /** Sends every worker the items, with each configuration once. */
  private postWork(poly: number[], other: number[]): void {
    const configIds = new Map<LoadedConfig, number>();
    const configs: LoadedConfig[] = [];
    const wire: WireItem[] = this.items.map((c) => {
      let id = configIds.get(c.config);
      if (id === undefined) {
        configIds.set(c.config, (id = configs.length));
        configs.push(c.config);
      }
      return { path: c.path, kind: c.kind, config: id, root: c.root };
    });
    const work: WorkerInput = { items: wire, configs, poly, other };
    for (const w of this.workers) w.port.postMessage(work);
    Atomics.store(this.ctl, itemsSlot(this.count), 1);
    Atomics.notify(this.ctl, itemsSlot(this.count));
  }

  /** Phase 1: the shadowing index, from this thread's names and the workers'. */
  private phase1(poly: number[], pinnedPoly: number[]): Workspace {
    const { ctl } = this;
    for (const i of pinnedPoly) this.indexHere(i);
    const phase1Chunks = chunks(poly);
    for (let c = Atomics.add(ctl, P1, 1); c < phase1Chunks; c = Atomics.add(ctl, P1, 1)) {
      for (const i of chunkOf(poly, c)) this.indexHere(i);
      this.phase1Done++;
    }
    this.workers.forEach((w) => {
      if (Atomics.compareExchange(ctl, STATE + w.slot, 0, 3) === 0) w.active = false;
    });
    this.waitUntil(() => this.phase1Done >= phase1Chunks);
    for (const r of this.redo.splice(0)) for (const i of r.indexes) this.indexHere(i);
    return buildIndex(this.items, this.names);
  }

  /** Phase 2: every thread analyzes the Polytoken files it parsed, then takes chunks of the rest. */
  private phase2(workspace: Workspace, other: number[], pinnedOther: number[]): void {
    const { ctl, pinned, names } = this;
    // Unreadable files were reported in phase 1: not named, and analyzed by nobody.
    const withName = (list: number[]) =>
      list.filter((i) => names.has(i)).map((i): [number, string] => [i, names.get(i)!]);
    const named = [withName(this.runner.owned().filter((i) => !pinned[i])), ...this.namedBy.map(withName)];
    const start: Phase2Start = { lists: workspace.lists, named };
    for (const w of this.workers) if (w.active) w.port.postMessage(start);
    Atomics.store(ctl, GO, 1);
    Atomics.notify(ctl, GO);

    for (const i of this.runner.owned()) if (pinned[i]) this.analyzeHere(workspace, i);
    for (const i of pinnedOther) this.analyzeHere(workspace, i);
    claimPhase2(ctl, this.count, 0, named, other, (chunk) => {
      for (const [i, name] of chunk) this.analyzeHere(workspace, i, name);
    });
    this.waitUntil(() => this.workers.every((w) => !w.active || w.done || Atomics.load(ctl, STATE + w.slot) === 2));
    this.drain();
    for (const r of this.redo.splice(0)) for (const i of r.indexes) this.analyzeHere(workspace, i, names.get(i));
  }

  private indexHere(i: number): void {
    const r = this.runner.indexEntry(i);
    if ('error' in r) this.readErrors.push({ index: i, path: this.items[i].path, message: r.error });
    else this.names.set(i, r.name);
  }

  private analyzeHere(workspace: Workspace, i: number, indexedName?: string): void {
    const item = this.items[i];
    const r = this.runner.analyzeOne(i, workspace, indexedName);
    if ('error' in r) this.readErrors.push({ index: i, path: item.path, message: r.error });
    else if ('analysis' in r) {
      this.reports[i] = {
        path: item.path,
        kind: item.kind,
        diagnostics: r.analysis.diagnostics,
        ...(this.pinned[i] ? { analysis: r.analysis } : {}),
      };
      if (r.corrected !== undefined) this.corrections.push([i, r.corrected]);
    }
  }

  private handle(m: WorkerMessage, w: Tracked): void {
    for (const e of m.ruleErrors ?? []) {
      const error = new Error(e.message);
      error.stack = e.stack;
      this.options.onRuleError?.(e.rule, error);
    }
    switch (m.type) {
      case 'names':
        for (const [i, name] of m.names) {
          this.names.set(i, name);
          this.namedBy[w.slot].push(i);
        }
        for (const e of m.errors) this.readErrors.push(e);
        this.phase1Done++;
        break;
      case 'reports':
        for (const [i, diagnostics] of m.reports)
          this.reports[i] = { path: this.items[i].path, kind: this.items[i].kind, diagnostics };
        for (const e of m.errors) this.readErrors.push(e);
        for (const c of m.corrections) this.corrections.push(c);
        break;
      case 'failed':
        this.redo.push({ phase: m.phase, indexes: m.indexes });
        if (m.phase === 1) this.phase1Done++;
        break;
      case 'done':
        w.done = true;
        break;
    }
  }

  private drain(): void {
    for (const w of this.workers) {
      for (let m = receiveMessageOnPort(w.port); m; m = receiveMessageOnPort(w.port))
        this.handle(m.message as WorkerMessage, w);
    }
  }

  /** Throws when a busy worker's heartbeat has not moved for too long. */
  private checkAlive(): void {
    const now = Date.now();
    for (const w of this.workers) {
      const busy = w.active && !w.done && Atomics.load(this.ctl, STATE + w.slot) === 1;
      if (this.watch.stalled(w.slot, busy, Atomics.load(this.ctl, heartbeatSlot(this.count, w.slot)), now)) {
        throw new WorkerStalledError(`worker ${w.slot} made no progress for ${this.watch.stallMs} ms`);
      }
    }
  }

  private waitUntil(done: () => boolean): void {
    for (;;) {
      const seen = Atomics.load(this.ctl, SIGNAL);
      this.drain();
      if (done()) return;
      this.checkAlive();
      Atomics.wait(this.ctl, SIGNAL, seen, Math.min(1000, Math.max(10, this.watch.stallMs)));
    }
  }
}
