import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  LanguageClient,
  State,
  TransportKind,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';
import {
  CLIENT_RESOLVE_COMMAND,
  PREVIEW_REQUEST,
  type DocumentPattern,
  type PreviewParams,
  type PreviewResult,
} from '../shared/protocol';
import { definitionGlobs, watchGlob } from './selector';
import { DocumentPatterns } from './patterns';
import { DefinitionsView } from './definitions-view';

/**
 * The VS Code extension: starts the language server (dist/server.js) and adds the commands,
 * the resolve preview and the status bar item. Every rule lives in the server (shared/).
 */

const PREVIEW_SCHEME = 'subagents-resolve';

/** What `activate` returns: used by the integration tests (test/e2e) and by other extensions. */
export interface SubagentsApi {
  /** The status bar item's current text and visibility. */
  status(): { text: string; tooltip: string; visible: boolean; uri?: string; command?: string };
  /** Milliseconds from activate() to the server's initialize answer, and to its first resolve answer. */
  timings(): { serverReadyMs?: number; firstResolveMs?: number };
  /** The preview document of a definition, once the resolve command opened it. */
  previewUri(source: vscode.Uri): vscode.Uri;
  /** Resolves when the status bar item has been refreshed for the given (or active) document. */
  refreshStatus(): Promise<void>;
  /** The definition patterns beyond the defaults the client selects now, once a pending restart for them is done. */
  documentPatterns(): Promise<DocumentPattern[]>;
  /** The Subagents view (its data provider and tree view). */
  definitions: DefinitionsView;
}

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<SubagentsApi> {
  const t0 = Date.now();
  const timings: { serverReadyMs?: number; firstResolveMs?: number } = {};
  const output = vscode.window.createOutputChannel('Subagents', { log: true });
  context.subscriptions.push(output);

  const serverModule = context.asAbsolutePath(path.join('dist', 'server.js'));
  const serverOptions: ServerOptions = {
    run: { module: serverModule, transport: TransportKind.ipc },
    debug: {
      module: serverModule,
      transport: TransportKind.ipc,
      options: { execArgv: ['--nolazy', '--inspect=6009'] },
    },
  };
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
    initializationOptions: () => {
      const cfg = vscode.workspace.getConfiguration('subagents');
      // clientCommands: the code lenses keep `subagents.resolve`, implemented below (the live preview).
      return {
        settings: { rules: cfg.get('rules'), polytoken: { globalDir: cfg.get('polytoken.globalDir') } },
        clientCommands: [CLIENT_RESOLVE_COMMAND],
        documentPatterns: true,
      };
    },
  };
  client = new LanguageClient('subagents', 'Subagents', serverOptions, clientOptions);
  const lc = client;
  patterns.attach(lc, (message) => output.info(message));

  // ----- resolve preview: a virtual Markdown document shown with the built-in Markdown preview
  const previews = new Map<string, { source: vscode.Uri; markdown: string }>(); // preview uri → state
  const changed = new vscode.EventEmitter<vscode.Uri>();
  context.subscriptions.push(changed);
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
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
    }),
  );
  const previewUri = (source: vscode.Uri): vscode.Uri =>
    vscode.Uri.from({
      scheme: PREVIEW_SCHEME,
      path: `/${path.posix.basename(source.path)} (resolved).md`,
      query: source.toString(),
    });

  /** The server's rendering of a definition's resolution (the preview's Markdown and the status bar's summary). */
  async function resolve(source: vscode.Uri, label = ''): Promise<PreviewResult> {
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
  }

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

  function toUri(arg: unknown): vscode.Uri | undefined {
    if (arg instanceof vscode.Uri) return arg;
    if (typeof arg === 'string') return vscode.Uri.parse(arg);
    if (arg && typeof arg === 'object' && 'uri' in arg) return toUri((arg as { uri: unknown }).uri);
    return vscode.window.activeTextEditor?.document.uri;
  }

  context.subscriptions.push(
    vscode.commands.registerCommand(CLIENT_RESOLVE_COMMAND, async (arg?: unknown) => {
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
    }),
    vscode.commands.registerCommand('subagents.showOutput', () => output.show(true)),
    vscode.commands.registerCommand('subagents.restartServer', async () => {
      output.info('Restarting the language server.');
      await lc.restart();
    }),
  );

  // Live updates: re-resolve open previews as their definitions change (debounced).
  const timers = new Map<string, NodeJS.Timeout>();
  context.subscriptions.push(
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

  // ----- the Subagents view in the Explorer (definitions-view.ts); a restarted server is asked again
  const definitions = new DefinitionsView(lc, context.workspaceState);
  context.subscriptions.push(
    definitions,
    lc.onDidChangeState((e) => e.newState === State.Running && definitions.serverStarted()),
  );

  // ----- status bar: dialect, status and tool count of the active definition
  const item = vscode.window.createStatusBarItem('subagents.status', vscode.StatusBarAlignment.Left, 10);
  item.name = 'Subagents';
  item.command = CLIENT_RESOLVE_COMMAND;
  context.subscriptions.push(item);
  let statusUri: string | undefined;
  let statusSeq = 0;
  let statusTimer: NodeJS.Timeout | undefined;
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
  const scheduleStatus = (delay = 150): void => {
    clearTimeout(statusTimer);
    statusTimer = setTimeout(() => (pendingStatus = updateStatus()), delay);
  };
  context.subscriptions.push(
    vscode.window.onDidChangeActiveTextEditor(() => scheduleStatus(0)),
    // The server publishes diagnostics after it has analyzed an edit: the status follows them.
    vscode.languages.onDidChangeDiagnostics((e) => {
      const active = vscode.window.activeTextEditor?.document.uri.toString();
      if (active && e.uris.some((u) => u.toString() === active)) scheduleStatus();
    }),
    vscode.workspace.onDidChangeTextDocument((e) => {
      if (e.document === vscode.window.activeTextEditor?.document) scheduleStatus(400);
    }),
    { dispose: () => clearTimeout(statusTimer) },
  );

  // ----- start the server
  try {
    if (!fs.existsSync(serverModule)) throw new Error(`${serverModule} is missing from the extension`);
    await lc.start();
    timings.serverReadyMs = Date.now() - t0;
    output.info(`Language server ready ${timings.serverReadyMs} ms after activation.`);
    scheduleStatus(0);
  } catch (e) {
    output.error(`The language server did not start: ${e instanceof Error ? e.message : String(e)}`);
    void vscode.window.showErrorMessage('Subagents: the language server did not start. See "Subagents: Show Output".');
  }

  return {
    status: () => ({
      text: item.text,
      tooltip: String(item.tooltip ?? ''),
      visible: statusUri !== undefined,
      uri: statusUri,
      command: typeof item.command === 'string' ? item.command : item.command?.command,
    }),
    timings: () => ({ ...timings }),
    previewUri,
    definitions,
    refreshStatus: async () => {
      clearTimeout(statusTimer);
      pendingStatus = updateStatus();
      await pendingStatus;
    },
    documentPatterns: async () => {
      await patterns.settled();
      return patterns.current();
    },
  };
}

export async function deactivate(): Promise<void> {
  if (client) await client.stop();
  client = undefined;
}
