import type { Dialect, Finding, SeveritySetting } from '../types';
import { parseYamlFile } from '../text/document';
import { nodeAtPath, toPlain, type AstNode } from '../text/tree';
import { describeProblem, validateNode } from '../schema/validate';
import configSchema from '../../schemas/subagents-config.schema.json';

export interface ToolEntry {
  name: string;
  description?: string;
  tags: string[];
}

export interface SubagentsConfig {
  files: Partial<Record<Dialect, string[]>>;
  ignore: string[];
  tools: Partial<Record<Dialect, ToolEntry[]>>;
  mcp: Record<string, string[]>;
  polytoken: { facetTools: string[]; subagentDirs: string[]; globalDir?: string };
  profy: { mainTools?: string[]; builtinSubagents: string[] };
  rules: Record<string, SeveritySetting>;
}

/** The configuration in force for a file, and where it came from. */
export interface LoadedConfig {
  config: SubagentsConfig;
  /** The `.subagents.yaml` it was read from; undefined for the defaults. */
  path?: string;
  /** The folder relative paths and globs in it resolve against (posix). */
  dir: string;
  /** `config/invalid` findings, reported on the configuration file. */
  findings: Finding[];
  /** The Polytoken global folder in force (absolute, posix); undefined when turned off. */
  globalDir?: string;
}

export const CONFIG_FILE_NAME = '.subagents.yaml';

export function defaultConfig(): SubagentsConfig {
  return {
    files: {},
    ignore: [],
    tools: {},
    mcp: {},
    polytoken: { facetTools: [], subagentDirs: [] },
    profy: { builtinSubagents: [] },
    rules: {},
  };
}

/** The defaults, for a folder without configuration. */
export function defaultLoadedConfig(dir: string): LoadedConfig {
  return { config: defaultConfig(), dir, findings: [] };
}

/**
 * Parses `.subagents.yaml`. A malformed file yields `config/invalid` findings and the
 * defaults, so the checker carries on.
 */
export function parseConfig(text: string, path: string, dir: string): LoadedConfig {
  const parsed = parseYamlFile(text);
  const invalid = (findings: Finding[]): LoadedConfig => ({ config: defaultConfig(), path, dir, findings });
  const syntax = parsed.syntax.map((f) => ({ ...f, rule: 'config/invalid', message: `The configuration does not parse: ${f.message} The defaults are used until it is fixed.` }));
  if (syntax.length) return invalid(syntax);
  const root = parsed.root;
  if (!root || root.kind === 'null') return { config: defaultConfig(), path, dir, findings: [] };
  const problems = validateNode(configSchema, root);
  if (problems.length) {
    return invalid(
      problems.map((p) => ({
        rule: 'config/invalid',
        range: parsed.source.range(keyOrNode(p.node).start, keyOrNode(p.node).end),
        message: `${describeProblem(p)} The whole configuration is ignored and the defaults are used until it is fixed.`,
      })),
    );
  }
  return { config: fromPlain(toPlain(root) as Record<string, any>), path, dir, findings: [] };
}

function keyOrNode(node: AstNode): AstNode {
  return node.kind === 'object' && node.property ? node.property.keyNode : node;
}

function fromPlain(raw: Record<string, any>): SubagentsConfig {
  const config = defaultConfig();
  config.files = raw.files ?? {};
  config.ignore = raw.ignore ?? [];
  for (const [dialect, list] of Object.entries(raw.tools ?? {})) {
    config.tools[dialect as Dialect] = (list as unknown[]).map((t) =>
      typeof t === 'string' ? { name: t, tags: [] } : { name: (t as ToolEntry).name, description: (t as ToolEntry).description, tags: (t as ToolEntry).tags ?? [] },
    );
  }
  config.mcp = raw.mcp ?? {};
  config.polytoken = { facetTools: raw.polytoken?.facetTools ?? [], subagentDirs: raw.polytoken?.subagentDirs ?? [], globalDir: raw.polytoken?.globalDir };
  config.profy = { mainTools: raw.profy?.mainTools, builtinSubagents: raw.profy?.builtinSubagents ?? [] };
  config.rules = raw.rules ?? {};
  return config;
}

/** Where a key of the configuration is, for go-to-definition (e.g. a tool or MCP server). */
export function configNodeAt(text: string, path: (string | number)[]): AstNode | undefined {
  return nodeAtPath(parseYamlFile(text).root, path);
}

