/**
 * The extension's entry in VS Code for the web (package.json `browser`, dist/web/extension.js):
 * vscode.dev, github.dev, any VS Code in a browser. The language server (dist/web/server.js) runs
 * in a Web Worker and talks LSP over `postMessage`; it reads files through this client
 * (client/files.ts), since a worker has no disk.
 */
import * as vscode from 'vscode';
import { BrowserMessageReader, BrowserMessageWriter, LanguageClient } from 'vscode-languageclient/browser';
import { startClient, stopClient, type ClientTransport, type SubagentsApi } from './extension';

export type { SubagentsApi } from './extension';

declare class Worker {
  constructor(url: string, options?: { name?: string });
}

const serverMain = (context: vscode.ExtensionContext) =>
  vscode.Uri.joinPath(context.extensionUri, 'dist/web/server.js');

/**
 * The server's worker. VS Code's web extension host starts a worker from an `https:` or `file:`
 * URI (vscode.dev, github.dev), but refuses one from a remote extension's `vscode-remote:` URI
 * (code-server, a remote server's browser window): the script then goes in as a blob.
 */
async function serverWorker(context: vscode.ExtensionContext): Promise<Worker> {
  const main = serverMain(context);
  const name = 'Subagents language server';
  if (main.scheme !== 'vscode-remote') return new Worker(main.toString(true), { name });
  const script = await vscode.workspace.fs.readFile(main);
  return new Worker(URL.createObjectURL(new Blob([script], { type: 'text/javascript' })), { name });
}

const browserTransport: ClientTransport = {
  name: 'a Web Worker',
  create(context, options) {
    // A factory, so that a restart starts a new worker. It hands back the transports, not the
    // worker: VS Code's web extension host replaces the global `Worker` with a function that makes
    // a native one, so the client's `instanceof Worker` test fails on what it returns.
    const start = async () => {
      const worker = (await serverWorker(context)) as never;
      return { reader: new BrowserMessageReader(worker), writer: new BrowserMessageWriter(worker) };
    };
    return new LanguageClient('subagents', 'Subagents', start, options);
  },
  async missing(context) {
    try {
      await vscode.workspace.fs.stat(serverMain(context));
      return undefined;
    } catch {
      return `${serverMain(context).toString(true)} is missing from the extension`;
    }
  },
};

export function activate(context: vscode.ExtensionContext): Promise<SubagentsApi> {
  return startClient(context, browserTransport);
}

export const deactivate = stopClient;
