/**
 * Go to definition: a tool or MCP server name (an entry of one of the dialect's tool lists) to
 * its entry in `.subagents.yaml`; the `name` of a shadowed definition (one whose diagnostic
 * names, in `data.by`, the definition that replaces it) to the file that replaces it.
 */
import type { Diagnostic, Location, Position } from 'vscode-languageserver-types';
import type { DialectModule } from '../dialects/module';
import type { Analysis } from '../types';
import { parseYamlFile } from '../text/document';
import { SourceText } from '../text/source';
import { getProperty, getValue, isArray, isObject, pathOf, type AstNode } from '../text/tree';
import { featureFile } from './common';
import { isToolList, nodeAt, offsetAt } from './kit/file';
import { posix } from 'path';

export interface DefinitionHost {
  /** The `.subagents.yaml` in force for the file. */
  configPath?: string;
  readText(path: string): string | undefined;
  pathToUri(path: string): string;
}

export function definition(
  analysis: Analysis | undefined,
  position: Position,
  host: DefinitionHost,
): Location[] | undefined {
  const file = featureFile(analysis);
  if (!file) return undefined;
  const offset = offsetAt(file, position);
  const node = nodeAt(file, offset);
  if (!node) return undefined;
  const path = pathOf(node);

  if (path.length === 1 && path[0] === 'name') {
    const by = analysis!.diagnostics.map(shadowedBy).find((b) => b !== undefined);
    if (by) {
      const target = posix.isAbsolute(by) ? by : posix.resolve(posix.dirname(file.ctx.path), by);
      return [{ uri: host.pathToUri(target), range: nameRangeIn(file.module, target, host) }];
    }
    return undefined;
  }

  if (node.kind !== 'string' || node.keyOf || !isToolList(file.module, path.slice(0, -1)) || !host.configPath)
    return undefined;
  const text = host.readText(host.configPath);
  if (text === undefined) return undefined;
  const config = parseYamlFile(text);
  const target = configTarget(config.root, file.dialect, String(node.value));
  if (!target) return undefined;
  return [{ uri: host.pathToUri(host.configPath), range: config.source.range(target.start, target.end) }];
}

function shadowedBy(d: Diagnostic): string | undefined {
  const data = d.data as { by?: unknown } | undefined;
  const by = data?.by;
  if (typeof by === 'string') return by;
  if (by && typeof by === 'object' && typeof (by as { path?: unknown }).path === 'string')
    return (by as { path: string }).path;
  return undefined;
}

/** Where the replacing definition (of the same dialect) names itself. */
function nameRangeIn(module: DialectModule, path: string, host: DefinitionHost) {
  const zero = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  const text = host.readText(path);
  if (text === undefined) return zero;
  const parsed = module.parse(new SourceText(text), path);
  const n = getValue(parsed.root, 'name');
  return n ? parsed.source.range(n.start, n.end) : zero;
}

/** The node in `.subagents.yaml` that declares a tool name or MCP server. */
function configTarget(root: AstNode | undefined, dialect: string, name: string): AstNode | undefined {
  const mcp = /^mcp__(.+?)(?:__(.+))?$/.exec(name);
  if (mcp) {
    const serverGlob = mcp[1];
    const server = getProperty(getValue(root, 'mcp'), serverGlob);
    if (!server) return undefined;
    const tool = mcp[2];
    if (tool && isArray(server.value)) {
      // Here and below, only a string's value can equal a name.
      const entry = server.value.items.find((i) => i.value === tool);
      if (entry) return entry;
    }
    return server.keyNode;
  }
  const list = getValue(getValue(root, 'tools'), dialect);
  if (!isArray(list)) return undefined;
  for (const item of list.items) {
    if (item.value === name) return item;
    const n = isObject(item) ? getValue(item, 'name') : undefined;
    if (n?.value === name) return n;
  }
  return undefined;
}
