import { createServerConnection } from '../server/connection';
import { keepYoungGenerationSmall } from '../server/node-heap';
import { nodePlatform } from '../server/node-platform';
import { startServer } from '../server/server';

/** `subagents lsp --stdio`: the language server for any LSP editor. */
export function runLsp(args: string[]): number | undefined {
  if (!args.includes('--stdio')) {
    process.stderr.write('subagents lsp: only --stdio is supported; run `subagents lsp --stdio`\n');
    return 2;
  }
  // A long-running server logs an unexpected error and keeps serving; the CLI's exit-on-error handler is for one-shot
  // commands.
  process.removeAllListeners('uncaughtException');
  process.on('uncaughtException', (e) =>
    process.stderr.write(
      `subagents lsp: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    ),
  );
  keepYoungGenerationSmall();
  const connection = createServerConnection(process.stdin, process.stdout);
  startServer(connection, nodePlatform);
  return undefined; // keeps running until the client exits it
}
