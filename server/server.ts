/**
 * The language server: moves messages between LSP and the engine. Rule logic lives in the
 * engine (shared/), editor-feature logic in shared/features/. This file wires the LSP
 * lifecycle to the server's modules, which docs/architecture.md lists, in named steps:
 * `createParts` (the modules and how they call each other), `wireDocuments` (open documents),
 * `onInitialize` (what the client can do, the capabilities), `onInitialized` (registrations,
 * watching, the first index build) and `onChanges` (settings and watched files).
 *
 * Where it runs is the `ServerPlatform`: Node (server/node-platform.ts: the disk, fs.watch,
 * temporary renderings) or a browser's Web Worker (server/browser-main.ts: nothing of those;
 * every file comes through the client, server/mirror.ts).
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
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver';
import { URI } from 'vscode-uri';
import { CONFIG_FILE_NAME } from '../shared';
import { FIX_ALL_KIND } from '../shared';
import type { InitializationOptions } from '../shared';
import { Configuration, readSettings } from './configuration';
import { OpenDocuments } from './documents';
import { registerFeatures, resolveOpen, warmUp } from './features';
import { lensCommandFor, ruleDocsCommandFor, SERVER_COMMANDS, ServerCommands } from './commands';
import { registerVirtualScheme, uriToPath } from './uri';
import { FileEventBatcher } from './file-events';
import { ServerFiles } from './files';
import { guardedConnection } from './guard';
import { ClientFiles } from './mirror';
import type { FolderWatching, ServerPlatform } from './platform';
import { DefinitionIndex } from './workspace-index';
import { hintAndRenameCapabilities, refreshInlayHints, registerHintsAndRename } from './hints-and-rename';
import { LiveConfiguration } from './live-config';
import { WorkspaceView } from './workspace-view';
import { ClosedAnalyses } from './closed-files';
import { WorkspaceProblems } from './workspace-problems';
import { registerNewSubagent } from './new-subagent';

export { capDiagnostics } from './documents';

/** Documents wait at most this long for the first loading of the files read through the client. */
const FIRST_LOAD_HOLD_MS = 5000;

/** The server's modules, and the state the LSP lifecycle fills in. */
interface Parts {
  connection: Connection;
  platform: ServerPlatform;
  files: ServerFiles;
  configuration: Configuration;
  index: DefinitionIndex;
  documents: OpenDocuments;
  live: LiveConfiguration;
  view: WorkspaceView;
  problems: WorkspaceProblems;
  commands: ServerCommands;
  fileEvents: FileEventBatcher;
  state: {
    capabilities: ClientCapabilities;
    wantsPatterns: boolean;
    lensCommand: string;
    /** The client's command that opens a rule's page (commands.ts), when it has one. */
    ruleDocsCommand?: string;
    /** Started after initialize when the client cannot register file watchers. */
    watcher?: FolderWatching;
  };
  /**
   * Forgets every loaded configuration and re-checks the open documents (`rebuildFollows`: an index rebuild comes
   * next).
   */
  configurationChanged(rebuildFollows?: boolean): void;
  /** A `.subagents.yaml` changed: it may change which files are definitions, so the index is rebuilt too. */
  configurationFileChanged(): void;
}

/** Wires every LSP feature to the engine on the given connection. */
export function startServer(raw: Connection, platform: ServerPlatform): void {
  // Notifications with malformed params are logged and dropped at the boundary (guard.ts).
  const connection = guardedConnection(raw, (message) => raw.console.error(message));
  const parts = createParts(connection, platform);
  wireDocuments(parts);
  connection.onInitialize((params) => onInitialize(parts, params));
  connection.onInitialized(() => onInitialized(parts));
  onChanges(parts);
  registerRequests(parts);
  connection.onShutdown(() => shutdown(parts));
  parts.documents.text.listen(connection);
  connection.listen();
}

