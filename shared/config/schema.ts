/**
 * The JSON Schema of `.subagents.yaml`, composed from its generic part (`files`, `ignore`,
 * `tools`, `mcp`, `rules`) and the dialect modules: each one's `files.<id>` and `tools.<id>`
 * key, its own section and its rule-id prefix. schemas/subagents-config.schema.json is this
 * composition for the built-in modules (scripts/gen-config-schema.ts writes it, a test holds
 * it), and its validator is compiled ahead of time; with a dialect registered at run time the
 * composition differs, carries no `$id`, and ajv compiles it on first use.
 */
import { BUILTIN_DIALECT_COUNT, dialectModules, onDialectsChanged } from '../dialects';
import type { DialectModule } from '../dialects/module';
import { GENERIC_RULES } from '../rules/ids';
import { onForgetMemos } from '../memos';

export const CONFIG_SCHEMA_ID = 'https://subagents-tooling.dev/schemas/subagents-config.schema.json';

const DEFINITIONS = {
  globs: { type: 'array', items: { type: 'string', minLength: 1 } },
  names: { type: 'array', items: { type: 'string', minLength: 1 } },
  tool: {
    anyOf: [
      { type: 'string', minLength: 1 },
      {
        type: 'object',
        required: ['name'],
        additionalProperties: false,
        properties: {
          name: { type: 'string', minLength: 1, description: "The tool's name." },
          description: { type: 'string', description: 'Shown on hover and in completion.' },
          tags: { $ref: '#/definitions/names', description: 'Tags for `tag!<tag>` shorthands (Polytoken).' },
        },
      },
    ],
  },
  tools: { type: 'array', items: { $ref: '#/definitions/tool' } },
  severity: { enum: ['off', 'error', 'warning', 'information', 'hint'] },
};

/** The rule groups, in the order of the registry's rules: each dialect's id, then the generic groups. */
function ruleGroups(modules: readonly DialectModule[]): string[] {
  const groups = modules.map((m) => m.id);
  for (const r of GENERIC_RULES) if (!groups.includes(r.group)) groups.push(r.group);
  return groups;
}

/** The composed schema; `rules` is typed for the rule-id pattern the configuration reader uses. */
export type ConfigSchema = Record<string, unknown> & {
  definitions: Record<string, unknown>;
  properties: Record<string, unknown> & { rules: Record<string, unknown> & { propertyNames: { pattern: string } } };
};

/**
 * The configuration schema for these modules; `id` only for the composition the precompiled validator was made from.
 */
export function composeConfigSchema(modules: readonly DialectModule[], id?: string): ConfigSchema {
  const shown = [...modules].sort((a, b) => a.displayOrder - b.displayOrder);
  const perDialect = (value: (m: DialectModule) => object) => Object.fromEntries(shown.map((m) => [m.id, value(m)]));
  const sections = Object.fromEntries(modules.flatMap((m) => (m.section ? [[m.id, m.section.schema]] : [])));
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    ...(id ? { $id: id } : {}),
    title: 'Subagent definitions: project configuration (.subagents.yaml)',
    type: 'object',
    additionalProperties: false,
    definitions: DEFINITIONS,
    properties: {
      files: {
        description: "Extra globs per dialect, added to the default ones (relative to this file's folder).",
        type: 'object',
        additionalProperties: false,
        properties: perDialect((m) => ({
          description: `Extra globs of ${m.labels.files}, added to the default ones (relative to this file's folder).`,
          $ref: '#/definitions/globs',
        })),
      },
      ignore: { description: 'Globs of paths that are never checked.', $ref: '#/definitions/globs' },
      tools: {
        description: 'Tools each runtime knows, added to its built-in tools.',
        type: 'object',
        additionalProperties: false,
        properties: perDialect((m) => ({
          description: `Tools ${m.title} knows besides its built-in ones: a name, or a mapping with \`name\`, \`description\` and \`tags\`.`,
          $ref: '#/definitions/tools',
        })),
      },
      mcp: {
        description:
          "MCP servers and their tools, shared by every runtime. A tool's full name is mcp__<server>__<tool>.",
        type: 'object',
        additionalProperties: { $ref: '#/definitions/names' },
      },
      ...sections,
      rules: {
        description: 'Per-rule severity: off, error, warning, information or hint.',
        type: 'object',
        propertyNames: { pattern: `^(${ruleGroups(modules).join('|')})/[a-z0-9-]+$` },
        additionalProperties: { $ref: '#/definitions/severity' },
      },
    },
  };
}

let current: { schema: ConfigSchema; ruleId: RegExp } | undefined;
onDialectsChanged(() => (current = undefined));
onForgetMemos(() => (current = undefined));

function composed() {
  if (!current) {
    const modules = dialectModules();
    const schema = composeConfigSchema(
      modules,
      modules.length === BUILTIN_DIALECT_COUNT ? CONFIG_SCHEMA_ID : undefined,
    );
    current = { schema, ruleId: new RegExp(schema.properties.rules.propertyNames.pattern) };
  }
  return current;
}

/** The configuration schema of the registered modules (the shipped one while only the built-in ones are registered). */
export function configSchema(): ConfigSchema {
  return composed().schema;
}

/** What a rule id looks like: the schema's own pattern for `rules:` keys. */
export function ruleIdPattern(): RegExp {
  return composed().ruleId;
}

/** The text of schemas/subagents-config.schema.json: the composition for the built-in modules. */
export function shippedConfigSchemaText(): string {
  return `${JSON.stringify(composeConfigSchema(dialectModules().slice(0, BUILTIN_DIALECT_COUNT), CONFIG_SCHEMA_ID), null, 2)}\n`;
}
