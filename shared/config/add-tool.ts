/**
 * Making a tool known in `.subagents.yaml`, for the quick fix an unknown tool offers: an
 * `mcp__<server>__<tool>` name goes under `mcp.<server>`, any other name under
 * `tools.<dialect>`, each written in the layout already there.
 */
import type { TextEdit } from 'vscode-languageserver-types';
import type { Dialect } from '../basics';
import {
  afterColonEdit,
  appendToListEdit,
  inLineEndingOf,
  insertKeyLinesEdit,
  writtenNull,
  yamlScalar,
} from '../fixes/edits';
import { parseYamlFile } from '../text/document';
import { getValue } from '../text/tree';
import { parseMcpName } from '../catalog/catalog';

/** Where a tool name is declared: the section, the key under it, the list entry. */
export interface ToolDeclaration {
  section: 'tools' | 'mcp';
  key: string;
  value: string;
}

/**
 * Where this name would be declared; undefined for shorthands, which name no single tool. An
 * MCP name is split as the runtimes split it, a configured server's name first (`my__srv`).
 */
export function toolDeclaration(
  dialect: Dialect,
  name: string,
  knownServers: Iterable<string>,
): ToolDeclaration | undefined {
  const mcp = parseMcpName(name, knownServers);
  if (mcp) return mcp.tool ? { section: 'mcp', key: mcp.server, value: mcp.tool } : undefined;
  if (name.includes('!') || name.includes('*') || !name.trim()) return undefined;
  return { section: 'tools', key: dialect, value: name };
}

/** The text of a new `.subagents.yaml` that declares the tool. */
export function newConfigText(declaration: ToolDeclaration): string {
  return `${declaration.section}:\n  ${declaration.key}: [${yamlScalar(declaration.value)}]\n`;
}

/**
 * The edit that declares the tool in an existing configuration (in its line ending); undefined where its layout leaves
 * no safe place.
 */
export function declareToolEdit(configText: string, declaration: ToolDeclaration): TextEdit | undefined {
  const edit = declarationEdit(configText, declaration);
  return edit && inLineEndingOf(configText, [edit])[0];
}

function declarationEdit(configText: string, declaration: ToolDeclaration): TextEdit | undefined {
  const file = parseYamlFile(configText);
  if (file.syntax.length) return undefined;
  const target = { file };
  const { section, key, value } = declaration;
  const root = file.root;
  if (!root || root.kind === 'null') {
    // `~` or an anchor alone: the declaration takes its place (a mapping after it would not be YAML).
    const written = writtenNull(target);
    if (written)
      return { range: file.source.range(written.start, written.end), newText: newConfigText(declaration).slice(0, -1) };
    const end = file.source.text.length;
    const nl = end && !file.source.text.endsWith('\n') ? '\n' : '';
    return { range: file.source.range(end, end), newText: nl + newConfigText(declaration) };
  }
  if (root.kind !== 'object') return undefined;
  const holder = getValue(root, section);
  const scalar = yamlScalar(value);
  if (!holder) return insertKeyLinesEdit(target, root, [`${section}:`, `  ${key}: [${scalar}]`]);
  if (holder.kind === 'null' && holder.property)
    return afterColonEdit(target, holder.property.keyNode, ` { ${key}: [${scalar}] }`);
  if (holder.kind !== 'object' || holder.viaAlias) return undefined;
  return appendToListEdit(target, holder, key, value);
}
