import type { Dialect, SeveritySetting } from '../basics';
import type { Finding } from '../results';
import { parseYamlFile, type ParsedFile } from '../text/document';
import type { ConfigDocument, LoadedConfig, SubagentsConfig, ToolEntry } from './types';
import { SourceText } from '../text/source';
import { MAX_FILE_CHARS, sizeOverLimit } from '../text/limits';
import { getProperty, getValue, pathOf, toPlain, type AstNode } from '../text/tree';
import { describeProblem, invalidPaths, validateNode, type SchemaProblem } from '../schema/validate';
import { nearestName } from '../text/nearest';
import { RULES, ruleMeta } from '../rules/registry';
import { globFindings, keptGlobs } from './glob-guard';
import { configKeysAt, SEVERITY_SETTINGS } from './keys';
import { configSchema, ruleIdPattern } from './schema';
import { dialectModules } from '../dialects';

export {
  CONFIG_FILE_NAME,
  type ConfigDocument,
  type LoadedConfig,
  type SubagentsConfig,
  type ToolEntry,
} from './types';

export function defaultConfig(): SubagentsConfig {
  return { files: {}, ignore: [], tools: {}, mcp: {}, rules: {}, sections: readSections({}) };
}

/** Each dialect's section as its module reads it (its defaults when the file holds none). */
function readSections(raw: Record<string, unknown>): SubagentsConfig['sections'] {
  const sections: SubagentsConfig['sections'] = {};
  for (const m of dialectModules()) if (m.section) sections[m.id] = m.section.read(raw[m.id]);
  return sections;
}

/** The defaults, for a folder without configuration. */
export function defaultLoadedConfig(dir: string): LoadedConfig {
  return { config: defaultConfig(), dir, findings: [] };
}

/** Said after every problem that makes the whole file unusable. */
const FALLBACK = 'so the whole configuration is ignored and the defaults are used until it is fixed';
/** Said after a problem in one part: that part is dropped, the rest applies. */
const IGNORED = 'so this part is ignored (the rest of the configuration applies) until it is fixed';

/**
 * Parses `.subagents.yaml`. A file that is not YAML or not a mapping yields `config/invalid`
 * findings and the defaults, so the checker carries on; an invalid part of a mapping is
 * reported and dropped, and every valid part applies. A rule id that is well formed but unknown is
 * only a warning: that setting has no effect and the rest of the file applies.
 */
export function parseConfig(text: string, path: string, dir: string): LoadedConfig {
  return parseConfigDocument(text, path, dir).loaded;
}

/** `parseConfig`, keeping the parsed text (undefined when the file is too large or binary to parse). */
export function parseConfigDocument(
  text: string,
  path: string,
  dir: string,
): { loaded: LoadedConfig; document?: ConfigDocument } {
  const unreadable = unreadableConfig(text);
  if (unreadable)
    return {
      loaded: {
        config: defaultConfig(),
        path,
        dir,
        findings: [
          { rule: 'config/invalid', range: new SourceText(text).firstLine(), message: `${unreadable}, ${FALLBACK}.` },
        ],
      },
    };
  const file = parseYamlFile(text);
  const loaded = loadParsed(file, path, dir);
  return { loaded, document: { file, config: loaded.config } };
}

