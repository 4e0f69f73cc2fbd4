/**
 * `subagents mcp`: a Model Context Protocol server (the official TypeScript SDK) whose tools
 * check, resolve, list, explain and fix definitions with structured answers. docs/mcp.md
 * describes each tool; tools.ts does the work with the CLI's own pieces.
 */
import * as fs from 'fs';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { RootsListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as z from 'zod';
import { DIALECTS, RULES, dialectModules, dialectTitle, toPosix, type Dialect } from '../../shared';
import { UsageError } from '../args';
import type { Io } from '../common';
import { RULE_URI_PREFIX, RUNTIME_URI_PREFIX, rulePage, runtimePage } from './docs';
import { newSubagentPrompt } from './prompt';
import {
  checkInput,
  checkOutput,
  explainInput,
  explainOutput,
  fixInput,
  fixOutput,
  listInput,
  listOutput,
  MAX_INPUTS,
  resolution,
  resolveInput,
} from './schemas';
import { Tools, type Answer } from './tools';
import { rootsFromUris, ToolError, Workspace, type Roots } from './workspace';

export interface McpOptions {
  /** The folder the server started in: the workspace when the client offers no roots. */
  cwd: string;
  env: NodeJS.ProcessEnv;
  version: string;
  /** One line for the log (stderr). */
  log(line: string): void;
  /** How long to wait for the client's `roots/list` answer before using `cwd`. */
  rootsTimeoutMs?: number;
}

/** What the server tells the client's model about itself; the runtimes and their files come from the registry. */
function instructions(): string {
  const runtimes = dialectModules()
    .map((m) => `${m.title}: ${m.files.defaultGlobs.map((g) => g.replace(/^(\*\*\/)+/, '')).join(' and ')}`)
    .join('; ');
  return `Checks subagent definition files of ${dialectModules().length} agent runtimes (${runtimes}) the way each runtime reads them. A runtime silently drops, rejects or misreads a definition that breaks its rules: call \`check\` on a definition before saving it (unsaved text in \`files\`), \`fix\` for the safe fixes, \`explain_rule\` for a problem's rule, and \`resolve\` to see the tools a definition really gets.`;
}

type ToolCall = <T>(name: string, run: (tools: Tools) => Answer<T>) => Promise<CallToolResult>;

export function createMcpServer(options: McpOptions): McpServer {
  const server = new McpServer(
    { name: 'subagents', title: 'Subagent definitions checker', version: options.version },
    {
      instructions: instructions(),
      // Bounds the work one call can ask for before any schema is checked: the most the schemas allow
      // (MAX_INPUTS paths and MAX_INPUTS files of two keys) fits.
      maxToolInputElements: 5 * MAX_INPUTS,
    },
  );
  const roots = new RootsCache(server, options);
  registerTools(server, toolCall(options, roots));
  registerResources(server);
  registerPrompts(server);
  server.server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    roots.invalidate();
  });
  return server;
}

/**
 * Runs one tool call in the workspace of the moment: a tool's own error is a tool error with its
 * message; anything else is our bug, logged in full and answered as a tool error, and the server goes on.
 */
