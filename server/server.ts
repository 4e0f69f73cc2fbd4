/**
 * The language server: moves messages between LSP and the engine. Rule logic lives in the
 * engine (shared/), editor-feature logic in shared/features/. This file wires the LSP
 * lifecycle to the server's modules, which docs/architecture.md lists.
 */
import { posix } from 'path';
import {
  CodeActionKind,
  DidChangeConfigurationNotification,
  DidChangeWatchedFilesNotification,
  TextDocumentSyncKind,
  WatchKind,
  type ClientCapabilities,
  type Connection,
  type FileEvent,
  type InitializeResult,
} from 'vscode-languageserver';
import { CONFIG_FILE_NAME } from '../shared';
import { FIX_ALL_KIND } from '../shared';
import type { InitializationOptions } from '../shared';
import { Configuration, readSettings } from './configuration';
import { OpenDocuments } from './documents';
import { registerFeatures, resolveOpen, warmUp } from './features';
import { lensCommandFor, SERVER_COMMANDS, ServerCommands } from './commands';
import { uriToPath } from './uri';
import { FolderWatcher } from './watch';
import { FileEventBatcher } from './file-events';
import { guardedConnection } from './guard';
import { DefinitionIndex } from './workspace-index';
import { hintAndRenameCapabilities, refreshInlayHints, registerHintsAndRename } from './hints-and-rename';
import { LiveConfiguration } from './live-config';
import { WorkspaceView } from './workspace-view';

export { capDiagnostics } from './documents';

