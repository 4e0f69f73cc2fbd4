/**
 * Entry point of the bundled server (dist/server.js) for the VS Code extension:
 * the transport comes from the command line (`--node-ipc`, `--stdio`, `--socket=N`,
 * `--pipe=NAME`), as vscode-languageclient passes it.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import { startServer } from './server';

startServer(createConnection(ProposedFeatures.all));
