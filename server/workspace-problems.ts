/**
 * Problems for the whole workspace: every definition and `.subagents.yaml` inside the workspace
 * folders (the index's `checkedFiles`) is checked from disk while it is closed, so the Problems
 * panel lists a broken file before anyone opens it. Open documents keep their own diagnostics
 * (server/documents.ts); a file's disk diagnostics come back when it is closed.
 *
 * Two ways to the client, chosen by its capabilities at initialize:
 * - pull (LSP 3.17): `textDocument/diagnostic` for open documents and `workspace/diagnostic`,
 *   answered from the reports kept here, with a result id per file so unchanged files are sent as
 *   `unchanged`. When nothing changed since the client's last pull, the answer waits (long poll)
 *   until something does, or the client cancels.
 * - push: `textDocument/publishDiagnostics` of each closed file whose diagnostics changed.
 *
 * `subagents.problems.scope: openFiles` turns the closed files off; `subagents.problems.maxFiles`
 * caps how many are checked (configurations first, then definitions in walk order), so a huge
 * monorepo does not keep tens of thousands of reports: the others report when opened, and the
 * output says how many were left out. Like the workspace view, files are checked in slices of a
 * millisecond or so between which requests are answered; reports are kept, analyses are not.
 */
import type {
  CancellationToken,
  ClientCapabilities,
  Connection,
  Diagnostic,
  DiagnosticOptions,
} from 'vscode-languageserver';
import {
  DocumentDiagnosticReportKind,
  type DocumentDiagnosticReport,
  type WorkspaceDiagnosticReport,
  type WorkspaceDocumentDiagnosticReport,
} from 'vscode-languageserver';
import { readIfRegular, type FileKind, type WorkspaceHost } from '../shared';
import { ruleErrorLogger, SlicedQueue, type ClosedAnalyses } from './closed-files';
import type { Configuration } from './configuration';
import { capDiagnostics } from './documents';
import type { DefinitionIndex } from './workspace-index';
import { pathToUri, uriToPath } from './uri';

/** Background work per turn of the event loop (at least one file), as the workspace view's. */
const SLICE_MS = 1;
/** The result id of an empty report for a file that is gone: the client has it, nothing to send again. */
const GONE = 'gone';
/** Refresh requests to the client (pull) are sent at most this often. */
const REFRESH_QUIET_MS = 50;

export interface WorkspaceProblemsHost {
  connection: Connection;
  configuration: Configuration;
  index: DefinitionIndex;
  capabilities: () => ClientCapabilities;
  /** How closed files are read (the disk, or the client's files). */
  files: WorkspaceHost;
  isOpen(path: string): boolean;
  /** Closed files' analyses, shared with the workspace view. */
  closed: ClosedAnalyses;
  /** The URIs of the open documents. */
  openUris(): Iterable<string>;
  /** An open document's diagnostics as published (pull: answered from them); undefined when it is not open. */
  openDiagnostics(uri: string): { diagnostics: Diagnostic[]; version: number } | undefined;
}

interface Report {
  uri: string;
  diagnostics: Diagnostic[];
  /** Bumped whenever the diagnostics change: the client's `previousResultId` says whether it has them. */
  resultId: string;
}

/** Whether the client pulls diagnostics (LSP 3.17) rather than being sent them. */
export function clientPulls(capabilities: ClientCapabilities): boolean {
  return !!capabilities.textDocument?.diagnostic;
}

export class WorkspaceProblems {
  /** The closed files' reports, by path. */
  private readonly reports = new Map<string, Report>();
  /** The files within the scope and the cap: what `reports` may hold. */
  private inScope = new Set<string>();
  private passDone = false;
  private nextId = 1;
  /** Workspace pulls waiting for a change (long poll), and for the first pass. */
  private waiting: (() => void)[] = [];
  /**
   * What the workspace reports last said of each open document: the client takes a document's
   * diagnostics from the workspace report while it does not pull it itself (open but not visible).
   */
  private readonly sentOpen = new Map<string, string>();
  private refreshTimer: ReturnType<typeof setTimeout> | undefined;
  private reportedCap = -1;
  private shuttingDown = false;
  private readonly onRuleError: (rule: string, error: unknown) => void;
  /** Paths to check from disk, in order. */
  private readonly queue: SlicedQueue;
  pull = false;

