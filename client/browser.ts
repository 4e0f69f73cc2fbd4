/**
 * The extension's entry in VS Code for the web (package.json `browser`, dist/web/extension.js):
 * vscode.dev, github.dev, any VS Code in a browser. The language server (dist/web/server.js) runs
 * in a Web Worker and talks LSP over `postMessage`; it reads files through this client
 * (client/files.ts), since a worker has no disk.
 */
import * as vscode from 'vscode';
import { LanguageClient } from 'vscode-languageclient/browser';
import { startClient, stopClient, type ClientTransport, type SubagentsApi } from './extension';

export type { SubagentsApi } from './extension';

declare class Worker {
  constructor(url: string, options?: { name?: string });
}

const serverMain = (context: vscode.ExtensionContext) =>
  vscode.Uri.joinPath(context.extensionUri, 'dist/web/server.js');

const browserTransport: ClientTransport = {
  name: 'a Web Worker',
  create(context, options) {
    // A factory, so that a restart starts a new worker.
    const start = async () =>
      new Worker(serverMain(context).toString(true), { name: 'Subagents language server' }) as never;
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