/** Wires every LSP feature to the engine on the given connection. */
export function startServer(raw: Connection): void {
  // Notifications with malformed params are logged and dropped at the boundary (guard.ts).
  const connection = guardedConnection(raw, (message) => raw.console.error(message));
  let capabilities: ClientCapabilities = {};
  const configuration = new Configuration();
  // The index and the documents refer to each other only through these callbacks (the
  // annotation breaks the circular type inference).
  const index: DefinitionIndex = new DefinitionIndex({
    connection,
    capabilities: () => capabilities,
    configuration,
    isOpen: (path) => documents.isOpen(path),
    onRebuilt: () => {
      documents.invalidateAll();
      live.indexRebuilt();
      view.indexRebuilt();
    },
  });
  const documents = new OpenDocuments(connection, configuration, index);
  configuration.openText = documents.openText;
  let wantsPatterns = false;
  const live: LiveConfiguration = new LiveConfiguration({
    connection,
    capabilities: () => capabilities,
    configuration,
    openText: documents.openText,
    configurationChanged: (rebuild) => {
      configurationChanged(rebuild);
      if (rebuild) void index.rebuild();
    },
    wantsPatterns: () => wantsPatterns,
  });
  /** The path of a `.subagents.yaml` document; undefined for any other document. */
  const configPathOf = (uri: string): string | undefined => {
    const path = uriToPath(uri);
    return path && posix.basename(path) === CONFIG_FILE_NAME ? path : undefined;
  };
  const view = new WorkspaceView({ connection, configuration, index, isOpen: (path) => documents.isOpen(path) });
  documents.onPublished = (uri, path, analysis) => view.documentAnalyzed(uri, path, analysis);
  let lensCommand = lensCommandFor(undefined);
  const commands = new ServerCommands({
    connection,
    capabilities: () => capabilities,
    resolve: (uri) => resolveOpen(documents, uri) ?? view.resolveClosed(uri),
    folderOf: (p) => configuration.folderOf(p),
  });
  /** Started after initialize when the client cannot register file watchers. */
  let watcher: FolderWatcher | undefined;

  /**
   * Forgets every loaded configuration and re-checks the open documents. `rebuildFollows`: the
   * caller rebuilds the index next (the view then waits for it instead of summarizing twice).
   */
  const configurationChanged = (rebuildFollows = true) => {
    configuration.reset();
    documents.invalidateAll();
    view.configurationChanged(rebuildFollows);
    watcher?.refresh(); // the discovery folders may have changed
    refreshInlayHints(connection, capabilities); // the catalog may have changed
  };

  /** A `.subagents.yaml` changed: it may change which files are definitions, so the index is rebuilt too. */
  const configurationFileChanged = () => {
    configurationChanged();
    void index.rebuild();
  };

  // Fired on open too (TextDocuments fires onDidOpen, then onDidChangeContent).
  documents.text.onDidChangeContent((e) => {
    documents.schedule(e.document.uri);
    const config = configPathOf(e.document.uri);
    if (config) live.configTextChanged(config);
  });
  documents.text.onDidOpen((e) => {
    const path = uriToPath(e.document.uri);
    if (path) watcher?.opened(path);
  });
  documents.text.onDidSave((e) => {
    const config = configPathOf(e.document.uri);
    if (!config) return;
    live.saved(config);
    configurationFileChanged();
  });
  documents.text.onDidClose((e) => {
    // The path of a file no longer open under any spelling.
    const path = documents.closed(e.document.uri);
    // Closed without saving: the disk's text applies again (or another spelling's).
    const config = configPathOf(e.document.uri);
    if (config) live.configTextChanged(config);
    if (path) view.documentClosed(path);
    watcher?.refresh();
  });

  connection.onInitialize((params): InitializeResult => {
    capabilities = params.capabilities;
    const wsFolders = params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : []);
    configuration.setFolders(wsFolders.map((f) => f.uri));
    configuration.settings = readSettings(
      (params.initializationOptions as { settings?: unknown } | undefined)?.settings,
    );
    lensCommand = lensCommandFor(params.initializationOptions);
    wantsPatterns = (params.initializationOptions as InitializationOptions | undefined)?.documentPatterns === true;
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental, save: { includeText: false } },
        // Where a list item, a JSON string, an invocation, a `tag!` or an `mcp__` name starts. Not ' '
        // or '-': they fire on every word and list dash of the Markdown body, and a name inserted
        // right after '-' would not be a list item; clients complete identifiers by themselves.
        completionProvider: { triggerCharacters: ['[', ',', '"', '@', '!', '_'], resolveProvider: false },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, FIX_ALL_KIND] },
        documentSymbolProvider: true,
        workspaceSymbolProvider: true,
        foldingRangeProvider: true,
        definitionProvider: true,
        documentLinkProvider: { resolveProvider: false },
        codeLensProvider: { resolveProvider: false },
        executeCommandProvider: { commands: [...SERVER_COMMANDS] },
        ...hintAndRenameCapabilities(params.capabilities),
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'subagents-language-server', version: '0.1.0' },
    };
  });

  const pullSettings = async () => {
    if (!capabilities.workspace?.configuration) return;
    try {
      const raw = await connection.workspace.getConfiguration('subagents');
      configuration.settings = readSettings(raw);
    } catch {
      // keep the previous settings
    }
  };

  connection.onInitialized(async () => {
    if (capabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
      void connection.client
        .register(DidChangeConfigurationNotification.type, { section: 'subagents' })
        .catch(() => undefined);
    }
    if (capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
      void connection.client
        .register(DidChangeWatchedFilesNotification.type, {
          watchers: [
            ...['**/*.md', '**/*.yaml', '**/*.yml', '**/*.json'].map((globPattern) => ({ globPattern })),
            // Folders: a `.polytoken/` renamed or a `.picasso/` moved in is one event for the folder alone.
            { globPattern: '**/*', kind: WatchKind.Create | WatchKind.Delete },
          ],
        })
        .catch(() => undefined);
    } else {
      watcher = new FolderWatcher({
        folders: () => configuration.folders,
        openPaths: () => documents.openPaths(),
        folderOf: (p) => configuration.folderOf(p),
        configFor: (p) => configuration.configFor(p),
        onChanges: (changes) => fileEvents.add(changes),
        log: (message) => connection.console.log(message),
      });
      watcher.refreshNow();
      connection.console.log(
        `subagents: the client cannot watch files; the server watches ${watcher.watched().length} folders.`,
      );
    }
    if (capabilities.workspace?.workspaceFolders) {
      connection.workspace.onDidChangeWorkspaceFolders((e) => {
        configuration.changeFolders(
          e.added.map((f) => f.uri),
          e.removed.map((f) => f.uri),
        );
        configurationChanged();
        void index.rebuild();
      });
    }
    const before = JSON.stringify(configuration.settings);
    await pullSettings();
    if (JSON.stringify(configuration.settings) !== before) configurationChanged();
    warmUp(configuration);
    await index.rebuild();
  });

  connection.onDidChangeConfiguration(async (change) => {
    const pushed = (change.settings as { subagents?: unknown } | undefined)?.subagents;
    if (pushed !== undefined && !capabilities.workspace?.configuration) configuration.settings = readSettings(pushed);
    else await pullSettings();
    configurationChanged();
    void index.rebuild();
  });

  /**
   * File changes, from the client's watchers or from the server's own (watch.ts), in batches: one
   * index update and one re-check of the open documents per batch (file-events.ts).
   */
  async function filesChanged(changes: FileEvent[], busy: () => boolean): Promise<void> {
    const { configChanged, touched, files } = await index.filesChanged(changes, busy);
    view.filesChanged(files);
    if (configChanged) configurationFileChanged();
    else if (changesOutsideFolders(changes)) void index.rebuild();
    else documents.scheduleNames(touched);
  }
  const fileEvents = new FileEventBatcher(filesChanged, (message) => connection.console.error(message));
  /**
   * Files outside every workspace folder (the global folder, `subagentDirs` elsewhere) are read by
   * an index rebuild only; the server's watcher reports them. Open documents come from the editor.
   */
  function changesOutsideFolders(changes: FileEvent[]): boolean {
    return changes.some((c) => {
      const path = uriToPath(c.uri);
      return !!path && !configuration.folderOf(path) && !documents.isOpen(path);
    });
  }
  connection.onDidChangeWatchedFiles((params) => fileEvents.add(params.changes));

  registerFeatures(
    connection,
    documents,
    index,
    () => capabilities,
    () => lensCommand,
    (uri) => view.resolveClosed(uri),
  );
  commands.register();
  registerHintsAndRename({ connection, documents, index, configuration, capabilities: () => capabilities });
  view.register();

  connection.onShutdown(() => {
    fileEvents.dispose();
    index.shutdown();
    documents.shutdown();
    view.shutdown();
    watcher?.dispose();
    commands.dispose();
    live.dispose();
  });

  documents.text.listen(connection);
  connection.listen();
}
