/**
 * What a Polytoken tool entry means: the only place that parses an entry (literal name,
 * full MCP name, `mcp__<server>`, `tag!ALL`, `tag!ALL_MCP`, `tag!<tag>`), expands it and
 * judges whether the catalog knows it. Rules, resolution, hover, completion and the inlay
 * hints all read these answers (see docs/runtimes/polytoken.md, "Tool entries").
 */
import { nearestName, parseMcpName, type Catalog } from '../../catalog/catalog';
import { SHORTHAND_ALL, SHORTHAND_ALL_MCP } from './constants';

/** The lists whose entries are tool names. */
export type ToolListKey = 'tools' | 'tools_deny' | 'undeferred_tools';

export type ToolMeaning =
  /** A literal tool name; `server`/`tool` when it is a full MCP name `mcp__<server>__<tool>`. */
  | { kind: 'name'; name: string; server?: string; tool?: string }
  | { kind: 'all' }
  | { kind: 'all-mcp' }
  | { kind: 'tag'; tag: string }
  | { kind: 'server'; server: string };

export const isTagRef = (text: string): boolean => text.startsWith('tag!');

/** The meaning of an entry's text against the catalog's MCP servers. */
export function toolMeaning(text: string, catalog: Catalog): ToolMeaning {
  if (text === SHORTHAND_ALL) return { kind: 'all' };
  if (text === SHORTHAND_ALL_MCP) return { kind: 'all-mcp' };
  if (isTagRef(text)) return { kind: 'tag', tag: text.slice('tag!'.length) };
  const mcp = parseMcpName(text, catalog.servers.keys());
  if (mcp && mcp.tool === undefined) return { kind: 'server', server: mcp.server };
  return mcp ? { kind: 'name', name: text, server: mcp.server, tool: mcp.tool } : { kind: 'name', name: text };
}

/**
 * The tools an entry of `tools` grants, in catalog order; undefined for a shorthand the
 * catalog cannot expand (an unknown server, a tag no tool carries, no MCP tool at all):
 * such an entry is listed as unexpanded, never guessed.
 */
export function expandMeaning(m: ToolMeaning, catalog: Catalog): string[] | undefined {
  const nonEmpty = (list: string[]) => (list.length ? list : undefined);
  switch (m.kind) {
    case 'name':
      return [m.name];
    case 'all':
      return nonEmpty(catalog.names());
    case 'all-mcp':
      return nonEmpty(catalog.mcpTools());
    case 'tag':
      return nonEmpty(catalog.tagged(m.tag));
    case 'server':
      return nonEmpty(catalog.servers.get(m.server) ?? []);
  }
}

/**
 * What `polytoken/unknown-tool` says of an entry: which part the catalog does not know, and the nearest known spelling.
 */
export interface UnknownTool {
  what: 'tool' | 'tag' | 'server' | 'server-of-tool';
  /** The full replacement entry text, when a known name is near. */
  near?: string;
}

/**
 * The catalog's verdict on one entry of a list; undefined when it is known (or when another
 * rule owns the problem: `tag!` entries in literal lists, `mcp__<server>` in `tools_deny`).
 */
export function unknownTool(m: ToolMeaning, list: ToolListKey, catalog: Catalog): UnknownTool | undefined {
  switch (m.kind) {
    case 'all':
    case 'all-mcp':
      return undefined;
    case 'tag': {
      if (list !== 'tools' || catalog.tagged(m.tag).length) return undefined;
      const near = nearestName(m.tag, catalog.tags());
      return { what: 'tag', ...(near ? { near: `tag!${near}` } : {}) };
    }
    case 'server': {
      if (list === 'tools_deny' || catalog.servers.has(m.server)) return undefined;
      const near = nearestName(m.server, catalog.servers.keys());
      return { what: 'server', ...(near ? { near: `mcp__${near}` } : {}) };
    }
    case 'name': {
      if (catalog.has(m.name)) return undefined;
      const near = catalog.nearest(m.name);
      const what = m.server !== undefined && !catalog.servers.has(m.server) ? 'server-of-tool' : 'tool';
      return { what, ...(near ? { near } : {}) };
    }
  }
}

/**
 * Entries a list may hold that the runtime rejects there (a `tag!` reference in a literal list, a server shorthand in
 * the deny list).
 */
export function misplacedIn(
  list: ToolListKey,
  m: ToolMeaning,
): 'tag-in-literal-list' | 'mcp-shorthand-in-deny' | undefined {
  if (list !== 'tools' && (m.kind === 'all' || m.kind === 'all-mcp' || m.kind === 'tag')) return 'tag-in-literal-list';
  if (list === 'tools_deny' && m.kind === 'server') return 'mcp-shorthand-in-deny';
  return undefined;
}

/** Everything tools.ts says of one entry of a list: the model holds these, hover asks for half-typed text. */
export interface EntryFacts {
  meaning: ToolMeaning;
  /** What the entry grants (as if it were in `tools`); undefined when it cannot be expanded. */
  expansion?: string[];
  unknown?: UnknownTool;
}

export function entryFacts(text: string, list: ToolListKey, catalog: Catalog): EntryFacts {
  const meaning = toolMeaning(text, catalog);
  return { meaning, expansion: expandMeaning(meaning, catalog), unknown: unknownTool(meaning, list, catalog) };
}

/** What completion offers in a list: the entries the runtime accepts there and that grant or name a known tool. */
export function listCandidates(list: ToolListKey, catalog: Catalog): { text: string; facts: EntryFacts }[] {
  const names = catalog
    .names()
    .filter((n) => n !== 'switch_facet' && (list === 'tools_deny' ? !catalog.get(n)?.undeniable : n !== 'exit_tool'));
  const texts = [...names];
  if (list === 'tools') {
    texts.push(SHORTHAND_ALL, SHORTHAND_ALL_MCP);
    for (const tag of catalog.tags()) texts.push(`tag!${tag}`);
    for (const server of catalog.servers.keys()) texts.push(`mcp__${server}`);
  }
  const out: { text: string; facts: EntryFacts }[] = [];
  for (const text of texts) {
    const facts = entryFacts(text, list, catalog);
    if (!facts.unknown && facts.expansion && !misplacedIn(list, facts.meaning)) out.push({ text, facts });
  }
  return out;
}
