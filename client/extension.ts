/**
 * The VS Code extension, one module for both entries: client/node.ts (desktop VS Code and the
 * forks: the server as a Node process over IPC) and client/browser.ts (vscode.dev, github.dev, any
 * VS Code for the web: the server in a Web Worker). Only the transport differs (`ClientTransport`);
 * `startClient` adds the commands, the resolve preview, the Subagents view and the status bar item,
 * and answers the server's file system requests (client/files.ts). Every rule lives in the server.
 */
import * as vscode from 'vscode';
import { State, type BaseLanguageClient, type LanguageClientOptions } from 'vscode-languageclient';
import {
  CLIENT_RESOLVE_COMMAND,
  PREVIEW_REQUEST,
  SHOW_RULE_DOCS_COMMAND,
  type DocumentPattern,
  type InitializationOptions,
  type PreviewParams,
  type PreviewResult,
} from '../shared/protocol';
import { definitionGlobs, watchGlob } from './selector';
import { DocumentPatterns, restartClient } from './patterns';
import { DefinitionsView } from './definitions-view';
import { serveFiles } from './files';
import { registerNewSubagent } from './new-subagent';

const PREVIEW_SCHEME = 'subagents-resolve';

/** How the server is started: the only part that differs between the Node and the browser entries. */
export interface ClientTransport {
  /** Where the server runs, for the log ("a Node process", "a Web Worker"). */
  readonly name: string;
  /** The language client, with its server. */
  create(context: vscode.ExtensionContext, options: LanguageClientOptions): BaseLanguageClient;
  /** Why the server cannot start (its bundle is missing from the extension); undefined when it can. */
  missing(context: vscode.ExtensionContext): Promise<string | undefined>;
}

/** What `activate` returns: used by the integration tests (test/e2e) and by other extensions. */
export interface SubagentsApi {
  /** The status bar item's current text and visibility. */
  status(): { text: string; tooltip: string; visible: boolean; uri?: string; command?: string };
  /** Milliseconds from activate() to the server's initialize answer, and to its first resolve answer. */
  timings(): Timings;
  /** The preview document of a definition, once the resolve command opened it. */
  previewUri(source: vscode.Uri): vscode.Uri;
  /** Resolves when the status bar item has been refreshed for the given (or active) document. */
  refreshStatus(): Promise<void>;
  /** The definition patterns beyond the defaults the client selects now, once a pending restart for them is done. */
  documentPatterns(): Promise<DocumentPattern[]>;
  /** The Subagents view (its data provider and tree view). */
  definitions: DefinitionsView;
  /** Where the server runs (`ClientTransport.name`). */
  transport: string;
}

interface Timings {
  serverReadyMs?: number;
  firstResolveMs?: number;
}

type Timer = ReturnType<typeof setTimeout>;

let client: BaseLanguageClient | undefined;

export async function startClient(context: vscode.ExtensionContext, transport: ClientTransport): Promise<SubagentsApi> {
  const t0 = Date.now();
  const timings: Timings = {};
  const output = vscode.window.createOutputChannel('Subagents', { log: true });
  context.subscriptions.push(output);
  const { lc, patterns } = createClient(context, transport, output);
  client = lc;
  for (const d of serveFiles(lc)) context.subscriptions.push(d);
  const resolve = resolver(lc, timings, t0, output);
  const preview = registerPreview(context, resolve, patterns);
  registerCommands(context, lc, output);
  for (const d of registerNewSubagent(lc)) context.subscriptions.push(d);
  const definitions = registerView(context, lc);
  const status = registerStatusBar(context, patterns, resolve, output);
  await startServer(context, lc, transport, output, () => {
    timings.serverReadyMs = Date.now() - t0;
    output.info(`Language server (${transport.name}) ready ${timings.serverReadyMs} ms after activation.`);
    status.schedule(0);
  });
  return {
    status: status.current,
    timings: () => ({ ...timings }),
    previewUri: preview,
    definitions,
    refreshStatus: status.refresh,
    documentPatterns: async () => {
      await patterns.settled();
      return patterns.current();
    },
    transport: transport.name,
  };
}

