import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import type { RuleContext } from '../../engine';
import type { RemovedTool, ResolvedDefinition } from '../../types';
import { getProperty, isString } from '../../text/tree';
import { SHORTHAND_ALL, SHORTHAND_ALL_MCP } from './constants';
import { definitionOf, inheritsTools, isTagRef, parseMcpName, polyList } from './util';

/** What a `tools` entry stands for; undefined when it is a shorthand the catalog cannot expand. */
export function expandToolEntry(ctx: Pick<RuleContext, 'catalog'>, entry: string): string[] | undefined {
  const catalog = ctx.catalog;
  if (entry === SHORTHAND_ALL) return nonEmpty(catalog.names());
  if (entry === SHORTHAND_ALL_MCP) return nonEmpty(catalog.mcpTools());
  if (isTagRef(entry)) return nonEmpty(catalog.tagged(entry.slice('tag!'.length)));
  const mcp = parseMcpName(entry, catalog.servers.keys());
  if (mcp && mcp.tool === undefined) return nonEmpty(catalog.servers.get(mcp.server) ?? []);
  return [entry];
}

const nonEmpty = (list: string[]) => (list.length ? list : undefined);

/** SPEC §4 "Resolution": the tool set Polytoken grants the definition. */
export function resolvePolytoken(ctx: RuleContext, diagnostics: readonly Diagnostic[]): ResolvedDefinition[] {
  const def = definitionOf(ctx, true);
  const nameNode = getProperty(def?.root, 'name')?.value;
  const hasName = isString(nameNode) && nameNode.value.trim() !== '';
  const name = hasName ? nameNode.value : ctx.fileStem;

  const granted = new Map<string, string[]>();
  const grant = (tool: string, why: string) => {
    const list = granted.get(tool) ?? [];
    if (!list.includes(why)) list.push(why);
    granted.set(tool, list);
  };
  const unexpanded: string[] = [];
  const removed: RemovedTool[] = [];

  // 1. `tools`: literal names as they are, shorthands through the catalog.
  for (const { value } of polyList(def, 'tools')) {
    const tools = expandToolEntry(ctx, value);
    if (!tools) {
      if (!unexpanded.includes(value)) unexpanded.push(value);
      continue;
    }
    const literal = tools.length === 1 && tools[0] === value;
    for (const t of tools) grant(t, literal ? 'tools' : `tools: ${value}`);
  }
  // 2. inherit_tools: the calling facet's tools, never switch_facet.
  if (inheritsTools(def)) {
    for (const t of ctx.config.polytoken.facetTools) if (t !== 'switch_facet') grant(t, 'inherit_tools');
  }
  // 3. tools_deny.
  for (const { value } of polyList(def, 'tools_deny')) {
    if (granted.delete(value)) removed.push({ tool: value, by: 'tools_deny' });
  }
  // 4. switch_facet is never available to a subagent.
  if (granted.delete('switch_facet')) removed.push({ tool: 'switch_facet', by: 'switch_facet' });
  // 5. exit_tool is always registered.
  grant('exit_tool', 'always registered');

  const tools = [...granted.keys()].sort();
  const undeferred = [...new Set(polyList(def, 'undeferred_tools').map((e) => e.value))].filter((t) => granted.has(t));
  const errors = diagnostics.filter((d) => (d.severity ?? DiagnosticSeverity.Error) === DiagnosticSeverity.Error);
  const reasons = [...new Set(errors.map((d) => String(d.code ?? 'error')))];
  const provenance: Record<string, string[]> = {};
  for (const t of tools) provenance[t] = granted.get(t)!;
  return [
    {
      name,
      status: reasons.length ? 'rejected' : 'loads',
      tools,
      undeferred,
      unexpanded,
      removed,
      provenance,
      ...(reasons.length ? { reasons } : {}),
      range: hasName ? ctx.file.source.range(nameNode.start, nameNode.end) : ctx.file.source.firstLine(),
    },
  ];
}
