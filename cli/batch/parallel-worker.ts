// The body of a check worker thread (see check-parallel.ts for how the work is shared).
import { receiveMessageOnPort } from 'worker_threads';
import type { Diagnostic } from 'vscode-languageserver-types';
import { nameIndex } from '../../shared';
import { Runner, type Item, type ReadError } from './check-runner';
import {
  chunkOf,
  chunks,
  claimPhase2,
  type Phase2Start,
  type RuleErrorWire,
  type WorkerInput,
  type WorkerMessage,
} from './parallel-protocol';
import { GO, heartbeatSlot, itemsSlot, P1, SIGNAL, STATE, type WorkerStart } from './worker-pool';

export type { WorkerStart };

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
