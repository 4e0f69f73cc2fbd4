/** The options and reports of `checkPaths`, shared by its serial, per-thread and parallel parts. */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { Analysis, FileKind, WorkspaceIndex } from '../../shared';
import type { ConfigOptions } from '../../shared/node';

export interface CheckOptions extends ConfigOptions {
  /** Paths in reports are relative to this folder. */
  cwd: string;
  onRuleError?: (rule: string, error: unknown) => void;
  /**
   * Worker threads besides the main thread; default: none up to PARALLEL_THRESHOLD
   * candidate files, else `defaultWorkerCount` of the cores (env SUBAGENTS_WORKERS overrides). The
   * output is the same either way. Only when `keepAnalysis` is not `true`.
   */
  workers?: number;
  /**
   * Which reports keep their `analysis` (for resolution, editor features); default: all.
   * Keeping every analysis holds every parse in memory and rules out worker threads:
   * `subagents check` passes false, `resolve` a predicate for its one file.
   */
  keepAnalysis?: boolean | ((path: string) => boolean);
  /**
   * Which candidates are analyzed and reported (default: all). The others only give the index
   * their names (phase 1: the quick name when the frontmatter is plain), as the folder around an
   * unsaved file or a resolved one. Runs on the main thread only.
   */
  analyze?: (path: string) => boolean;
  /**
   * Called with each analysis as it is made, so a caller can keep what it needs and let the
   * analysis go (`keepAnalysis: false`); again for a file analyzed a second time after a name
   * correction (the last call counts). Runs on the main thread only.
   */
  onAnalysis?: (path: string, analysis: Analysis) => void;
  /** How long a busy worker may go without progress before the check restarts on one thread (tests shorten it). */
  workerStallMs?: number;
  /** The worker entry to run instead of check-worker.js (tests use one that dies mid-run). */
  workerScript?: string;
  /**
   * Texts that replace files on disk (standard input checked as a file); such a path need
   * not exist. Read on the main thread only: give them `keepAnalysis`.
   */
  contents?: ReadonlyMap<string, string>;
  /** Reuse the reports of files unchanged since the last run (`check --cache`); only with `keepAnalysis: false`. */
  cache?: CacheOptions;
  /** Throw UnmatchedInputError, before checking anything, when an input holds no definition file. */
  failOnUnmatched?: boolean;
}

export interface CacheOptions {
  /** The cache file (absolute). */
  file: string;
  /** The checker's version and build: a cache written by another checker is not used. */
  checker: string;
  /** The user's key (cache-key.ts): the file is signed with it, and a file it does not sign is not used. */
  key: Buffer;
  /** The folders the run works in: a link at the cache's path is not followed out of them. */
  workspace?: readonly string[];
  /**
   * `metadata` (the default): an unchanged stamp answers for a file without reading it, and new
   * stamps are written. `content`: every file is read and hashed and no stamp is kept, so a
   * checkout that gave every file new times (CI) neither pays for the stamps nor rewrites the cache.
   */
  strategy?: 'metadata' | 'content';
}

/**
 * Items not to analyze (the files the cache answers), with the names the named ones (Polytoken, Picasso) register
 * under.
 */
export interface Preset {
  skip: ReadonlySet<number>;
  names: ReadonlyMap<number, string>;
}

/** What the serial or parallel run of a list of items gives back. */
export interface ItemsRun {
  reports: (FileReport | undefined)[];
  readErrors: { index: number; path: string; message: string }[];
  /** The name each named item registers under, and the index of names, corrections applied. */
  names: Map<number, string>;
  workspace: WorkspaceIndex;
}

export interface FileReport {
  /** Absolute, posix. */
  path: string;
  kind: FileKind;
  diagnostics: Diagnostic[];
  analysis?: Analysis;
}
