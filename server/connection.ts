/**
 * The server's connection on Node as both Node entries create it (dist/server.js for VS Code,
 * `subagents lsp --stdio`), with the end of the LSP lifecycle the library leaves open
 * (lifecycle.ts), and a signal that ends the process (SIGTERM, SIGHUP, SIGINT) ending it through
 * `process.exit`, so the `exit` listeners clean up (the resolve renderings' temporary folder,
 * node-platform.ts). The library itself exits when the client goes away (stdin closes, or its
 * process dies).
 */
import * as os from 'os';
import { createConnection, ProposedFeatures, type Connection } from 'vscode-languageserver/node';
import { lifecycleOptions, refuseAfterShutdown } from './lifecycle';

/** Creates the connection: from the command line's transport (`--stdio`, `--node-ipc`, ...), or on these streams. */
export function createServerConnection(input?: NodeJS.ReadableStream, output?: NodeJS.WritableStream): Connection {
  const options = lifecycleOptions();
  const connection =
    input && output
      ? createConnection(ProposedFeatures.all, input, output, options)
      : createConnection(ProposedFeatures.all, options);
  refuseAfterShutdown(connection);
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const)
    process.once(signal, () => process.exit(128 + os.constants.signals[signal]));
  return connection;
}
