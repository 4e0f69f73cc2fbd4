/**
 * The worker threads of `checkPaths` and their shared control array. Workers are started
 * before they have work: their start-up (loading the bundle, ≈ 0.1–0.2 s) overlaps the
 * walk, and the work is posted when the walk is done (check-parallel.ts). EarlyWorkers
 * starts them during the walk once it has seen enough files that could be definitions.
 */
import { MessageChannel, Worker, type MessagePort } from 'worker_threads';

// Slots of the shared Int32Array.
export const P1 = 0; // next phase-1 chunk
export const P2 = 1; // next phase-2 chunk of the unnamed files
export const SIGNAL = 2; // bumped after every message a worker posts
export const GO = 3; // 1: the index is posted, phase 2 may start; 2: abort
export const STATE = 4; // per worker: 0 not started, 1 running, 2 done, 3 cancelled before it started, 4 idle until the index comes
// After the STATE slots: one heartbeat per worker, bumped after every file it handles; then
// the next phase-2 chunk of each thread's named files (the main thread's first); then ITEMS.
export const heartbeatSlot = (count: number, slot: number) => STATE + count + slot;
export const ownListSlot = (count: number, thread: number) => STATE + 2 * count + thread;
/** 1: the work is posted; 2: cancelled (the check needs no worker after all). */
export const itemsSlot = (count: number) => STATE + 3 * count + 1;

/** What a worker gets when it starts. */
export interface WorkerStart {
  ctl: SharedArrayBuffer;
  port: MessagePort;
  slot: number;
  /** How many workers there are. */
  count: number;
}

export interface PooledWorker {
  worker: Worker;
  port: MessagePort;
  slot: number;
}

export interface WorkerPool {
  count: number;
  ctl: Int32Array;
  workers: PooledWorker[];
}

/** Starts `count` workers running `file`; they wait for their work. A worker that cannot start is left out. */
export function spawnWorkers(count: number, file: string): WorkerPool {
  const ctlBuffer = new SharedArrayBuffer(4 * (itemsSlot(count) + 1));
  const workers: PooledWorker[] = [];
  for (let slot = 0; slot < count; slot++) {
    const { port1, port2 } = new MessageChannel();
    const workerData: WorkerStart = { ctl: ctlBuffer, port: port2, slot, count };
    let worker: Worker;
    try {
      worker = new Worker(file, { workerData, transferList: [port2] });
    } catch {
      port1.close(); // no thread (resource limits…): the others, and this one, share its work
      continue;
    }
    worker.unref();
    worker.on('error', () => undefined); // a failed start leaves its work to the others
    workers.push({ worker, port: port1, slot });
  }
  return { count, ctl: new Int32Array(ctlBuffer), workers };
}

/** Ends a pool's workers, whether they got work or not. */
export function closePool(pool: WorkerPool): void {
  const items = itemsSlot(pool.count);
  if (Atomics.compareExchange(pool.ctl, items, 0, 2) === 0) Atomics.notify(pool.ctl, items);
  for (const w of pool.workers) {
    w.port.close();
    void w.worker.terminate().catch(() => undefined);
  }
}

/** Files the walk passes that could be definitions (or configuration files). */
const MAYBE_DEFINITION = /\.(md|ya?ml|json)$/;

/**
 * Starts the workers while the walk runs, once it has passed more files that could be
 * definitions than `threshold` (at once when the count was asked for). The check takes the
 * pool when it needs workers, and closes it otherwise.
 */
export class EarlyWorkers {
  private seen = 0;
  private pool?: WorkerPool;

  constructor(
    readonly count: number,
    private readonly file: string,
    private readonly threshold: number,
  ) {
    if (threshold <= 0) this.pool = spawnWorkers(count, file);
  }

  /** For each file the walk finds (its path). */
  readonly onFile = (path: string): void => {
    if (this.pool || !MAYBE_DEFINITION.test(path) || ++this.seen <= this.threshold) return;
    this.pool = spawnWorkers(this.count, this.file);
  };

  /** The started pool (once), if its size is `count`; any other is closed. */
  take(count: number): WorkerPool | undefined {
    const pool = this.pool;
    this.pool = undefined;
    if (pool && pool.count !== count) {
      closePool(pool);
      return undefined;
    }
    return pool;
  }

  close(): void {
    if (this.pool) closePool(this.pool);
    this.pool = undefined;
  }
}
