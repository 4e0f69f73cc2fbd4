/**
 * The extension's entry in desktop VS Code and its forks (package.json `main`, dist/extension.js):
 * the language server (dist/server.js) runs as a Node process, over IPC.
 */
import * as fs from 'fs';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type ServerOptions } from 'vscode-languageclient/node';
import { startClient, stopClient, type ClientTransport, type SubagentsApi } from './extension';

export type { SubagentsApi } from './extension';

const nodeTransport: ClientTransport = {
  name: 'a Node process',
  create(context, options) {
    const module = context.asAbsolutePath('dist/server.js');
    const server: ServerOptions = {
      run: { module, transport: TransportKind.ipc },
      debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6009'] } },
    };
    return new LanguageClient('subagents', 'Subagents', server, options);
  },
  async missing(context) {
    const module = context.asAbsolutePath('dist/server.js');
    return fs.existsSync(module) ? undefined : `${module} is missing from the extension`;
  },
};

export function activate(context: vscode.ExtensionContext): Promise<SubagentsApi> {
  return startClient(context, nodeTransport);
}

export const deactivate = stopClient;
