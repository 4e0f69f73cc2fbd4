/**
 * Watched-file events, coalesced. A client may send every change in its own
 * `workspace/didChangeWatchedFiles` notification (10,000 of them for a branch switch): each
 * handled alone re-read the index and re-checked the open documents 10,000 times. Events are
 * collected until the notifications pause (or for at most `MAX_WAIT_MS`), merged per path (the
 * last event wins: the handler reads the disk as it is then), and handed over as one batch; a
 * batch that arrives while the previous one is applied waits for it.
 */
import type { FileEvent } from 'vscode-languageserver';
import { documentIdentity } from './uri';

/** A batch goes once the events pause this long (an editor's requests in between are no pause)... */
const QUIET_MS = 50;
/** ...or this long after its first event, while they keep coming. */
const MAX_WAIT_MS = 500;

export class FileEventBatcher {
  /** By identity key: two spellings of one path are one event. */
  private readonly pending = new Map<string, FileEvent>();
  private quietTimer: NodeJS.Timeout | undefined;
  private maxWaitTimer: NodeJS.Timeout | undefined;
  private applying = false;
  private disposed = false;
  /** Events came since `busy()` last asked. */
  private arrived = false;

  constructor(
    /** `busy`: whether more events came since it last asked (the batch's work may then pause longer). */
    private readonly apply: (changes: FileEvent[], busy: () => boolean) => Promise<void>,
    private readonly log: (message: string) => void,
  ) {}

  add(changes: readonly FileEvent[]): void {
    if (this.disposed) return;
    this.arrived = true;
    for (const change of changes) {
      const key = documentIdentity(change.uri)?.key;
      if (key === undefined) continue;
      this.pending.delete(key); // re-inserted last: the batch keeps the order of the latest events
      this.pending.set(key, change);
    }
    if (!this.pending.size) return;
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.flush(), QUIET_MS);
    this.maxWaitTimer ??= setTimeout(() => this.flush(), MAX_WAIT_MS);
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.quietTimer);
    clearTimeout(this.maxWaitTimer);
    this.pending.clear();
  }

  private readonly busy = (): boolean => {
    const arrived = this.arrived;
    this.arrived = false;
    return arrived;
  };

  private async flush(): Promise<void> {
    clearTimeout(this.quietTimer);
    clearTimeout(this.maxWaitTimer);
    this.quietTimer = this.maxWaitTimer = undefined;
    if (this.applying || this.disposed || !this.pending.size) return; // the running batch flushes again when done
    const batch = [...this.pending.values()];
    this.pending.clear();
    this.applying = true;
    try {
      await this.apply(batch, this.busy);
    } catch (error) {
      this.log(
        `subagents: applying file changes failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      );
    } finally {
      this.applying = false;
      if (this.pending.size && !this.disposed) this.quietTimer = setTimeout(() => this.flush(), QUIET_MS);
    }
  }
}
