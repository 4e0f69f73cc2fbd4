/** `subagents mcp`: the MCP server on stdin/stdout; the log goes to stderr. */
import { UsageError } from '../args';
import type { Io } from '../common';
import { HELP } from '../help';
import { keepDefaultTiering } from '../tiering';
import { createMcpServer } from './server';
import { LineTransport } from './stdio';

export function runMcp(args: string[], io: Io): number | undefined {
  if (args.includes('-h') || args.includes('--help')) {
    io.out(HELP.mcp);
    return 0;
  }
  const unknown = args.find((a) => a !== '--stdio');
  if (unknown !== undefined)
    throw new UsageError(`unknown ${unknown.startsWith('-') ? 'option' : 'argument'} ${unknown} for \`subagents mcp\``);
  keepDefaultTiering();
  const log = (line: string) => process.stderr.write(`subagents mcp: ${line}\n`);
  // A long-running server logs an unexpected error and keeps serving; the CLI's exit-on-error handler is for one-shot
  // commands.
  process.removeAllListeners('uncaughtException');
  process.on('uncaughtException', (e) =>
    log(`unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  );
  process.on('unhandledRejection', (e) =>
    log(`unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  );
  const server = createMcpServer({ cwd: io.cwd, env: io.env, version: io.version, log });
  server.server.onerror = (e) => log(e.message);
  const transport = new LineTransport(process.stdin, process.stdout, log);
  server.connect(transport).catch((e) => {
    log(`cannot start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  });
  // The client ends the session by closing our stdin (the transport then closes the server).
  server.server.onclose = () => process.exit(0);
  return undefined;
}