function loadParsed(parsed: ParsedFile, path: string, dir: string): LoadedConfig {
  const invalid = (findings: Finding[]): LoadedConfig => ({ config: defaultConfig(), path, dir, findings });
  const source = parsed.source;
  const syntax = parsed.syntax.map((f): Finding => ({
    ...f,
    rule: 'config/invalid',
    message: `The configuration is not valid YAML (${f.message.replace(/[.\s]+$/, '')}), ${FALLBACK}.`,
  }));
  if (syntax.length) return invalid(syntax);
  const root = parsed.root;
  if (!root || root.kind === 'null') return { config: defaultConfig(), path, dir, findings: [] };
  if (root.kind !== 'object') {
    const what = root.kind === 'array' ? 'a list' : root.kind === 'unknown' ? 'not a mapping' : `a single ${root.kind}`;
    return invalid([
      {
        rule: 'config/invalid',
        range: source.firstLine(),
        message: `The configuration is ${what}, but it must be a mapping of settings (${configKeysAt([])
          .map((k) => `\`${k}\``)
          .join(', ')}), ${FALLBACK}.`,
      },
    ]);
  }
  const problems = relevantProblems(validateNode(configSchema(), root));
  const warnings = unknownRuleIds(parsed.source, root);
  const errors: Finding[] = problems.map((p) => {
    const { node, message, data } = explain(p);
    const at = rangeNode(node);
    return {
      rule: 'config/invalid',
      range: source.range(at.start, at.end),
      message: `${message}, ${IGNORED}.`,
      ...(data ? { data } : {}),
    };
  });
  // Every invalid part is dropped and the rest applies (as markdownlint does); none is left when the document as a
  // whole is wrong.
  const valid = problems.length ? validPart(toPlain(root)) : toPlain(root);
  if (valid === undefined) return invalid(sortFindings([...errors, ...warnings]));
  const config = fromPlain(valid as Record<string, any>);
  config.ignore = keptGlobs(config.ignore);
  for (const d of Object.keys(config.files) as Dialect[]) config.files[d] = keptGlobs(config.files[d]!);
  if (problems.length) config.mentioned = mentionedNames(root);
  return { config, path, dir, findings: sortFindings([...errors, ...warnings, ...globFindings(source, root)]) };
}

/** Rounds of dropping invalid parts: a drop can leave its parent invalid (a list that must not be empty). */
const PRUNE_ROUNDS = 4;

/** The value without the parts the schema refuses; undefined when the whole is refused or it does not settle. */
function validPart(value: unknown): unknown {
  for (let round = 0; round < PRUNE_ROUNDS; round++) {
    const paths = invalidPaths(configSchema(), value);
    if (!paths.length) return value;
    if (paths.some((p) => p.length === 0)) return undefined;
    value = withoutPaths(value, paths);
  }
  return undefined;
}

/** A copy of `value` without the keys and list items at `paths` (the ones that exist). */
function withoutPaths(value: unknown, paths: readonly (string | number)[][]): unknown {
  const drop = new Map<object, Set<string | number>>();
  for (const path of paths) {
    let parent: unknown = value;
    for (const step of path.slice(0, -1)) parent = isContainer(parent) ? (parent as any)[step] : undefined;
    if (!isContainer(parent)) continue;
    const marks = drop.get(parent) ?? new Set();
    marks.add(path[path.length - 1]);
    drop.set(parent, marks);
  }
  const copy = (v: unknown): unknown => {
    if (!isContainer(v)) return v;
    const marks = drop.get(v);
    if (Array.isArray(v)) return v.filter((_, i) => !marks?.has(i)).map(copy);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v))
      if (!marks?.has(k))
        Object.defineProperty(out, k, { value: copy(x), enumerable: true, writable: true, configurable: true });
    return out;
  };
  return copy(value);
}

const isContainer = (v: unknown): v is object => typeof v === 'object' && v !== null;

/**
 * Every name a configuration with errors mentions, in its valid and invalid parts: strings, keys,
 * and `mcp__<key>__<item>` for a list under a key. While it has errors, a did-you-mean fix does not
 * rewrite a tool among them (it may be declared in the part that was dropped).
 */
function mentionedNames(root: AstNode): Set<string> {
  const names = new Set<string>();
  const visit = (node: AstNode, key?: string) => {
    if (node.kind === 'string') {
      names.add(String(node.value));
      if (key !== undefined) names.add(`mcp__${key}__${String(node.value)}`);
    }
    for (const p of node.properties ?? []) {
      names.add(p.key);
      if (p.value) visit(p.value, p.key);
    }
    for (const item of node.items ?? []) visit(item, key);
  };
  visit(root);
  return names;
}

const sortFindings = (findings: Finding[]) =>
  findings.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character);

/** The limits of definition files hold for the configuration too: nothing huge or binary is parsed. */
function unreadableConfig(text: string): string | undefined {
  if (text.length > MAX_FILE_CHARS) return `The configuration is ${sizeOverLimit(text.length, MAX_FILE_CHARS)}`;
  if (text.includes('\u0000')) return 'The configuration holds NUL bytes, so it is binary, not YAML';
  return undefined;
}

/** Well-formed rule ids that no rule has: only a warning, since the setting just has no effect. */
function unknownRuleIds(source: SourceText, root: AstNode): Finding[] {
  const rules = getValue(root, 'rules');
  const findings: Finding[] = [];
  for (const p of rules?.kind === 'object' ? (rules.properties ?? []) : []) {
    if (ruleMeta(p.key) || !ruleIdPattern().test(p.key)) continue;
    const suggestion = nearestName(
      p.key,
      RULES.map((r) => r.id),
      3,
    );
    findings.push({
      rule: 'config/invalid',
      severity: 'warning',
      range: source.range(p.keyNode.start, p.keyNode.end),
      message: `\`${p.key}\` is not a rule id, so this setting has no effect; ${suggestion ? `did you mean \`${suggestion}\`?` : 'run `subagents rules` to list them.'}`,
      data: { ...renameData(rules!, suggestion), removable: true },
    });
  }
  return findings;
}

/**
 * The rename a finding on an unknown key offers: none when the mapping already has the key it
 * would become (a rename would duplicate it, and merging the two is the author's call).
 */
function renameData(mapping: AstNode, suggestion: string | undefined): { replacement?: string } {
  return suggestion !== undefined && !getProperty(mapping, suggestion) ? { replacement: suggestion } : {};
}

/**
 * Drops the noise of `anyOf` and `propertyNames`: a value that took the mapping
 * branch of "a name or a mapping" is not also "not a string", and a bad rule id is
 * reported once, on its key.
 */
function relevantProblems(problems: SchemaProblem[]): SchemaProblem[] {
  return problems.filter((p) => {
    const here = problems.filter((q) => q.node === p.node && q.label === p.label);
    if (p.keyword === 'type' && here.some((q) => q.keyword !== 'type' && q.keyword !== 'anyOf')) return false;
    if (p.keyword === 'pattern' && p.node.kind === 'object' && here.some((q) => q.keyword === 'propertyNames'))
      return false;
    return true;
  });
}

/** The message for one schema problem and the node it is about. */
function explain(p: SchemaProblem): { node: AstNode; message: string; data?: Record<string, unknown> } {
  if (p.keyword === 'additionalProperties') {
    const key = String(p.params.additionalProperty);
    const property = getProperty(p.node, key);
    const known = configKeysAt(pathOf(p.node));
    const suggestion = nearestName(key, known, 2);
    const where = p.node.parent ? `under \`${p.label}\`` : 'at the top level';
    const hint = suggestion
      ? ` (did you mean \`${suggestion}\`?)`
      : known.length
        ? ` (known keys: ${known.map((k) => `\`${k}\``).join(', ')})`
        : '';
    return {
      node: property?.keyNode ?? p.node,
      message: `\`${key}\` is not a configuration key ${where}${hint}`,
      data: { ...renameData(p.node, suggestion), removable: true },
    };
  }
  if (p.keyword === 'propertyNames') {
    const key = String(p.params.propertyName);
    const property = getProperty(p.node, key);
    const suggestion = nearestName(
      key,
      RULES.map((r) => r.id),
      3,
    );
    return {
      node: property?.keyNode ?? p.node,
      message: `\`${key}\` is not a rule id (they look like \`picasso/unknown-key\`)${suggestion ? `; did you mean \`${suggestion}\`?` : ''}`,
      data: suggestion ? renameData(p.node, suggestion) : undefined,
    };
  }
  if (p.keyword === 'required')
    return { node: p.node, message: `\`${p.label}\` needs a \`${String(p.params.missingProperty)}\` key` };
  if (p.keyword === 'minLength') return { node: p.node, message: `\`${p.label}\` must not be empty` };
  if (p.keyword === 'enum' && pathOf(p.node)[0] === 'rules') {
    return {
      node: p.node,
      message: `\`${p.label}\` must be off, error, warning, information or hint`,
      data: nearestSeverity(p.node),
    };
  }
  return { node: p.node, message: describeProblem(p).replace(/\.$/, '') };
}

