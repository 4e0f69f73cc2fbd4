/**
 * Entry point of the bundled server (dist/server.js) for the VS Code extension:
 * the transport comes from the command line (`--node-ipc`, `--stdio`, `--socket=N`,
 * `--pipe=NAME`), as vscode-languageclient passes it.
 */
import { createServerConnection } from './connection';
import { keepYoungGenerationSmall } from './node-heap';
import { nodePlatform } from './node-platform';
import { startServer } from './server';

keepYoungGenerationSmall();
startServer(createServerConnection(), nodePlatform);
