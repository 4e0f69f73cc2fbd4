/**
 * The end of the LSP lifecycle the library leaves open, on both transports (connection.ts on
 * Node, browser-main.ts in a Web Worker): after `shutdown`, every request is refused with
 * `InvalidRequest` (-32600) and every notification but `exit` is dropped, as the protocol asks.
 */
import {
  ErrorCodes,
  ResponseError,
  type Connection,
  type ConnectionOptions,
  type Message,
  type NotificationMessage,
} from 'vscode-languageserver';

/** Where requests received after `shutdown` are sent (never a method a client sends). */
const AFTER_SHUTDOWN = '$/subagents/afterShutdown';

const isRequest = (m: Message): m is Message & { method: string; id: number | string | null } =>
  typeof (m as { method?: unknown }).method === 'string' && 'id' in m;
const isNotification = (m: Message): m is NotificationMessage =>
  typeof (m as { method?: unknown }).method === 'string' && !('id' in m);

/** The connection options that hold the lifecycle; `refuseAfterShutdown` installs the answer on the connection. */
export function lifecycleOptions(): ConnectionOptions {
  let shutDown = false;
  return {
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
}

export function refuseAfterShutdown(connection: Connection): void {
  connection.onRequest(
    AFTER_SHUTDOWN,
    () => new ResponseError(ErrorCodes.InvalidRequest, 'The server has been shut down: only `exit` is accepted.'),
  );
}
