/**
 * The workspace view's data: `subagents/workspace` answers every definition of the workspace
 * from a per-file summary cache (shared/features/workspace-summary.ts), and
 * `subagents/workspaceChanged` tells the client which files' summaries changed.
 *
 * Only the summaries are kept, never the analyses (10,000 analyses would hold every parse).
 * They are filled in the background once the index is built and a client has asked (a client
 * without a view pays nothing): each closed definition file is
 * analysed with the workspace index in slices of a few milliseconds, yielding to the event
 * loop between slices so requests are answered meanwhile; open documents are summarized from
 * their live analysis when they are published. A file is summarized again when it changes on
 * disk, when the index's revision of its Polytoken name moves (shadowing depends only on
 * same-name definitions), and everything after an index rebuild, which follows every
 * configuration change. Until the first full pass ends, answers say `complete: false`.
 */
import { posix } from 'path';
import { FileChangeType, type Connection, type FileEvent } from 'vscode-languageserver';
import type { Analysis } from '../shared';
import { ruleErrorLogger, SlicedQueue, type ClosedAnalyses } from './closed-files';
import { resolveWithProvenance } from '../shared';
import { readIfRegular, summarizeFile, workspaceRuntimes, type SummaryPlace, type WorkspaceHost } from '../shared';
import {
  WORKSPACE_CHANGED_NOTIFICATION,
  WORKSPACE_REQUEST,
  type WorkspaceChangedParams,
  type WorkspaceDefinition,
  type WorkspaceParams,
  type WorkspaceResult,
} from '../shared';
import type { Dialect, Resolution } from '../shared';
import type { Configuration } from './configuration';
import type { DefinitionIndex } from './workspace-index';
import type { Timer } from './turn';
import { uriToPath } from './uri';

/**
 * Background work per turn of the event loop (at least one file): requests and edits wait about
 * this long, and a large answer, which leaves through the pipe a buffer per turn, is not held
 * back. Measured with bench/server.mjs and bench/view.mjs: longer slices made hover and edits
 * wait without making the pass shorter.
 */
const SLICE_MS = 1;
/**
 * An open document is summarized after its edits pause this long (at the latest this long after
 * the first): a large definition is not resolved again on every keystroke.
 */
const LIVE_QUIET_MS = 50;
const LIVE_MAX_WAIT_MS = 500;
/** Changes are told after this quiet time, and at least this often while they keep coming. */
const QUIET_MS = 100;
const MAX_WAIT_MS = 1000;
/** Past this many changed files, the notification says "everything" (an empty list). */
const MAX_LISTED_URIS = 500;

export interface WorkspaceViewHost {
  connection: Connection;
  configuration: Configuration;
  index: DefinitionIndex;
  /** How closed files are read (the disk, or the client's files). */
  files: WorkspaceHost;
  /** Open documents are summarized from their live analysis (`documentAnalyzed`), not from disk. */
  isOpen(path: string): boolean;
  openPaths(): Iterable<string>;
  /** Closed files' analyses, shared with the Problems reports. */
  closed: ClosedAnalyses;
}

interface FileSummary {
  uri: string;
  definitions: WorkspaceDefinition[];
}

/** Where the first or a new full pass stands: `complete` is true only when it is `done`. */
type Pass = 'awaiting-index' | 'running' | 'done';

export class WorkspaceView {
  /** By path (posix). */
  private readonly summaries = new Map<string, FileSummary>();
  /** Paths to summarize from disk, in order. */
  private pass: Pass = 'awaiting-index';
  /** The Polytoken global folders of the workspace's configurations: read for shadowing, not listed. */
  private globalDirs: Set<string> | undefined;
  /** Notifications start once the client asked `subagents/workspace` (clients without a view hear nothing). */
  private subscribed = false;
  private readonly changedUris = new Set<string>();
  private everythingChanged = false;
  private quietTimer: Timer | undefined;
  private maxWaitTimer: Timer | undefined;
  /** Open documents' latest analyses, waiting for a pause in their edits. */
  private readonly live = new Map<string, { uri: string; analysis: Analysis }>();
  private liveTimer: Timer | undefined;
  private liveSince = 0;
  private shuttingDown = false;
  private readonly onRuleError: (rule: string, error: unknown) => void;
  /** Paths to check from disk, in order. */
  private readonly queue: SlicedQueue;
  /**
   * Open documents whose file was deleted on disk: the runtime reads the disk, so their rows go,
   * however long the tab stays open (VS Code strikes it through); saved again, they come back.
   */
  private readonly deletedWhileOpen = new Set<string>();

  constructor(private readonly host: WorkspaceViewHost) {
    this.onRuleError = ruleErrorLogger(host.connection);
    this.queue = host.closed.readerQueue(
      SLICE_MS,
      (path) => this.summarizeFromDisk(path),
      () => {
        if (this.pass === 'running') {
          this.pass = 'done';
          this.changed(undefined);
        }
      },
      () => !this.shuttingDown && this.subscribed,
    );
  }