/** The modules; the index, the documents and the view refer to each other only through these callbacks. */
function createParts(connection: Connection, platform: ServerPlatform): Parts {
  const state: Parts['state'] = { capabilities: {}, wantsPatterns: false, lensCommand: lensCommandFor(undefined) };
  const files = new ServerFiles(platform.disk, undefined);
  const configuration = new Configuration(files);
  // The annotations break the circular type inference.
  const index: DefinitionIndex = new DefinitionIndex({
    connection,
    capabilities: () => state.capabilities,
    configuration,
    files,
    configurationsLoaded: () => parts.configurationChanged(true),
    isOpen: (path) => documents.isOpen(path),
    onRebuilt: () => {
      documents.invalidateAll();
      live.indexRebuilt();
      view.indexRebuilt();
      problems.indexRebuilt();
    },
  });
  index.onCheckedFilesChanged = (paths) => problems.filesChanged(paths);
  const documents = new OpenDocuments(connection, configuration, index, files);
  configuration.openText = documents.openText;
  const live: LiveConfiguration = new LiveConfiguration({
    connection,
    capabilities: () => state.capabilities,
    configuration,
    files,
    openText: documents.openText,
    configurationChanged: (rebuild) => {
      parts.configurationChanged(rebuild);
      if (rebuild) void index.rebuild();
    },
    wantsPatterns: () => state.wantsPatterns,
  });
  // One analysis of a closed file serves both its readers (the view's summary, its Problems report).
  const closed = new ClosedAnalyses({ connection, configuration, index });
  const view = new WorkspaceView({
    closed,
    connection,
    configuration,
    index,
    files,
    isOpen: (path) => documents.isOpen(path),
    openPaths: () => documents.openPaths(),
  });
  documents.onPublished = (uri, path, analysis) => view.documentAnalyzed(uri, path, analysis);
  const problems: WorkspaceProblems = new WorkspaceProblems({
    closed,
    connection,
    configuration,
    index,
    capabilities: () => state.capabilities,
    files,
    isOpen: (path) => documents.isOpen(path),
    openDiagnostics: documents.diagnosticsOf,
    openUris: () => documents.text.keys(),
  });
  documents.onChecked = (uri, changed) => problems.openDocumentChecked(uri, changed);
  const commands = new ServerCommands({
    connection,
    capabilities: () => state.capabilities,
    resolve: (uri) => resolveOpen(documents, uri) ?? view.resolveClosed(uri),
    folderOf: (p) => configuration.folderOf(p),
    renderings: platform.renderings,
  });
  const fileEvents = new FileEventBatcher(
    (changes, busy) => filesChanged(parts, changes, busy),
    (message) => connection.console.error(message),
  );
  const parts: Parts = {
    connection,
    platform,
    files,
    configuration,
    index,
    documents,
    live,
    view,
    problems,
    commands,
    fileEvents,
    state,
    configurationChanged: (rebuildFollows = true) => {
      configuration.reset();
      documents.invalidateAll();
      view.configurationChanged(rebuildFollows);
      if (!rebuildFollows) problems.indexRebuilt(); // over the same index
      state.watcher?.refresh(); // the discovery folders may have changed
      refreshInlayHints(connection, state.capabilities); // the catalog may have changed
    },
    configurationFileChanged: () => {
      parts.configurationChanged();
      void index.rebuild();
    },
  };
  return parts;
}

/** The path of a `.subagents.yaml` document; undefined for any other document. */
function configPathOf(uri: string): string | undefined {
  const path = uriToPath(uri);
  return path && posix.basename(path) === CONFIG_FILE_NAME ? path : undefined;
}

/** Open documents: checked on each change; an open `.subagents.yaml` applies as typed. */
function wireDocuments(parts: Parts): void {
  const { documents, live, view } = parts;
  // Fired on open too (TextDocuments fires onDidOpen, then onDidChangeContent).
  documents.text.onDidChangeContent((e) => {
    documents.schedule(e.document.uri);
    const config = configPathOf(e.document.uri);
    if (config) live.configTextChanged(config);
  });
  documents.text.onDidOpen((e) => {
    const path = uriToPath(e.document.uri);
    if (path) parts.state.watcher?.opened(path);
  });
  documents.text.onDidSave((e) => {
    const config = configPathOf(e.document.uri);
    if (!config) return;
    live.saved(config);
    parts.configurationFileChanged();
  });
  documents.text.onDidClose((e) => {
    // The path of a file no longer open under any spelling.
    const path = documents.closed(e.document.uri);
    parts.problems.openDocumentClosed(e.document.uri);
    // Closed without saving: the disk's text applies again (or another spelling's).
    const config = configPathOf(e.document.uri);
    if (config) live.configTextChanged(config);
    if (path) view.documentClosed(path);
    if (path) parts.problems.documentClosed(path);
    parts.state.watcher?.refresh();
  });
}

