/**
 * Starts the real language server as a child process over stdio and talks to it with
 * vscode-jsonrpc, as an editor would.
 */
import { spawn, execFileSync, type ChildProcess } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { PassThrough } from 'stream';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic, Position, TextEdit, WorkspaceEdit } from 'vscode-languageserver-types';

export interface PublishDiagnosticsParams {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}
import { URI } from 'vscode-uri';
import { makeTree } from '../support/tree';
import { Waiter } from '../support/wait';

export const REPO = path.resolve(__dirname, '..', '..', '..');

let built = false;
/** Bundles dist/ once per test run. */
export function buildOnce(): void {
  if (built) return;
  execFileSync(process.execPath, [path.join(REPO, 'scripts', 'build.mjs')], { cwd: REPO, stdio: 'pipe' });
  built = true;
}

/**
 * The mutation run (scripts/stryker/mocha-setup.cjs) sets this: the server then runs in the test
 * process on a pair of streams, from out/server (what Stryker instruments), since per-test
 * coverage sees only the test process. Its `child` is a stand-in that never exits: the suites
 * about the process itself (test/lsp/lifecycle.test.ts) are not in that run.
 */
export const SERVER_IN_PROCESS = process.env.SUBAGENTS_SERVER_IN_PROCESS === '1';

/** The real server, started in this process on a pair of streams, with a stand-in for its process. */
function inProcessServer(): ChildProcess {
  // Required here, not imported: the suites that run it as a process must not load it.
  const { createConnection, ProposedFeatures } = require('vscode-languageserver/node');
  const { lifecycleOptions, refuseAfterShutdown } = require('../../server/lifecycle');
  const { startServer } = require('../../server/server');
  const { nodePlatform } = require('../../server/node-platform');
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  // As server/connection.ts, without its signal handlers (they would end the test process). The streams
  // are never ended: the library ends the process when its input ends.
  const connection = createConnection(ProposedFeatures.all, stdin, stdout, lifecycleOptions());
  refuseAfterShutdown(connection);
  startServer(connection, nodePlatform);
  return { stdin, stdout, stderr: new PassThrough(), exitCode: null, kill: () => true } as unknown as ChildProcess;
}

export function serverCommand(): string[] {
  const cli = path.join(REPO, 'dist', 'cli.js');
  if (fs.existsSync(cli) && !process.env.SUBAGENTS_TEST_SERVER_JS) return [cli, 'lsp', '--stdio'];
  return [path.join(REPO, 'dist', 'server.js'), '--stdio'];
}

/** A temporary workspace folder with the given files (relative path → text). */
export function makeWorkspace(files: Record<string, string>): string {
  return makeTree(files, 'subagents-lsp-');
}

/** Text with a `|` cursor marker → the text without it and the cursor's position. */
export function cursor(marked: string): { text: string; position: Position } {
  const at = marked.indexOf('|');
  if (at < 0) throw new Error('no cursor marker');
  const text = marked.slice(0, at) + marked.slice(at + 1);
  const before = text.slice(0, at).split('\n');
  return { text, position: { line: before.length - 1, character: before[before.length - 1].length } };
}

export function applyEdits(text: string, edits: TextEdit[]): string {
  return TextDocument.applyEdits(TextDocument.create('file:///x', 'plaintext', 0, text), edits);
}

/** The text edits of a WorkspaceEdit for one document. */
export function editsFor(edit: WorkspaceEdit | undefined, uri: string): TextEdit[] {
  if (!edit) return [];
  const out: TextEdit[] = [...(edit.changes?.[uri] ?? [])];
  for (const change of edit.documentChanges ?? []) {
    if ('textDocument' in change && change.textDocument.uri === uri) out.push(...(change.edits as TextEdit[]));
  }
  return out;
}

export interface ClientOptions {
  settings?: Record<string, unknown>;
  /** Initialize with no capabilities at all (a minimal LSP editor). */
  minimal?: boolean;
  /** Initialize with exactly these client capabilities (e.g. a real editor's, recorded). */
  capabilities?: unknown;
  initializationOptions?: unknown;
}

/** What the test client says it supports, unless told otherwise. */
export const DEFAULT_CAPABILITIES = {
  workspace: {
    configuration: true,
    didChangeConfiguration: { dynamicRegistration: true },
    didChangeWatchedFiles: { dynamicRegistration: true },
    workspaceFolders: true,
    workspaceEdit: { documentChanges: true, resourceOperations: ['create', 'rename', 'delete'] },
  },
  window: { workDoneProgress: true },
  textDocument: {
    completion: { completionItem: { snippetSupport: true } },
    publishDiagnostics: { versionSupport: true },
  },
};

export class TestClient {
  readonly connection: MessageConnection;
  readonly child: ChildProcess;
  readonly diagnostics: PublishDiagnosticsParams[] = [];
  readonly registrations: { id: string; method: string; registerOptions?: unknown }[] = [];
  /** The ids of the registrations the server took back. */
  readonly unregistrations: string[] = [];
  readonly progress: unknown[] = [];
  readonly logs: string[] = [];
  /** The server's answer to `initialize`. */
  initializeResult: { capabilities: Record<string, any> } | undefined;
  settings: Record<string, unknown>;
  private readonly options: ClientOptions;
  private versions = new Map<string, number>();
  private readonly waiter = new Waiter();