  register(): void {
    this.host.connection.onRequest(WORKSPACE_REQUEST, (params: WorkspaceParams | undefined) => this.answer(params));
  }

  /** `subagents/workspace`: what there is now; `complete` once the full pass is done. */
  answer(params: WorkspaceParams | undefined): WorkspaceResult {
    if (!this.subscribed) {
      // The first request starts the background work: a client without a view never pays for it.
      this.summarizeLive(); // before subscribing: the answer holds them, no notification needed
      this.subscribed = true;
      this.kick();
    }
    const definitions: WorkspaceDefinition[] = [];
    const uris = Array.isArray(params?.uris)
      ? params.uris.filter((u): u is string => typeof u === 'string')
      : undefined;
    if (uris) {
      for (const uri of uris) {
        const path = uriToPath(uri);
        for (const d of (path && this.summaries.get(path)?.definitions) || []) definitions.push(d);
      }
    } else {
      for (const s of this.summaries.values()) for (const d of s.definitions) definitions.push(d);
    }
    return { definitions, runtimes: workspaceRuntimes(), complete: this.pass === 'done' };
  }

  /**
   * The resolution of a closed definition file, from the disk's text (the view expands definitions that are not open).
   */
  resolveClosed(uri: string): Resolution | undefined {
    const path = uriToPath(uri);
    const entry = path && !this.host.isOpen(path) ? this.host.index.names.get(path) : undefined;
    const text = entry && readIfRegular(this.host.files, entry.path);
    if (!entry || text === undefined) return undefined;
    return resolveWithProvenance(this.analyzeText(entry.path, text, entry.kind), uri);
  }

  /**
   * Configuration changed: every summary is stale. When an index rebuild follows, it is summarized
   * once that is done; otherwise (an unsaved `rules:` edit, say) at once, over the same index.
   */
  configurationChanged(rebuildFollows: boolean): void {
    this.globalDirs = undefined;
    // Still waiting for the first (or a pending) index: that pass will read the new configuration.
    if (rebuildFollows || this.pass === 'awaiting-index') this.pass = 'awaiting-index';
    else this.summarizeAll();
  }

  /** The index was (re)built: summarize every definition again and forget what is gone. */
  indexRebuilt(): void {
    this.globalDirs = undefined;
    const names = this.host.index.names;
    for (const path of [...this.summaries.keys()]) if (!names.get(path)) this.remove(path);
    this.summarizeAll();
  }

  private summarizeAll(): void {
    this.pass = 'running';
    for (const entry of this.host.index.names.all()) this.queue.paths.add(entry.path);
    this.kick();
  }

  /** Files whose index entries the watcher's events read again or removed: summarized again (or forgotten). */
  filesChanged(paths: readonly string[]): void {
    for (const path of paths) if (!this.host.isOpen(path)) this.queue.paths.add(path);
    this.kick();
  }

  /** An open document was analysed and published: its live analysis is its summary, once its edits pause. */
  documentAnalyzed(uri: string, path: string, analysis: Analysis): void {
    if (this.shuttingDown) return;
    this.queue.paths.delete(path);
    if (this.deletedWhileOpen.has(path)) return; // no file: the runtime does not read it
    if (!this.live.size) this.liveSince = performance.now();
    this.live.set(path, { uri, analysis });
    if (!this.subscribed) return; // kept (the documents' cache holds it anyway) until a view asks
    clearTimeout(this.liveTimer);
    const wait = Math.max(0, Math.min(LIVE_QUIET_MS, this.liveSince + LIVE_MAX_WAIT_MS - performance.now()));
    this.liveTimer = setTimeout(() => this.summarizeLive(), wait);
  }

  /**
   * Watched-file events for open documents (the index keeps the editor's text for them): deleted
   * on disk (the path itself or a folder above it), the row goes; created or changed again (saved
   * from the tab), the row comes back, from the disk's text, which is the document's.
   */
  openFilesChangedOnDisk(changes: readonly FileEvent[]): void {
    // One pass over the open documents per batch (not one per event): each event's position in the
    // batch tells whether a file was deleted last or saved last.
    const deletedAt = new Map<string, number>();
    const savedAt = new Map<string, number>();
    changes.forEach((change, at) => {
      const path = uriToPath(change.uri);
      if (path) (change.type === FileChangeType.Deleted ? deletedAt : savedAt).set(path, at);
    });
    if (!deletedAt.size && !savedAt.size) return;
    for (const open of this.host.openPaths()) {
      const deleted = lastDeletion(open, deletedAt);
      const saved = savedAt.get(open) ?? -1;
      if (deleted > saved) {
        this.deletedWhileOpen.add(open);
        this.live.delete(open);
        this.remove(open);
      } else if (saved >= 0 && this.deletedWhileOpen.delete(open)) this.summarizeText(open);
    }
  }

