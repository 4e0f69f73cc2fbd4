/**
 * The server's connection as both entries create it (dist/server.js for VS Code, `subagents lsp
 * --stdio`), with the end of the LSP lifecycle the library leaves open:
 *
 * - after `shutdown`, every request is refused with `InvalidRequest` (-32600) and every
 *   notification but `exit` is dropped, as the protocol asks;
 * - a signal that ends the process (SIGTERM, SIGHUP, SIGINT) ends it through `process.exit`, so
 *   the `exit` listeners clean up (the resolve renderings' temporary folder, commands.ts). The
 *   library itself exits when the client goes away (stdin closes, or its process dies).
 */
import * as os from 'os';
import { ErrorCodes, ResponseError, type Message, type NotificationMessage } from 'vscode-languageserver';
import { createConnection, ProposedFeatures, type Connection } from 'vscode-languageserver/node';

/** Where requests received after `shutdown` are sent (never a method a client sends). */
const AFTER_SHUTDOWN = '$/subagents/afterShutdown';

const isRequest = (m: Message): m is Message & { method: string; id: number | string | null } =>
  typeof (m as { method?: unknown }).method === 'string' && 'id' in m;
const isNotification = (m: Message): m is NotificationMessage =>
  typeof (m as { method?: unknown }).method === 'string' && !('id' in m);

/** Creates the connection: from the command line's transport (`--stdio`, `--node-ipc`, ...), or on these streams. */
export function createServerConnection(input?: NodeJS.ReadableStream, output?: NodeJS.WritableStream): Connection {
  let shutDown = false;
  const options = {
    messageStrategy: {
      handleMessage(message: Message, next: (message: Message) => void): void {
        if (shutDown && isRequest(message)) {
          next({ ...message, method: AFTER_SHUTDOWN } as Message);
          return;
        }
        if (shutDown && isNotification(message) && message.method !== 'exit') return;
        if (isRequest(message) && message.method === 'shutdown') shutDown = true;
        next(message);
      },
    },
  };
  const connection =
    input && output
      ? createConnection(ProposedFeatures.all, input, output, options)
      : createConnection(ProposedFeatures.all, options);
  connection.onRequest(
    AFTER_SHUTDOWN,
    () => new ResponseError(ErrorCodes.InvalidRequest, 'The server has been shut down: only `exit` is accepted.'),
  );
  for (const signal of ['SIGTERM', 'SIGHUP', 'SIGINT'] as const)
    process.once(signal, () => process.exit(128 + os.constants.signals[signal]));
  return connection;
}