function toolCall(options: McpOptions, roots: RootsCache): ToolCall {
  return async (name, run) => {
    const started = performance.now();
    const cpu = process.cpuUsage();
    try {
      const workspace = new Workspace(await roots.get());
      const io: Io = {
        cwd: workspace.base,
        env: options.env,
        version: options.version,
        out: (text) => options.log(text.trimEnd()),
        err: (text) => options.log(text.trimEnd()),
      };
      const answer = run(new Tools(workspace, io));
      return {
        content: [{ type: 'text', text: answer.text }],
        structuredContent: answer.data as Record<string, unknown>,
      };
    } catch (e) {
      if (e instanceof ToolError || e instanceof UsageError) throw new Error(e.message);
      // Anything else is our bug: logged in full, answered as a tool error, and the server goes on.
      options.log(`internal error in ${name}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      throw new Error(`internal error: ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`);
    } finally {
      // For bench/mcp.mjs: the tool's own wall and CPU time, which a busy machine changes less than the round trip.
      if (options.env.SUBAGENTS_MCP_TIMING) {
        const { user, system } = process.cpuUsage(cpu);
        options.log(
          `${name}: ${(performance.now() - started).toFixed(1)} ms, cpu ${((user + system) / 1000).toFixed(1)} ms`,
        );
      }
    }
  };
}

/** The five tools, each with a description written for a model and its input and output schemas. */
function registerTools(server: McpServer, withTools: ToolCall): void {
  server.registerTool(
    'check',
    {
      title: 'Check subagent definitions',
      description:
        "Checks subagent definition files the way their runtime reads them, and reports every problem (rule id, severity, message, 0-based range) with a summary. Give `files` to check unsaved text before writing it (as if saved at `path`, with the workspace's configuration and other definitions around it); give `paths` for files, folders or globs on disk; give neither to check the whole workspace. An error means the runtime rejects or drops the definition, or misreads it. Nothing is written.",
      inputSchema: checkInput,
      outputSchema: checkOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => withTools('check', (tools) => tools.check(args)),
  );
  server.registerTool(
    'resolve',
    {
      title: 'Resolve the tools of a definition',
      description:
        'Says what the runtime does with each definition in one file: its status (`loads`, `rejected`, `dropped`), the exact tool set it is granted after shorthands, globs, denials and memory scopes, where each tool comes from (`provenance`), what is removed and why, and whether another definition shadows it. Give `text` to resolve unsaved text.',
      inputSchema: resolveInput,
      outputSchema: resolution,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => withTools('resolve', (tools) => tools.resolve(args)),
  );
  server.registerTool(
    'list_definitions',
    {
      title: 'List the subagent definitions',
      description:
        "Lists every subagent definition in the workspace with its runtime (`dialect`), its status (`loads`, `rejected`, `dropped`, or `shadowed` when another definition replaces it), how many tools it is granted and how many problems it has. Filter by `dialect` or `status` (e.g. `status: 'rejected'` for the definitions that do not load).",
      inputSchema: listInput,
      outputSchema: listOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => withTools('list_definitions', (tools) => tools.listDefinitions(args)),
  );
  server.registerTool(
    'explain_rule',
    {
      title: 'Explain a rule',
      description:
        "Returns a rule's page as Markdown: what it reports, why the runtime cares, a bad and a good example, and how to fix it. `rule` is the id a diagnostic gives (e.g. `polytoken/name-mismatch`).",
      inputSchema: explainInput,
      outputSchema: explainOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => withTools('explain_rule', (tools) => tools.explainRule(args)),
  );
  server.registerTool(
    'fix',
    {
      title: 'Apply the safe fixes',
      description:
        'Applies every safe fix to one definition (or `.subagents.yaml`): the preferred quick fix of each problem, repeated until nothing changes; a safe fix never grants a tool that was not written. Returns the changes as a unified diff, the fixed text and the problems left. Give `text` to fix unsaved text. Nothing is written unless `write: true`; then the fixed text (or `text` as given, when no fix applies) is saved at `path`.',
      inputSchema: fixInput,
      outputSchema: fixOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    (args) => withTools('fix', (tools) => tools.fix(args)),
  );
}

/** Every rule's page and every runtime's document, as Markdown resources. */
function registerResources(server: McpServer): void {
  for (const rule of RULES)
    server.registerResource(
      rule.id,
      `${RULE_URI_PREFIX}${rule.id}`,
      { title: `Rule ${rule.id}`, description: rule.summary, mimeType: 'text/markdown' },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: rulePage(rule) }] }),
    );
  for (const dialect of DIALECTS)
    server.registerResource(
      `runtime-${dialect}`,
      `${RUNTIME_URI_PREFIX}${dialect}`,
      {
        title: `The ${dialectTitle(dialect)} runtime`,
        description: `What ${dialectTitle(dialect)} does with a definition: which files, every key, the tool set, the load status.`,
        mimeType: 'text/markdown',
      },
      (uri) => ({ contents: [{ uri: uri.href, mimeType: 'text/markdown', text: runtimePage(dialect) }] }),
    );
}

/** `new-subagent`: the steps to write a subagent of a runtime, with a skeleton that loads. */
function registerPrompts(server: McpServer): void {
  server.registerPrompt(
    'new-subagent',
    {
      title: 'New subagent',
      description: 'The steps to write a new subagent for a runtime, with a skeleton that loads.',
      argsSchema: {
        runtime: z.enum(DIALECTS as [Dialect, ...Dialect[]]).describe(`The runtime: ${DIALECTS.join(', ')}.`),
        name: z.string().min(1).max(200).describe('The subagent name.'),
        purpose: z.string().max(2000).describe('What the subagent is for, in a sentence or two.'),
      },
    },
    ({ runtime, name, purpose }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: newSubagentPrompt(runtime, name, purpose) } }],
    }),
  );
}

/** The workspace roots: asked of the client once (and again after it says they changed). */
class RootsCache {
  private current: Promise<Roots> | undefined;

  constructor(
    private readonly server: McpServer,
    private readonly options: McpOptions,
  ) {}

  get(): Promise<Roots> {
    return (this.current ??= this.ask());
  }

  invalidate(): void {
    this.current = undefined;
  }

  private async ask(): Promise<Roots> {
    const fallback = (): Roots => ({ folders: [toPosix(fs.realpathSync.native(this.options.cwd))], source: 'cwd' });
    if (!this.server.server.getClientCapabilities()?.roots) return fallback();
    try {
      const { roots } = await this.server.server.listRoots(undefined, {
        timeout: this.options.rootsTimeoutMs ?? 10000,
      });
      const folders = rootsFromUris(
        roots.map((r) => r.uri),
        this.options.log,
      );
      if (folders.length) {
        this.options.log(`workspace: ${folders.join(', ')}`);
        return { folders, source: 'client' };
      }
      this.options.log(`the client lists no usable file:// root; the workspace is ${this.options.cwd}`);
    } catch (e) {
      this.invalidate(); // asked again at the next call
      const reason = (e instanceof Error ? e.message : String(e)).split('\n')[0];
      this.options.log(`roots/list failed (${reason}); the workspace is ${this.options.cwd}`);
    }
    return fallback();
  }
}