export async function stopClient(): Promise<void> {
  if (client) await client.stop();
  client = undefined;
}

/** The language client: the definition files of any scheme, the settings, file events. */
function createClient(
  context: vscode.ExtensionContext,
  transport: ClientTransport,
  output: vscode.LogOutputChannel,
): { lc: BaseLanguageClient; patterns: DocumentPatterns } {
  const globs = definitionGlobs(context.extension.packageJSON);
  const watcher = vscode.workspace.createFileSystemWatcher(watchGlob(globs));
  context.subscriptions.push(watcher);
  // The default globs plus what `.subagents.yaml` adds (`files:`): the server sends those (patterns.ts).
  const patterns = new DocumentPatterns(context.workspaceState, globs);
  context.subscriptions.push(patterns);
  const clientOptions: LanguageClientOptions = {
    documentSelector: patterns.clientSelector(),
    outputChannel: output,
    // Settings reach the server through workspace/configuration (it registers for changes itself).
    synchronize: { fileEvents: watcher },
    initializationOptions: (): InitializationOptions => {
      const cfg = vscode.workspace.getConfiguration('subagents');
      // clientCommands: the code lenses keep `subagents.resolve`, implemented below (the live preview);
      // the quick fix menu offers each rule's page.
      // A plain copy: VS Code hands setting objects out as read-only proxies, which a Web Worker's
      // postMessage cannot clone (IPC to the Node server sends JSON, which can).
      const settings = { rules: cfg.get('rules'), polytoken: { globalDir: cfg.get('polytoken.globalDir') } };
      return {
        settings: JSON.parse(JSON.stringify(settings)) as unknown,
        clientCommands: [CLIENT_RESOLVE_COMMAND, SHOW_RULE_DOCS_COMMAND],
        documentPatterns: true,
        // client/files.ts answers the file system requests: a virtual workspace is read through it.
        fileSystem: true,
      };
    },
  };
  const lc = transport.create(context, clientOptions);
  patterns.attach(lc, (message) => output.info(message));
  return { lc, patterns };
}

/** The server's rendering of a definition's resolution (the preview's Markdown and the status bar's summary). */
type Resolve = (source: vscode.Uri, label?: string) => Promise<PreviewResult>;

function resolver(lc: BaseLanguageClient, timings: Timings, t0: number, output: vscode.LogOutputChannel): Resolve {
  return async (source, label = '') => {
    const t = Date.now();
    const params: PreviewParams = { uri: source.toString(), label };
    const result = await lc.sendRequest<PreviewResult | null>(PREVIEW_REQUEST, params);
    if (timings.firstResolveMs === undefined) {
      timings.firstResolveMs = Date.now() - t0;
      output.info(
        `First resolve answered ${timings.firstResolveMs} ms after activation (request took ${Date.now() - t} ms).`,
      );
    }
    if (!result) throw new Error('This file is not a subagent definition the server has open.');
    return result;
  };
}

const baseName = (uri: vscode.Uri): string => uri.path.slice(uri.path.lastIndexOf('/') + 1);

/**
 * The resolve preview: a virtual Markdown document shown with the built-in Markdown preview,
 * resolved again as its definition changes. Returns the preview URI of a definition.
 */
