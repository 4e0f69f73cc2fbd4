/** `subagents mcp`: the MCP server on stdin/stdout; the log goes to stderr. */
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { UsageError } from '../args';
import type { Io } from '../common';
import { HELP } from '../help';
import { createMcpServer } from './server';

export function runMcp(args: string[], io: Io): number | undefined {
  if (args.includes('-h') || args.includes('--help')) {
    io.out(HELP.mcp);
    return 0;
  }
  const unknown = args.find((a) => a !== '--stdio');
  if (unknown !== undefined)
    throw new UsageError(`unknown ${unknown.startsWith('-') ? 'option' : 'argument'} ${unknown} for \`subagents mcp\``);
  const log = (line: string) => process.stderr.write(`subagents mcp: ${line}\n`);
  // A long-running server logs an unexpected error and keeps serving; the CLI's exit-on-error handler is for one-shot commands.
  process.removeAllListeners('uncaughtException');
  process.on('uncaughtException', (e) =>
    log(`unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  );
  process.on('unhandledRejection', (e) =>
    log(`unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`),
  );
  const server = createMcpServer({ cwd: io.cwd, env: io.env, version: io.version, log });
  const transport = new StdioServerTransport();
  transport.onclose = () => process.exit(0);
  server.connect(transport).catch((e) => {
    log(`cannot start: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(2);
  });
  // The client ends the session by closing our stdin.
  process.stdin.on('end', () => process.exit(0));
  return undefined;
}
