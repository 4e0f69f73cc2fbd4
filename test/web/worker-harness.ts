/**
 * The language server's web build (dist/web/server.js) in a real Web Worker of headless Chromium,
 * spoken to over `postMessage` with vscode-jsonrpc, as VS Code for the web does. The workspace is
 * in memory (`memfs:/ws`): the server reads it only through the client's file system requests,
 * which this harness answers from the map, and counts.
 */
import * as fs from 'fs';
import * as http from 'http';
import * as path from 'path';
import {
  AbstractMessageReader,
  AbstractMessageWriter,
  createMessageConnection,
  Disposable,
  type DataCallback,
  type Message,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { Browser, Page } from 'playwright-core';
import { answerFileSystem } from '../support/client-fs';

export const REPO = path.resolve(__dirname, '..', '..', '..');
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** The page: a worker running the server, and two functions to talk to it. */
const PAGE = `<!doctype html><meta charset="utf-8"><title>subagents worker</title><script>
const worker = new Worker('/server.js', { name: 'subagents' });
worker.onmessage = (e) => window.fromServer(e.data);
worker.onerror = (e) => window.fromServer({ workerError: String(e.message || e) });
window.toServer = (m) => worker.postMessage(m);
</script>`;

class PageReader extends AbstractMessageReader {
  private callback: DataCallback | undefined;
  listen(callback: DataCallback): Disposable {
    this.callback = callback;
    return Disposable.create(() => (this.callback = undefined));
  }
  feed(message: Message): void {
    this.callback?.(message);
  }
}

class PageWriter extends AbstractMessageWriter {
  constructor(private readonly page: Page) {
    super();
  }
  async write(message: Message): Promise<void> {
    await this.page.evaluate((m) => (globalThis as unknown as { toServer(m: unknown): void }).toServer(m), message);
  }
  end(): void {}
}

export interface WorkerServer {
  connection: MessageConnection;
  /** The file system requests the server sent, by method (each one a batch). */
  requests: Record<string, number>;
  /** URIs asked for, by method. */
  asked: Record<string, string[]>;
  /** Errors the worker reported. */
  errors: string[];
  close(): Promise<void>;
}

/** Serves the page and the bundle on loopback; returns its origin. */
async function serve(): Promise<{ origin: string; server: http.Server }> {
  const bundle = path.join(REPO, 'dist', 'web', 'server.js');
  const server = http.createServer((req, res) => {
    if (req.url === '/server.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(fs.readFileSync(bundle));
    } else {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end(PAGE);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { origin: `http://127.0.0.1:${port}`, server };
}

/**
 * Starts Chromium, the worker and the connection; `files` is the workspace (path below
 * `memfs:/ws` → text). The caller sends `initialize` (see `initialize`).
 */
export async function startWorkerServer(files: Record<string, string>): Promise<WorkerServer> {
  const { chromium } = require('playwright-core') as typeof import('playwright-core');
  const { origin, server } = await serve();
  let browser: Browser | undefined;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    const page = await browser.newPage();
    const reader = new PageReader();
    const errors: string[] = [];
    await page.exposeFunction('fromServer', (m: Message & { workerError?: string }) => {
      if (m.workerError) errors.push(m.workerError);
      else reader.feed(m);
    });
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.goto(origin);
    const connection = createMessageConnection(reader, new PageWriter(page));
    const requests: Record<string, number> = {};
    const asked: Record<string, string[]> = {};
    answerFileSystem(connection, ROOT, files, { requests, asked });
    connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
    connection.onRequest('client/registerCapability', () => null);
    connection.onRequest('window/workDoneProgress/create', () => null);
    connection.listen();
    const b = browser;
    return {
      connection,
      requests,
      asked,
      errors,
      close: async () => {
        connection.dispose();
        await b.close();
        await new Promise((resolve) => server.close(resolve));
      },
    };
  } catch (e) {
    await browser?.close();
    server.close();
    throw e;
  }
}

const ROOT = 'memfs:/ws';

/** `initialize` and `initialized` as VS Code for the web sends them for a `memfs:/ws` folder. */
export async function initialize(connection: MessageConnection): Promise<unknown> {
  const result = await connection.sendRequest('initialize', {
    processId: null,
    rootUri: ROOT,
    workspaceFolders: [{ uri: ROOT, name: 'ws' }],
    capabilities: {
      workspace: {
        configuration: true,
        didChangeWatchedFiles: { dynamicRegistration: true },
        workspaceEdit: { documentChanges: true },
      },
      textDocument: {
        hover: { contentFormat: ['markdown'] },
        completion: { completionItem: { snippetSupport: true } },
        publishDiagnostics: {},
      },
    },
    initializationOptions: { fileSystem: true, documentPatterns: true },
  });
  await connection.sendNotification('initialized', {});
  return result;
}

export const uriOf = (rel: string): string => `${ROOT}/${rel}`;