  constructor(options: ClientOptions = {}) {
    const [script, ...args] = serverCommand();
    this.child = SERVER_IN_PROCESS
      ? inProcessServer()
      : spawn(process.execPath, [script, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (d) => this.logs.push(String(d)));
    this.connection = createMessageConnection(
      new StreamMessageReader(this.child.stdout!),
      new StreamMessageWriter(this.child.stdin!),
    );
    this.settings = options.settings ?? {};
    this.options = options;
    this.connection.onNotification('textDocument/publishDiagnostics', (p: PublishDiagnosticsParams) => {
      this.diagnostics.push(p);
      this.wake();
    });
    this.connection.onNotification('window/logMessage', (p: { message: string }) => {
      this.logs.push(p.message);
    });
    this.connection.onNotification('$/progress', (p: unknown) => {
      this.progress.push(p);
      this.wake();
    });
    this.connection.onRequest('workspace/configuration', (p: any) =>
      p.items.map((i: { section?: string }) => (i.section === 'subagents' ? this.settings : null)),
    );
    this.connection.onRequest(
      'client/registerCapability',
      (p: { registrations: { id: string; method: string; registerOptions?: unknown }[] }) => {
        this.registrations.push(...p.registrations);
        this.wake();
        return null;
      },
    );
    this.connection.onRequest('client/unregisterCapability', (p: { unregisterations: { id: string }[] }) => {
      // The protocol's own spelling of the field.
      this.unregistrations.push(...p.unregisterations.map((u) => u.id));
      this.wake();
      return null;
    });
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.listen();
  }

  private wake() {
    this.waiter.wake();
  }

  /** Records every notification of `method` from now on; `until` re-checks on each. */
  record<T>(method: string): T[] {
    const got: T[] = [];
    this.connection.onNotification(method, (p: T) => {
      got.push(p);
      this.wake();
    });
    return got;
  }

  async start(folders: string[]): Promise<void> {
    this.initializeResult = await this.connection.sendRequest('initialize', {
      // In this process, the library's watch on the client's process would be a timer that never ends.
      processId: SERVER_IN_PROCESS ? null : process.pid,
      rootUri: folders[0] ? URI.file(folders[0]).toString() : null,
      workspaceFolders: folders.map((f, i) => ({ uri: URI.file(f).toString(), name: `ws${i}` })),
      initializationOptions: this.options.initializationOptions,
      capabilities: this.options.capabilities ?? (this.options.minimal ? {} : DEFAULT_CAPABILITIES),
    });
    await this.connection.sendNotification('initialized', {});
  }

  /** Waits until `check` returns a value (re-checked on every notification), or fails after `ms`. */
  async until<T>(check: () => T | undefined | false, ms = 8000, what = 'condition'): Promise<T> {
    return this.waiter.until(check, ms, what, { pollMs: 200 });
  }

  /** Index build finished (the server reports work-done progress `end`). */
  async indexed(): Promise<void> {
    await this.until(
      () => this.progress.some((p) => (p as { value?: { kind?: string } }).value?.kind === 'end'),
      8000,
      'index progress end',
    );
  }

  async open(file: string, text: string, languageId?: string): Promise<string> {
    const uri = URI.file(file).toString();
    this.versions.set(uri, 1);
    const lang = languageId ?? (file.endsWith('.json') ? 'json' : file.endsWith('.md') ? 'markdown' : 'yaml');
    await this.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: lang, version: 1, text },
    });
    return uri;
  }

  async change(uri: string, text: string): Promise<number> {
    const version = (this.versions.get(uri) ?? 1) + 1;
    this.versions.set(uri, version);
    await this.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri, version },
      contentChanges: [{ text }],
    });
    return version;
  }

  async close(uri: string): Promise<void> {
    await this.connection.sendNotification('textDocument/didClose', { textDocument: { uri } });
  }

  version(uri: string): number {
    return this.versions.get(uri) ?? 0;
  }

  /** The diagnostics published for the document's current version. */
  async diagnosticsFor(uri: string, predicate: (d: Diagnostic[]) => boolean = () => true): Promise<Diagnostic[]> {
    const version = this.version(uri);
    return this.until(
      () => {
        const last = [...this.diagnostics].reverse().find((p) => p.uri === uri);
        return last && last.version === version && predicate(last.diagnostics) ? last.diagnostics : undefined;
      },
      8000,
      `diagnostics for ${uri} v${version}`,
    );
  }

  request<R>(method: string, params: unknown): Promise<R> {
    return this.connection.sendRequest(method, params) as Promise<R>;
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 1000))]);
      // `exit` ends the process the server runs in: in this process, shutdown is its end.
      if (!SERVER_IN_PROCESS) await this.connection.sendNotification('exit');
    } catch {
      // already gone
    }
    this.connection.dispose();
    if (this.child.exitCode === null) this.child.kill();
  }
}

/** Builds once, makes a workspace with `files` and starts a server on it. */
export async function startServer(
  files: Record<string, string>,
  options: ClientOptions = {},
): Promise<{ client: TestClient; ws: string }> {
  buildOnce();
  const ws = makeWorkspace(files);
  const client = new TestClient(options);
  await client.start([ws]);
  return { client, ws };
}
