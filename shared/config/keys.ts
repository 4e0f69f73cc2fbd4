/**
 * The configuration's keys as its JSON Schema describes them. The schema (composed from the
 * generic part and the dialect modules: schema.ts) is the one place they are written down:
 * validation, an unknown key's did-you-mean, completion and hover read it, and the editor's
 * `yamlValidation` ships it.
 */
import type { SeveritySetting } from '../basics';
import { ruleDocsUrl, ruleMeta } from '../rules/registry';
import { configSchema } from './schema';

interface SchemaNode {
  description?: string;
  type?: string;
  enum?: string[];
  properties?: Record<string, SchemaNode>;
  additionalProperties?: SchemaNode | boolean;
  items?: SchemaNode;
  anyOf?: SchemaNode[];
  $ref?: string;
}

/** The node a `$ref` points at, keeping the referring node's own description. */
function deref(node: SchemaNode | undefined): SchemaNode | undefined {
  // `$ref`s of this schema point into `definitions` and never at each other in a loop.
  const definitions = configSchema().definitions as Record<string, SchemaNode>;
  let n = node;
  for (let i = 0; n?.$ref && i < 8; i++) n = definitions[n.$ref.split('/').pop()!];
  return n && node?.description && n !== node ? { ...n, description: node.description } : n;
}

/** The mapping branch of "a name or a mapping". */
const mappingOf = (node: SchemaNode | undefined): SchemaNode | undefined =>
  node?.anyOf ? node.anyOf.map(deref).find((s) => s?.properties) : node;

/** The schema of the value at a path of keys and list indexes; undefined where the schema says nothing. */
export function configSchemaAt(path: readonly (string | number)[]): SchemaNode | undefined {
  let schema = deref(configSchema() as SchemaNode);
  for (const segment of path) {
    if (!schema) return undefined;
    if (typeof segment === 'number') schema = deref(schema.items);
    else {
      const mapping = mappingOf(schema);
      const extra = typeof mapping?.additionalProperties === 'object' ? mapping.additionalProperties : undefined;
      schema = deref(mapping?.properties?.[segment] ?? extra);
    }
  }
  return schema;
}

/** The keys the schema knows in the mapping at a path. */
export function configKeysAt(path: readonly (string | number)[]): string[] {
  return Object.keys(mappingOf(configSchemaAt(path))?.properties ?? {});
}

/** What a value at a path may be, in words. */
function configTypeLabel(schema: SchemaNode | undefined): string {
  const s = deref(schema);
  if (!s) return 'any';
  if (s.enum) return s.enum.join(' | ');
  if (s.anyOf) return s.anyOf.map(configTypeLabel).join(' or ');
  if (s.type === 'array') {
    const item = configTypeLabel(s.items);
    return item === 'string' ? 'list of strings' : item.includes(' or ') ? `list, each a ${item}` : `list of ${item}`;
  }
  if (s.type === 'object')
    return s.properties && s.additionalProperties === false
      ? `mapping (${Object.keys(s.properties).join(', ')})`
      : 'mapping';
  return s.type ?? 'any';
}

/** What each severity a rule may be set to does. */
const SEVERITY_DOCS: Record<SeveritySetting, string> = {
  off: 'Not reported at all.',
  error: 'Reported as an error: `subagents check` exits 1.',
  warning: 'Reported as a warning: counts against `--max-warnings`; `--quiet` hides it.',
  information: 'Reported as information: shown, never fails a check.',
  hint: 'Reported as a hint: shown faintly in the editor, never fails a check.',
};

export const SEVERITY_SETTINGS = Object.keys(SEVERITY_DOCS) as SeveritySetting[];

/** Said wherever a severity is chosen: the author's display setting is not the runtime's verdict. */
const DISPLAY_ONLY =
  'A severity changes how the problem is shown, not what the runtime does: a definition the runtime refuses is still reported as rejected by `resolve` and the preview.';

/**
 * Hover and completion documentation of a rule id (under `rules:`, or with another `note` in a suppression comment).
 */
export function ruleIdMarkdown(id: string, note = DISPLAY_ONLY): string | undefined {
  const meta = ruleMeta(id);
  if (!meta) return undefined;
  return [
    `**${id}** \u2014 default: ${meta.defaultSeverity}`,
    meta.summary,
    note,
    `[Rule documentation](${ruleDocsUrl(id)})`,
  ].join('\n\n');
}

/** Hover and completion documentation of a severity value (a value that is none says which are). */
export function severityMarkdown(value: string, rule?: string): string {
  const doc = Object.prototype.hasOwnProperty.call(SEVERITY_DOCS, value)
    ? SEVERITY_DOCS[value as SeveritySetting]
    : undefined;
  if (!doc)
    return `\`${value}\` is not a severity: use ${SEVERITY_SETTINGS.map((v) => `\`${v}\``).join(', ')}.\n\n${SEVERITY_SETTINGS.map((v) => `- **${v}**: ${SEVERITY_DOCS[v]}`).join('\n')}`;
  const meta = rule ? ruleMeta(rule) : undefined;
  const fallback = meta
    ? `\n\n\`${meta.id}\` is ${meta.defaultSeverity === value ? 'reported so by default' : `a${/^[aeiou]/.test(meta.defaultSeverity) ? 'n' : ''} ${meta.defaultSeverity} by default`}.`
    : '';
  return `**${value}**: ${doc}${fallback}`;
}

/** Hover and completion documentation of a key at a path (the key's own path). */
export function configKeyMarkdown(path: readonly (string | number)[]): string | undefined {
  const key = path[path.length - 1];
  if (typeof key !== 'string') return undefined;
  if (path.length === 2 && path[0] === 'rules') return ruleIdMarkdown(key);
  const schema = configSchemaAt(path);
  if (!schema) return undefined;
  const lines = [`**${key}** \u2014 ${configTypeLabel(schema)}`];
  if (path.length === 2 && path[0] === 'mcp')
    lines.push(`MCP server \`${key}\`: its tools are named \`mcp__${key}__<tool>\` in every runtime.`);
  else if (schema.description) lines.push(schema.description);
  if (path[0] === 'rules' && path.length === 1) lines.push(DISPLAY_ONLY);
  return lines.join('\n\n');
}
