import { nearestName } from '../text/nearest';
import type { SubagentsConfig } from '../config/types';
import type { Dialect } from '../basics';

/** A tool a runtime provides itself; each dialect module lists its own. */
export interface BuiltinTool {
  name: string;
  description: string;
  /** Polytoken: may not be listed in `tools_deny`. */
  undeniable?: boolean;
  /** Profy: never granted to a subagent. */
  reserved?: boolean;
  /** What hover adds about it, in the runtime's words (`exit_tool`: never list it). */
  notes?: readonly string[];
}

export interface CatalogTool {
  name: string;
  description?: string;
  tags: string[];
  origin: 'builtin' | 'config' | 'mcp';
  /** For MCP tools, the server. */
  server?: string;
  undeniable?: boolean;
  reserved?: boolean;
  notes?: readonly string[];
}

export { nearestName } from '../text/nearest';

export const mcpToolName = (server: string, tool: string) => `mcp__${server}__${tool}`;

/**
 * `mcp__<server>` or `mcp__<server>__<tool>`, split; undefined for other names. A configured
 * server name (which may itself hold `__`) is preferred, the longest first. Only `mcp__<server>`
 * exactly is a server: `mcp__<server>__` names a tool with an empty name, which no catalog has.
 */
export function parseMcpName(
  name: string,
  knownServers: Iterable<string> = [],
): { server: string; tool?: string } | undefined {
  if (!name.startsWith('mcp__')) return undefined;
  const rest = name.slice('mcp__'.length);
  if (!rest) return undefined;
  let best: string | undefined;
  for (const s of knownServers) {
    if ((rest === s || rest.startsWith(`${s}__`)) && (!best || s.length > best.length)) best = s;
  }
  if (best !== undefined) return rest === best ? { server: best } : { server: best, tool: rest.slice(best.length + 2) };
  const sep = rest.indexOf('__');
  if (sep < 0) return { server: rest };
  if (sep === 0) return undefined;
  return { server: rest.slice(0, sep), tool: rest.slice(sep + 2) };
}

/**
 * The tools one runtime knows: built-ins, `tools.<dialect>` and every MCP tool (docs/runtimes/<dialect>.md, the tool
 * catalog).
 */
export class Catalog {
  readonly tools = new Map<string, CatalogTool>();
  readonly servers = new Map<string, string[]>();

  constructor(
    readonly dialect: Dialect,
    builtins: readonly BuiltinTool[],
    config: SubagentsConfig,
  ) {
    for (const t of builtins) this.tools.set(t.name, { ...t, tags: [], origin: 'builtin' });
    for (const t of config.tools[dialect] ?? []) {
      const existing = this.tools.get(t.name);
      this.tools.set(t.name, {
        ...existing,
        name: t.name,
        description: t.description ?? existing?.description,
        tags: t.tags,
        origin: existing?.origin ?? 'config',
      });
    }
    for (const [server, tools] of Object.entries(config.mcp)) {
      const full = tools.map((tool) => mcpToolName(server, tool));
      this.servers.set(server, full);
      for (const name of full)
        if (!this.tools.has(name)) this.tools.set(name, { name, tags: [], origin: 'mcp', server });
    }
  }

  /**
   * Whether the runtime is known to have the tool: the one verdict the unknown-tool rules and every view of a tool set
   * read.
   */
  has(name: string): boolean {
    return this.tools.has(name);
  }

  /** The names among `tools` the catalog does not know, sorted and unique. */
  unknownAmong(tools: Iterable<string>): string[] {
    const out = new Set<string>();
    for (const t of tools) if (!this.has(t)) out.add(t);
    return [...out].sort();
  }

  get(name: string): CatalogTool | undefined {
    return this.tools.get(name);
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  mcpTools(): string[] {
    return [...this.servers.values()].flat();
  }

  tagged(tag: string): string[] {
    return [...this.tools.values()].filter((t) => t.tags.includes(tag)).map((t) => t.name);
  }

  tags(): string[] {
    return [...new Set([...this.tools.values()].flatMap((t) => t.tags))].sort();
  }

  /** The closest known name within the edit distance, for "did you mean". */
  nearest(name: string, maxDistance = 2, candidates: Iterable<string> = this.tools.keys()): string | undefined {
    return nearestName(name, candidates, maxDistance);
  }
}