/**
 * The client's capabilities and options; the workspace folders. A client that answers the file
 * system requests (`initializationOptions.fileSystem`) has the folders of other schemes than
 * `file:` read through it (a virtual workspace), and in a browser every file.
 */
function onInitialize(parts: Parts, params: InitializeParams): InitializeResult {
  const { state, configuration, files, connection } = parts;
  state.capabilities = params.capabilities;
  const pulled = parts.problems.capability(params.capabilities);
  parts.documents.pulled = pulled.diagnosticProvider !== undefined;
  const options = (params.initializationOptions ?? undefined) as InitializationOptions | undefined;
  const wsFolders = params.workspaceFolders ?? (params.rootUri ? [{ uri: params.rootUri, name: 'root' }] : []);
  if (options?.fileSystem === true) {
    files.client = new ClientFiles({
      request: (method, p) => connection.sendRequest(method, p),
      toUri: (path) => files.toUri(path),
      log: (message) => connection.console.warn(message),
    });
    for (const f of wsFolders) registerVirtualScheme(schemeOf(f.uri));
  }
  configuration.setFolders(wsFolders.map((f) => f.uri));
  configuration.settings = readSettings((options as { settings?: unknown } | undefined)?.settings);
  state.lensCommand = lensCommandFor(options);
  state.ruleDocsCommand = ruleDocsCommandFor(options);
  state.wantsPatterns = options?.documentPatterns === true;
  return {
    capabilities: { ...serverCapabilities(params.capabilities), ...pulled },
    serverInfo: { name: 'subagents-language-server', version: '0.1.0' },
  };
}

const schemeOf = (uri: string): string => {
  try {
    return URI.parse(uri).scheme;
  } catch {
    return '';
  }
};

function serverCapabilities(client: ClientCapabilities): InitializeResult['capabilities'] {
  return {
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
    ...hintAndRenameCapabilities(client),
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
  };
}

/** Registrations, watching, the settings, and the first index build. */
async function onInitialized(parts: Parts): Promise<void> {
  const { connection, state, configuration, files, documents, index } = parts;
  // Files read through the client are loaded by the first build: documents wait for it (a while at most).
  const loading = configuration.folders.some((f) => files.throughClient(f)) && !!files.client;
  let firstBuildDone: () => void = () => undefined;
  if (loading)
    documents.holdUntil(
      new Promise<void>((resolve) => {
        firstBuildDone = resolve;
        setTimeout(resolve, FIRST_LOAD_HOLD_MS);
      }),
    );
  if (files.diskless)
    connection.console.log(
      'subagents: running without a disk (a browser): files come through the editor, and the Polytoken global folder in the home folder is not read.',
    );
  registerWatching(parts);
  if (state.capabilities.workspace?.workspaceFolders) {
    connection.workspace.onDidChangeWorkspaceFolders((e) => {
      configuration.changeFolders(
        e.added.map((f) => f.uri),
        e.removed.map((f) => f.uri),
      );
      parts.configurationChanged();
      void index.rebuild();
    });
  }
  const before = JSON.stringify(configuration.settings);
  await pullSettings(parts);
  if (JSON.stringify(configuration.settings) !== before) parts.configurationChanged();
  warmUp(configuration);
  try {
    await index.rebuild();
  } finally {
    firstBuildDone();
  }
}