  /** A file is no longer open: back to the disk's text (or gone, when it is no definition there). */
  documentClosed(path: string): void {
    this.deletedWhileOpen.delete(path);
    this.live.delete(path);
    this.queue.paths.add(path);
    this.kick();
  }

  shutdown(): void {
    this.shuttingDown = true;
    this.queue.cancel();
    clearTimeout(this.liveTimer);
    clearTimeout(this.quietTimer);
    clearTimeout(this.maxWaitTimer);
  }

  /** The name keys (`dialect:name`) whose definitions changed: their files' shadowing or duplicates may have. */
  namesChanged(names: readonly string[]): void {
    for (const name of names) for (const path of this.host.index.names.pathsNamed(name)) this.queue.paths.add(path);
    this.kick();
  }

  private kick(): void {
    this.queue.kick();
  }

  private summarizeLive(): void {
    this.liveTimer = undefined;
    for (const [path, { uri, analysis }] of this.live) {
      if (!this.host.index.names.get(path) || this.isGlobal(path)) this.remove(path);
      else this.store(path, uri, analysis);
    }
    this.live.clear();
  }

  private summarizeFromDisk(path: string): void {
    if (this.host.isOpen(path)) return; // summarized from its live analysis
    this.summarizeText(path);
  }

  private summarizeText(path: string): void {
    const entry = this.host.index.names.get(path);
    const text = entry && !this.isGlobal(path) ? readIfRegular(this.host.files, path) : undefined;
    if (!entry || text === undefined) return this.remove(path);
    this.store(path, entry.uri, this.analyzeText(path, text, entry.kind));
  }

  private analyzeText(path: string, text: string, kind: Dialect): Analysis {
    return this.host.closed.analyze({ path, text, kind }, this.onRuleError, this.queue);
  }

  private store(path: string, uri: string, analysis: Analysis): void {
    const { configuration } = this.host;
    const place: SummaryPlace = { folder: configuration.folderOf(path), multiRoot: configuration.folders.length > 1 };
    const definitions = summarizeFile(analysis, uri, place);
    if (!definitions.length) return this.remove(path);
    const old = this.summaries.get(path);
    this.summaries.set(path, { uri, definitions });
    if (old && old.uri !== uri) this.changed(old.uri);
    // Compared as JSON: a few small objects per file, and no second copy kept for it.
    if (!old || JSON.stringify(old.definitions) !== JSON.stringify(definitions)) this.changed(uri);
  }

  private remove(path: string): void {
    const old = this.summaries.get(path);
    if (!old) return;
    this.summaries.delete(path);
    this.changed(old.uri);
  }

  private isGlobal(path: string): boolean {
    if (!this.globalDirs) {
      const { configuration } = this.host;
      this.globalDirs = new Set();
      for (const folder of configuration.folders) {
        const dir = configuration.configFor(posix.join(folder, '_')).globalDir;
        if (dir) this.globalDirs.add(dir);
      }
    }
    const dir = posix.dirname(path);
    return this.globalDirs.has(dir) || this.host.configuration.configFor(path).globalDir === dir;
  }

  /** A file's definitions changed (undefined: anything may have): tell the client soon, in one batch. */
  private changed(uri: string | undefined): void {
    if (!this.subscribed || this.shuttingDown) return;
    if (uri === undefined || this.changedUris.size >= MAX_LISTED_URIS) {
      this.everythingChanged = true;
      this.changedUris.clear();
    } else this.changedUris.add(uri); // ignored by flush once everything changed, and bounded by the cap
    clearTimeout(this.quietTimer);
    this.quietTimer = setTimeout(() => this.flush(), QUIET_MS);
    this.maxWaitTimer ??= setTimeout(() => this.flush(), MAX_WAIT_MS);
  }

  private flush(): void {
    clearTimeout(this.quietTimer);
    clearTimeout(this.maxWaitTimer);
    this.quietTimer = this.maxWaitTimer = undefined;
    const params: WorkspaceChangedParams = { uris: this.everythingChanged ? [] : [...this.changedUris] };
    this.changedUris.clear();
    this.everythingChanged = false;
    if (!this.shuttingDown) void this.host.connection.sendNotification(WORKSPACE_CHANGED_NOTIFICATION, params);
  }
}

/** The batch position of the last deletion of `path` or of a folder above it (-1: none). */
function lastDeletion(path: string, deletedAt: ReadonlyMap<string, number>): number {
  let last = deletedAt.get(path) ?? -1;
  for (let cut = path.lastIndexOf('/'); cut > 0; cut = path.lastIndexOf('/', cut - 1))
    last = Math.max(last, deletedAt.get(path.slice(0, cut)) ?? -1);
  return last;
}
