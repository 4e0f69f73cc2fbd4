/**
 * Entry point of the server in a browser's Web Worker (dist/web/server.js, VS Code for the web,
 * github.dev, vscode.dev): LSP over `postMessage`. There is no disk: every file comes through the
 * client (server/mirror.ts), which also watches files; no temporary renderings (the VS Code
 * client shows its own preview).
 */
import {
  BrowserMessageReader,
  BrowserMessageWriter,
  createConnection,
  ProposedFeatures,
} from 'vscode-languageserver/browser';
import { lifecycleOptions, refuseAfterShutdown } from './lifecycle';
import { startServer } from './server';

declare const self: ConstructorParameters<typeof BrowserMessageReader>[0];

const connection = createConnection(
  ProposedFeatures.all,
  new BrowserMessageReader(self),
  new BrowserMessageWriter(self),
  lifecycleOptions(),
);
refuseAfterShutdown(connection);
startServer(connection, {});