/** The client's file watchers when it can register them, else the platform's own (Node: fs.watch). */
function registerWatching(parts: Parts): void {
  const { connection, state, configuration, documents, platform, fileEvents } = parts;
  if (state.capabilities.workspace?.didChangeConfiguration?.dynamicRegistration) {
    void connection.client
      .register(DidChangeConfigurationNotification.type, { section: 'subagents' })
      .catch(() => undefined);
  }
  if (state.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration) {
    void connection.client
      .register(DidChangeWatchedFilesNotification.type, {
        watchers: [
          ...['**/*.md', '**/*.yaml', '**/*.yml', '**/*.json'].map((globPattern) => ({ globPattern })),
          // Folders: a `.polytoken/` renamed or a `.picasso/` moved in is one event for the folder alone.
          { globPattern: '**/*', kind: WatchKind.Create | WatchKind.Delete },
        ],
      })
      .catch(() => undefined);
    return;
  }
  if (!platform.watchFolders) return;
  const watcher = platform.watchFolders({
    folders: () => configuration.folders,
    openPaths: () => documents.openPaths(),
    folderOf: (p) => configuration.folderOf(p),
    configFor: (p) => configuration.configFor(p),
    onChanges: (changes) => fileEvents.add(changes),
    log: (message) => connection.console.log(message),
  });
  state.watcher = watcher;
  watcher.refreshNow();
  connection.console.log(
    `subagents: the client cannot watch files; the server watches ${watcher.watched().length} folders.`,
  );
}

async function pullSettings(parts: Parts): Promise<void> {
  if (!parts.state.capabilities.workspace?.configuration) return;
  try {
    const raw = await parts.connection.workspace.getConfiguration('subagents');
    parts.configuration.settings = readSettings(raw);
  } catch {
    // keep the previous settings
  }
}

/** Settings and watched files. */
function onChanges(parts: Parts): void {
  const { connection, state, configuration, index, fileEvents } = parts;
  connection.onDidChangeConfiguration(async (change) => {
    const pushed = (change.settings as { subagents?: unknown } | undefined)?.subagents;
    if (pushed !== undefined && !state.capabilities.workspace?.configuration)
      configuration.settings = readSettings(pushed);
    else await pullSettings(parts);
    parts.configurationChanged();
    void index.rebuild();
  });
  connection.onDidChangeWatchedFiles((params) => fileEvents.add(params.changes));
}

/**
 * File changes, from the client's watchers or from the server's own (watch.ts), in batches: one
 * index update and one re-check of the open documents per batch (file-events.ts).
 */
async function filesChanged(parts: Parts, changes: FileEvent[], busy: () => boolean): Promise<void> {
  const { index, view, documents, configuration } = parts;
  const { configChanged, touched, files } = await index.filesChanged(changes, busy);
  view.filesChanged(files);
  view.openFilesChangedOnDisk(changes);
  if (configChanged) parts.configurationFileChanged();
  // Files outside every workspace folder (the global folder, `subagentDirs` elsewhere) are read by
  // an index rebuild only; the server's watcher reports them. Open documents come from the editor.
  else if (
    changes.some((c) => {
      const path = uriToPath(c.uri);
      return !!path && !configuration.folderOf(path) && !documents.isOpen(path);
    })
  )
    void index.rebuild();
  else documents.scheduleNames(touched);
}

/** The editor features, the commands, inlay hints and rename, the workspace view. */
function registerRequests(parts: Parts): void {
  const { connection, documents, index, view, commands, configuration, files, state } = parts;
  registerFeatures(
    connection,
    documents,
    index,
    () => state.capabilities,
    () => state.lensCommand,
    (uri) => view.resolveClosed(uri),
    () => state.ruleDocsCommand,
  );
  commands.register();
  registerHintsAndRename({
    connection,
    documents,
    index,
    configuration,
    files,
    capabilities: () => state.capabilities,
  });
  view.register();
  parts.problems.register();
  registerNewSubagent({ connection, configuration, index, files, openText: documents.openText });
  // Same-name definitions changed: the view's summaries and the closed files' problems may have.
  index.names.onNamesChanged = (names) => {
    view.namesChanged(names);
    parts.problems.namesChanged(names);
  };
}

function shutdown(parts: Parts): void {
  parts.fileEvents.dispose();
  parts.index.shutdown();
  parts.documents.shutdown();
  parts.view.shutdown();
  parts.problems.shutdown();
  parts.state.watcher?.dispose();
  parts.commands.dispose();
  parts.live.dispose();
}