/** ESLint's spellings, which authors bring along: `warn`, `info`, and 0, 1, 2. */
const ESLINT_SEVERITIES: Record<string, SeveritySetting> = {
  warn: 'warning',
  info: 'information',
  '0': 'off',
  '1': 'warning',
  '2': 'error',
};

/**
 * The severity a wrong value most likely means: an ESLint spelling, else one within two edits
 * (`warnin`, `Error`). Nothing further away: `loud` guessed as `off` would turn the rule off.
 */
function nearestSeverity(node: AstNode): Record<string, unknown> | undefined {
  if (node.kind !== 'string' && node.kind !== 'number') return undefined;
  const value = String(node.value).toLowerCase();
  const replacement = Object.prototype.hasOwnProperty.call(ESLINT_SEVERITIES, value)
    ? ESLINT_SEVERITIES[value]
    : nearestName(value, SEVERITY_SETTINGS, 2);
  return replacement ? { replacement } : undefined;
}

/** Where to show a problem: a mapping value on its key, an empty value on its key, else the node. */
function rangeNode(node: AstNode): AstNode {
  // Stryker disable next-line ConditionalExpression: a shortcut; the root is no property's value, so the next line returns it too
  if (!node.parent) return node;
  if (node.property && (node.kind === 'object' || node.start === node.end)) return node.property.keyNode;
  return node;
}

function fromPlain(raw: Record<string, any>): SubagentsConfig {
  const config = defaultConfig();
  config.files = raw.files ?? {};
  config.ignore = raw.ignore ?? [];
  for (const [dialect, list] of Object.entries(raw.tools ?? {})) {
    config.tools[dialect as Dialect] = (list as unknown[]).map((t) =>
      typeof t === 'string'
        ? { name: t, tags: [] }
        : { name: (t as ToolEntry).name, description: (t as ToolEntry).description, tags: (t as ToolEntry).tags ?? [] },
    );
  }
  config.mcp = raw.mcp ?? {};
  config.rules = raw.rules ?? {};
  config.sections = readSections(raw);
  return config;
}
