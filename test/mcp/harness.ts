/**
 * `subagents mcp` driven by the SDK's own client over stdio: the built dist/cli.js as a process,
 * with roots offered (or not) as a real client does. stderr is collected for the log assertions.
 * In the mutation run (CLI_IN_PROCESS) the same client talks to the server built in the test
 * process (the compiled out/cli/mcp, as `subagents mcp` builds it) through the SDK's in-memory
 * transport, so that what the tools run counts; a session with its own command or arguments
 * still runs a process.
 */
import { strict as assert } from 'assert';
import { pathToFileURL } from 'url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ListRootsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as path from 'path';
import { CLI, CLI_IN_PROCESS, ROOT } from '../support/cli';

export interface McpSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  /** Calls a tool; the result as the client got it. */
  call(name: string, args?: Record<string, unknown>): Promise<CallToolResult>;
  /** Calls a tool that must succeed; its structured content. */
  data<T = any>(name: string, args?: Record<string, unknown>): Promise<T>;
  /** Calls a tool that must fail as a tool error; its message. */
  error(name: string, args?: Record<string, unknown>): Promise<string>;
  /** Replaces the roots the client offers and tells the server. */
  setRoots(folders: string[]): Promise<void>;
  close(): Promise<void>;
}

export interface SessionOptions {
  /** Folders offered as `file://` roots; undefined: the client has no roots capability. */
  roots?: string[];
  /** Raw root URIs (non-file ones included), instead of `roots`. */
  rootUris?: string[];
  env?: NodeJS.ProcessEnv;
  /** The entry to run (default: dist/cli.js). */
  command?: string;
  args?: string[];
}

export async function mcpSession(cwd: string, xdg: string, options: SessionOptions = {}): Promise<McpSession> {
  let uris = options.rootUris ?? options.roots?.map((f) => pathToFileURL(f).href);
  const offersRoots = uris !== undefined;
  const client = new Client(
    { name: 'subagents-test', version: '0.0.0' },
    { capabilities: offersRoots ? { roots: { listChanged: true } } : {} },
  );
  if (offersRoots) client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: uris!.map((uri) => ({ uri })) }));
  const env = { ...process.env, XDG_CONFIG_HOME: xdg, ...options.env };
  let stderr = '';
  const inProcess = CLI_IN_PROCESS && !options.command && !options.args;
  const transport = inProcess ? await inProcessServer(cwd, env, (line) => (stderr += line)) : undefined;
  const stdio = inProcess
    ? undefined
    : new StdioClientTransport({
        command: options.command ?? process.execPath,
        args: options.args ?? [CLI, 'mcp'],
        cwd,
        env: env as Record<string, string>,
        stderr: 'pipe',
      });
  stdio?.stderr?.on('data', (d) => (stderr += d));
  await client.connect(transport ?? stdio!);
  const call = async (name: string, args: Record<string, unknown> = {}) =>
    (await client.callTool({ name, arguments: args })) as CallToolResult;
  return {
    client,
    stderr: () => stderr,
    call,
    async data(name, args) {
      const r = await call(name, args);
      assert.ok(!r.isError, `${name} failed: ${JSON.stringify(r.content)}`);
      assert.ok(r.structuredContent, `${name} gave structured content`);
      return r.structuredContent as any;
    },
    async error(name, args) {
      const r = await call(name, args);
      assert.equal(r.isError, true, `${name} should fail: ${JSON.stringify(r).slice(0, 500)}`);
      const text = (r.content[0] as { text: string }).text;
      assert.doesNotMatch(text, /\n\s+at /, 'no stack trace');
      return text;
    },
    async setRoots(folders) {
      uris = folders.map((f) => pathToFileURL(f).href);
      await client.sendRootsListChanged();
    },
    close: () => client.close(),
  };
}

/** The server `subagents mcp` builds, in this process, linked to the client's end of an in-memory pair. */
async function inProcessServer(cwd: string, env: NodeJS.ProcessEnv, write: (text: string) => void): Promise<Transport> {
  const { createMcpServer } = require(
    path.join(ROOT, 'out', 'cli', 'mcp', 'server.js'),
  ) as typeof import('../../cli/mcp/server');
  const version = (require(path.join(ROOT, 'package.json')) as { version: string }).version;
  // The log lines as the process writes them to stderr (cli/mcp/index.ts).
  const log = (line: string) => write(`subagents mcp: ${line}\n`);
  const server = createMcpServer({ cwd, env, version, log });
  server.server.onerror = (e) => log(e.message);
  const [clientEnd, serverEnd] = InMemoryTransport.createLinkedPair();
  await server.connect(serverEnd);
  return clientEnd;
}