  constructor(private readonly host: WorkspaceProblemsHost) {
    this.onRuleError = ruleErrorLogger(host.connection);
    this.queue = host.closed.readerQueue(
      SLICE_MS,
      (path) => this.check(path),
      () => {
        this.passDone = true;
        this.wake();
      },
      () => !this.shuttingDown,
    );
  }

  /** Decides pull or push from the client's capabilities, and the server's capability for it. */
  capability(capabilities: ClientCapabilities): { diagnosticProvider?: DiagnosticOptions } {
    this.pull = clientPulls(capabilities);
    if (!this.pull) return {};
    return {
      diagnosticProvider: { identifier: 'subagents', interFileDependencies: true, workspaceDiagnostics: true },
    };
  }

  /** The pull requests (answered whatever the client said: a client that pushes never sends them). */
  register(): void {
    const { connection } = this.host;
    connection.languages.diagnostics.on((params) => this.documentReport(params.textDocument.uri));
    connection.languages.diagnostics.onWorkspace((params, token) =>
      this.workspaceReport(params.previousResultIds, token),
    );
  }

  /** The index was (re)built, or the settings changed: which files are in scope, each checked again. */
  indexRebuilt(): void {
    const { settings } = this.host.configuration;
    const next = new Set<string>();
    if (settings.problemsScope === 'workspace') {
      const all = [...this.host.index.checkedFiles];
      // Configurations first: a broken one changes what every file below it means.
      const ordered = all.filter(([, k]) => k === 'config').concat(all.filter(([, k]) => k !== 'config'));
      for (const [path] of ordered.slice(0, settings.problemsMaxFiles)) next.add(path);
      this.logCap(all.length, settings.problemsMaxFiles);
    }
    for (const path of this.reports.keys()) if (!next.has(path)) this.remove(path);
    this.inScope = next;
    this.queue.paths.clear();
    for (const path of next) this.queue.paths.add(path);
    this.passDone = false;
    this.kick();
  }

  /** Files the watcher's events read again, added or removed. */
  filesChanged(paths: readonly string[]): void {
    const { settings } = this.host.configuration;
    for (const path of paths) {
      if (!this.host.index.checkedFiles.has(path)) {
        this.inScope.delete(path);
        this.remove(path);
      } else if (this.inScope.has(path) || (settings.problemsScope === 'workspace' && this.hasRoom())) {
        this.inScope.add(path);
        this.queue.paths.add(path);
      }
    }
    this.kick();
  }

  /** Same-name definitions changed: the files carrying these names may shadow or clash differently. */
  namesChanged(names: readonly string[]): void {
    for (const name of names)
      for (const path of this.host.index.names.pathsNamed(name)) if (this.inScope.has(path)) this.queue.paths.add(path);
    this.kick();
  }

  /** A file was closed: its disk diagnostics apply again. */
  documentClosed(path: string): void {
    if (!this.inScope.has(path) && this.host.index.checkedFiles.has(path) && this.hasRoom()) {
      if (this.host.configuration.settings.problemsScope === 'workspace') this.inScope.add(path);
    }
    if (!this.inScope.has(path)) return;
    this.reports.delete(path); // the client forgot them with the document: send them again
    this.queue.paths.add(path);
    this.kick();
  }

  /**
   * Pull: an open document's diagnostics were computed after an edit or a change elsewhere. When
   * they differ from what the client last pulled, it is asked to pull again.
   */
  openDocumentChecked(uri: string, changed: boolean): void {
    if (!this.pull || !changed) return;
    this.wake();
    if (this.refreshTimer || !this.host.capabilities().workspace?.diagnostics?.refreshSupport) return;
    this.refreshTimer = setTimeout(() => {
      this.refreshTimer = undefined;
      if (!this.shuttingDown) void this.host.connection.languages.diagnostics.refresh().catch(() => undefined);
    }, REFRESH_QUIET_MS);
  }

  /** An open document was closed: the workspace reports forget what they said of it. */
  openDocumentClosed(uri: string): void {
    this.sentOpen.delete(uri);
  }

  shutdown(): void {
    this.shuttingDown = true;
    this.queue.cancel();
    clearTimeout(this.refreshTimer);
    this.wake();
  }

  private hasRoom(): boolean {
    return this.inScope.size < this.host.configuration.settings.problemsMaxFiles;
  }

