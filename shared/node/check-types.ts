/** The options and reports of `checkPaths`, shared by its serial, per-thread and parallel parts. */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { Analysis, FileKind } from '../types';
import type { ConfigOptions } from './config-loader';

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
  /** How long a busy worker may go without progress before the check restarts on one thread (tests shorten it). */
  workerStallMs?: number;
  /** The worker entry to run instead of check-worker.js (tests use one that dies mid-run). */
  workerScript?: string;
}

export interface FileReport {
  /** Absolute, posix. */
  path: string;
  kind: FileKind;
  diagnostics: Diagnostic[];
  analysis?: Analysis;
}