function registerPreview(
  context: vscode.ExtensionContext,
  resolve: Resolve,
  patterns: DocumentPatterns,
): (source: vscode.Uri) => vscode.Uri {
  const previews = new Map<string, { source: vscode.Uri; markdown: string }>(); // preview uri → state
  const changed = new vscode.EventEmitter<vscode.Uri>();
  const previewUri = (source: vscode.Uri): vscode.Uri =>
    vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${baseName(source)} (resolved)`, query: source.toString() });

  async function refreshPreview(key: string): Promise<void> {
    const state = previews.get(key);
    if (!state) return;
    const label = vscode.workspace.asRelativePath(state.source, false);
    try {
      state.markdown = (await resolve(state.source, label)).markdown;
    } catch (e) {
      const message = e instanceof Error ? e.message : String(e);
      state.markdown = `# Resolved: ${label}\n\nThe language server could not resolve this file: ${message}\n`;
    }
    changed.fire(vscode.Uri.parse(key));
  }

  const provider: vscode.TextDocumentContentProvider = {
    onDidChange: changed.event,
    provideTextDocumentContent: (uri) => {
      const key = uri.toString();
      const state = previews.get(key);
      if (state) return state.markdown;
      // Reopened after VS Code disposed it (or restored from a previous session): resolve again.
      if (!uri.query) return '# Nothing to resolve\n';
      previews.set(key, { source: vscode.Uri.parse(uri.query), markdown: '# Resolving…\n' });
      void refreshPreview(key);
      return '# Resolving…\n';
    },
  };

  async function showPreview(arg?: unknown) {
    const source = toUri(arg);
    if (!source || source.scheme === PREVIEW_SCHEME) {
      void vscode.window.showInformationMessage('Open a subagent definition to resolve it.');
      return undefined;
    }
    // The server resolves open documents (their current text).
    const doc =
      vscode.workspace.textDocuments.find((d) => d.uri.toString() === source.toString()) ??
      (await vscode.workspace.openTextDocument(source));
    if (!patterns.matches(doc)) {
      void vscode.window.showInformationMessage(
        `${vscode.workspace.asRelativePath(source)} is not a subagent definition.`,
      );
      return undefined;
    }
    const target = previewUri(source);
    const key = target.toString();
    if (!previews.has(key)) previews.set(key, { source, markdown: '# Resolving…\n' });
    await refreshPreview(key);
    try {
      // Making it Markdown closes and reopens the document: its state is kept across.
      const state = previews.get(key)!;
      await asMarkdown(target);
      previews.set(key, state);
      await vscode.commands.executeCommand('markdown.showPreviewToSide', target);
    } catch {
      // No Markdown preview (disabled built-in extension): show the Markdown source instead.
      await vscode.window.showTextDocument(target, {
        viewColumn: vscode.ViewColumn.Beside,
        preview: true,
        preserveFocus: true,
      });
    }
    return { previewUri: target.toString(), markdown: previews.get(key)!.markdown };
  }

  // Live updates: re-resolve open previews as their definitions change (debounced).
  const timers = new Map<string, Timer>();
  context.subscriptions.push(
    changed,
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, provider),
    vscode.commands.registerCommand(CLIENT_RESOLVE_COMMAND, showPreview),
    vscode.workspace.onDidChangeTextDocument((e) => {
      const source = e.document.uri.toString();
      for (const [key, state] of previews) {
        if (state.source.toString() !== source) continue;
        clearTimeout(timers.get(key));
        timers.set(
          key,
          setTimeout(() => void refreshPreview(key), 200),
        );
      }
    }),
    vscode.workspace.onDidCloseTextDocument((d) => {
      if (d.uri.scheme === PREVIEW_SCHEME) previews.delete(d.uri.toString());
    }),
    { dispose: () => timers.forEach((t) => clearTimeout(t)) },
  );
  return previewUri;
}

/**
 * The preview's document in the Markdown language (its path has no `.md`: the tab reads "Preview triage.md
 * (resolved)").
 */
async function asMarkdown(uri: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  if (doc.languageId !== 'markdown') await vscode.languages.setTextDocumentLanguage(doc, 'markdown');
}

function toUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === 'string') return vscode.Uri.parse(arg);
  if (arg && typeof arg === 'object' && 'uri' in arg) return toUri((arg as { uri: unknown }).uri);
  return vscode.window.activeTextEditor?.document.uri;
}

function registerCommands(context: vscode.ExtensionContext, lc: BaseLanguageClient, output: vscode.LogOutputChannel) {
  context.subscriptions.push(
    vscode.commands.registerCommand('subagents.showOutput', () => output.show(true)),
    // From the quick fix menu's "Show documentation for rule X": the rule's page (web pages only).
    vscode.commands.registerCommand(SHOW_RULE_DOCS_COMMAND, (url: unknown) => {
      const page = typeof url === 'string' ? vscode.Uri.parse(url) : undefined;
      if (page && (page.scheme === 'https' || page.scheme === 'http')) void vscode.env.openExternal(page);
    }),
    vscode.commands.registerCommand('subagents.restartServer', async () => {
      output.info('Restarting the language server.');
      await restartClient(lc);
    }),
  );
}

