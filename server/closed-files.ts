/** What the workspace view and the workspace problems share: analysing a closed file from its disk text. */
import type { Connection } from 'vscode-languageserver';
import { analyze, type Analysis, type FileKind } from '../shared';
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