  private logCap(count: number, max: number): void {
    if (count <= max || this.reportedCap === count) return;
    this.reportedCap = count;
    this.host.connection.console.info(
      `subagents: the workspace has ${count.toLocaleString('en')} definition and configuration files; Problems lists those of the first ${max.toLocaleString('en')} (subagents.problems.maxFiles), the others once opened.`,
    );
  }

  private kick(): void {
    this.queue.kick();
  }

  /** Checks a closed file from disk and keeps (push: sends) its diagnostics when they changed. */
  private check(path: string): void {
    if (this.host.isOpen(path) || !this.inScope.has(path)) return;
    const kind = this.host.index.checkedFiles.get(path);
    const text = kind === undefined ? undefined : readIfRegular(this.host.files, path);
    if (kind === undefined || text === undefined) return this.remove(path);
    const diagnostics = capDiagnostics(this.diagnosticsOf(path, text, kind));
    const old = this.reports.get(path);
    if (old && JSON.stringify(old.diagnostics) === JSON.stringify(diagnostics)) return;
    const uri = old?.uri ?? pathToUri(path);
    this.reports.set(path, { uri, diagnostics, resultId: String(this.nextId++) });
    if (!this.pull) this.host.connection.sendDiagnostics({ uri, diagnostics });
  }

  private diagnosticsOf(path: string, text: string, kind: FileKind): Diagnostic[] {
    return this.host.closed.analyze({ path, text, kind }, this.onRuleError, this.queue).diagnostics;
  }

  private remove(path: string): void {
    const old = this.reports.get(path);
    if (!old) return;
    this.reports.delete(path);
    if (!this.pull && !this.host.isOpen(path)) this.host.connection.sendDiagnostics({ uri: old.uri, diagnostics: [] });
    this.wake();
  }

  private wake(): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const resume of waiting) resume();
  }

  /** `textDocument/diagnostic`: an open document's diagnostics, else what was found on disk. */
  private documentReport(uri: string): DocumentDiagnosticReport {
    const open = this.host.openDiagnostics(uri);
    const path = uriToPath(uri);
    const items = open?.diagnostics ?? (path ? this.reports.get(path)?.diagnostics : undefined) ?? [];
    return { kind: DocumentDiagnosticReportKind.Full, items };
  }

  /**
   * `workspace/diagnostic`: once the first pass is done, a report per file the client does not
   * have yet (open documents from their live diagnostics), an empty one for each file it had that
   * is gone. When everything is unchanged the answer waits for a change.
   */
  private async workspaceReport(
    previous: readonly { uri: string; value: string }[],
    token: CancellationToken,
  ): Promise<WorkspaceDiagnosticReport> {
    const had = new Map(previous.map((p) => [p.uri, p.value]));
    for (;;) {
      if (this.passDone || this.shuttingDown) {
        const items = this.changedItems(had);
        if (items.length || this.shuttingDown || token.isCancellationRequested) return { items };
      }
      await new Promise<void>((resume) => {
        this.waiting.push(resume);
        token.onCancellationRequested(() => resume());
      });
      if (token.isCancellationRequested) return { items: [] };
    }
  }

  private changedItems(had: ReadonlyMap<string, string>): WorkspaceDocumentDiagnosticReport[] {
    const items: WorkspaceDocumentDiagnosticReport[] = [];
    const known = new Set<string>();
    for (const [path, report] of this.reports) {
      if (this.host.isOpen(path)) continue;
      known.add(report.uri);
      if (had.get(report.uri) !== report.resultId)
        items.push({
          kind: DocumentDiagnosticReportKind.Full,
          uri: report.uri,
          version: null,
          resultId: report.resultId,
          items: report.diagnostics,
        });
    }
    for (const uri of this.host.openUris()) {
      const open = this.host.openDiagnostics(uri);
      if (!open) continue;
      known.add(uri);
      const json = JSON.stringify(open.diagnostics);
      if (this.sentOpen.get(uri) === json) continue;
      this.sentOpen.set(uri, json);
      items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: open.version, items: open.diagnostics });
    }
    // Files the client has reports of that are gone (deleted, out of scope, open: their document pull has them).
    for (const [uri, value] of had)
      if (value !== GONE && !known.has(uri) && !this.host.openDiagnostics(uri))
        items.push({ kind: DocumentDiagnosticReportKind.Full, uri, version: null, resultId: GONE, items: [] });
    return items;
  }
}
