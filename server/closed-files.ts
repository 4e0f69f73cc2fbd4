/** What the workspace view and the workspace problems share: analysing a closed file from its disk text. */
import type { Connection } from 'vscode-languageserver';
import { analyze, nameKeyOf, type Analysis, type FileKind, type LoadedConfig } from '../shared';
import type { Configuration } from './configuration';
import type { DefinitionIndex } from './workspace-index';
import { nextTurn, type Cancellable } from './turn';

/** A rule that throws is logged once per rule (per logger); the other rules still report. */
export function ruleErrorLogger(connection: Connection): (rule: string, error: unknown) => void {
  const logged = new Set<string>();
  return (rule, error) => {
    if (logged.has(rule)) return;
    logged.add(rule);
    connection.console.error(
      `subagents: rule ${rule} failed and was skipped: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    );
  };
}

/** A closed file analysed under its configuration, with the workspace index. */
export function analyzeClosed(
  host: { configuration: Configuration; index: DefinitionIndex },
  input: { path: string; text: string; kind: FileKind },
  onRuleError: (rule: string, error: unknown) => void,
): Analysis {
  const { configuration, index } = host;
  return analyze({
    ...input,
    config: configuration.configFor(input.path),
    root: configuration.folderOf(input.path),
    workspace: index.names.workspaceIndex(),
    onRuleError,
  });
}

/** At most this many analyses wait for their second reader (each holds its file's parse). */
const MAX_KEPT = 64;

interface Kept {
  text: string;
  config: LoadedConfig;
  /** The name the file registers, and its revision: the analysis holds while that does not move. */
  name: string | undefined;
  revision: number;
  analysis: Analysis;
}

/**
 * The closed files' analyses, shared by their readers (the workspace view's summaries, the
 * Problems reports): each reader works through its own queue, and an analysis one of them makes
 * while another has the same file queued is kept until that one takes it, if its text, its
 * configuration and the revision of its name are still the same. Only a few are kept (the readers
 * run in alternate slices, close behind each other); the rest are analysed again. `analysed` and
 * `shared` count, for the log line a finished pass writes (and the tests).
 */
export class ClosedAnalyses {
  private readonly kept = new Map<string, Kept>();
  private readonly readers: SlicedQueue[] = [];
  analysed = 0;
  shared = 0;
  private logged = '';

  constructor(
    private readonly host: { configuration: Configuration; index: DefinitionIndex; connection: Connection },
  ) {}

  /**
   * A reader's queue of closed files, worked through in slices of `sliceMs`: what it has queued and
   * will run is what another reader's analyses are kept for, and each time it drains the counts are
   * logged (once per change).
   */
  readerQueue(sliceMs: number, each: (path: string) => void, drained: () => void, canRun: () => boolean): SlicedQueue {
    const queue = new SlicedQueue(
      sliceMs,
      each,
      () => {
        drained();
        this.logCounts();
      },
      canRun,
    );
    this.readers.push(queue);
    return queue;
  }

  analyze(
    input: { path: string; text: string; kind: FileKind },
    onRuleError: (rule: string, error: unknown) => void,
    reader: SlicedQueue | undefined,
  ): Analysis {
    const { path, text } = input;
    const { configuration, index } = this.host;
    const config = configuration.configFor(path);
    const kept = this.kept.get(path);
    if (kept) {
      this.kept.delete(path);
      if (
        kept.text === text &&
        kept.config === config &&
        (kept.name === undefined || index.names.revisionOf(kept.name) === kept.revision)
      ) {
        this.shared++;
        return kept.analysis;
      }
    }
    const analysis = analyzeClosed(this.host, input, onRuleError);
    this.analysed++;
    // Stryker disable next-line ConditionalExpression,LogicalOperator: keeping an analysis no other reader waits for only holds memory; a later read is served only on the same text, configuration and name revision, so it gets the analysis it would make
    if (this.readers.some((q) => q !== reader && q.waitingFor(path))) {
      const name =
        analysis.kind && analysis.context ? nameKeyOf(analysis.kind, analysis.context.file, path) : undefined;
      if (this.kept.size >= MAX_KEPT) this.kept.delete(this.kept.keys().next().value!); // the oldest: likely never taken
      this.kept.set(path, {
        text,
        config,
        name,
        revision: name === undefined ? 0 : index.names.revisionOf(name),
        analysis,
      });
    }
    return analysis;
  }

  /** A queue drained: how many closed-file analyses so far, and how many served a second reader (once per change; a debug message). */
  private logCounts(): void {
    const line = `subagents: closed files analysed: ${this.analysed} (${this.shared} more reads served by an analysis already made)`;
    if (line === this.logged) return;
    this.logged = line;
    this.host.connection.console.debug(line); // shown at the Debug log level only
  }
}

/**
 * Paths worked through in the background, in order, a slice of `sliceMs` per turn of the event
 * loop (at least one path), so requests are answered between slices. `drained` runs when the
 * queue empties; `canRun` says whether work may start now.
 */
export class SlicedQueue {
  readonly paths = new Set<string>();
  private worker: Cancellable | undefined;

  constructor(
    private readonly sliceMs: number,
    private readonly each: (path: string) => void,
    private readonly drained: () => void,
    private readonly canRun: () => boolean,
  ) {}

  kick(): void {
    if (this.worker || !this.canRun()) return;
    this.worker = nextTurn(() => this.work());
  }

  cancel(): void {
    this.worker?.cancel();
    this.worker = undefined;
  }

  /** Whether this path is queued and the queue may run (an analysis kept for it will be taken). */
  waitingFor(path: string): boolean {
    return this.paths.has(path) && this.canRun();
  }

  private work(): void {
    this.worker = undefined;
    const deadline = performance.now() + this.sliceMs;
    for (const path of this.paths) {
      this.paths.delete(path);
      this.each(path);
      if (performance.now() >= deadline) break;
    }
    if (this.paths.size) this.kick();
    else this.drained();
  }
}
