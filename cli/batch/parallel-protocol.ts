// What the main thread and the check workers share: the units of work and the messages.
import type { Diagnostic } from 'vscode-languageserver-types';
import type { FileKind, LoadedConfig, NameLists } from '../../shared';
import type { ReadError } from './check-runner';
import { ownListSlot, P2 } from './worker-pool';

/** Files per unit of work handed out between threads. */
export const CHUNK = 32;

export interface WireItem {
  path: string;
  kind: FileKind;
  config: number;
  root: string;
}

/** The work a worker is sent when the walk is done. */
export interface WorkerInput {
  items: WireItem[];
  configs: LoadedConfig[];
  poly: number[];
  other: number[];
}

export interface RuleErrorWire {
  rule: string;
  message: string;
  stack?: string;
}

/**
 * What a worker gets when phase 2 starts: the index, and the files each thread named (the main thread's first) with
 * their names.
 */
export interface Phase2Start {
  lists: NameLists;
  named: [number, string][][];
}

export type WorkerMessage =
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

export const chunkOf = <T>(list: readonly T[], c: number) => list.slice(c * CHUNK, (c + 1) * CHUNK);
export const chunks = (list: readonly unknown[]) => Math.ceil(list.length / CHUNK);

/**
 * Phase 2's order for `thread`: its own named files, the unnamed ones, then the named
 * files of the other threads; `analyze` gets each chunk it claims.
 */
export function claimPhase2(
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