/** The Subagents view in the Explorer (definitions-view.ts); a restarted server is asked again. */
function registerView(context: vscode.ExtensionContext, lc: BaseLanguageClient): DefinitionsView {
  const definitions = new DefinitionsView(lc, context.workspaceState);
  context.subscriptions.push(
    definitions,
    lc.onDidChangeState((e) => e.newState === State.Running && definitions.serverStarted()),
  );
  return definitions;
}

/** The status bar item: dialect, status and tool count of the active definition. */
function registerStatusBar(
  context: vscode.ExtensionContext,
  patterns: DocumentPatterns,
  resolve: Resolve,
  output: vscode.LogOutputChannel,
) {
  const item = vscode.window.createStatusBarItem('subagents.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'Subagents';
  item.command = CLIENT_RESOLVE_COMMAND;
  context.subscriptions.push(item);
  let statusUri: string | undefined;
  let statusSeq = 0;
  let statusTimer: Timer | undefined;
  let pendingStatus: Promise<void> = Promise.resolve();

  async function updateStatus(): Promise<void> {
    const seq = ++statusSeq;
    const doc = vscode.window.activeTextEditor?.document;
    if (!doc) return; // focus moved to a panel or a preview: keep showing the last definition
    const isDefinition = patterns.matches(doc) && !doc.uri.path.endsWith('/.subagents.yaml');
    void vscode.commands.executeCommand('setContext', 'subagents.activeIsDefinition', isDefinition);
    if (!isDefinition) {
      item.hide();
      statusUri = undefined;
      return;
    }
    try {
      const summary = (await resolve(doc.uri)).status;
      if (seq !== statusSeq) return; // a newer update is under way
      item.text = summary.text;
      item.tooltip = summary.tooltip;
      statusUri = doc.uri.toString();
      item.show();
    } catch (e) {
      if (seq !== statusSeq) return;
      output.warn(`Resolve failed for ${doc.uri.toString()}: ${e instanceof Error ? e.message : String(e)}`);
      item.hide();
      statusUri = undefined;
    }
  }
  const schedule = (delay = 150): void => {
    clearTimeout(statusTimer);
    statusTimer = setTimeout(() => (pendingStatus = updateStatus()), delay);
  };
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(() => schedule(0)),
    // The server publishes diagnostics after it has analyzed an edit: the status follows them.
    vscode.languages.onDidChangeDiagnostics((e) => {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      if (active && e.uris.some((u) => u.toString() === active)) schedule();
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === vscode.window.activeTextEditor?.document) schedule(400);
    }),
    { dispose: () => clearTimeout(statusTimer) },
  );
  return {
    schedule,
    current: () => ({
      text: item.text,
      tooltip: String(item.tooltip ?? ''),
      visible: statusUri !== undefined,
      uri: statusUri,
      command: typeof item.command === 'string' ? item.command : item.command?.command,
    }),
    refresh: async () => {
      clearTimeout(statusTimer);
      pendingStatus = updateStatus();
      await pendingStatus;
    },
  };
}

/** Starts the server; a failure is logged and shown, never thrown (the extension stays usable). */
async function startServer(
  context: vscode.ExtensionContext,
  lc: BaseLanguageClient,
  transport: ClientTransport,
  output: vscode.LogOutputChannel,
  ready: () => void,
): Promise<void> {
  try {
    const missing = await transport.missing(context);
    if (missing) throw new Error(missing);
    await lc.start();
    ready();
  } catch (e) {
    output.error(`The language server did not start: ${e instanceof Error ? e.message : String(e)}`);
    void vscode.window.showErrorMessage('Subagents: the language server did not start. See "Subagents: Show Output".');
  }
}
