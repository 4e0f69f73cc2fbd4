import type { Connection } from 'vscode-languageserver';

/** Wires every LSP feature to the engine on the given connection. */
export function startServer(connection: Connection): void {
  // Replaced by the server implementation; until then the server answers nothing.
  connection.listen();
}
