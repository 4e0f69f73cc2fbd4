/** The Polytoken keys, as hover, completion and docs/keys/polytoken.md explain them (the project's own words). */
import { BOOLEAN_VALUES, listSnippet, type KeyDoc } from '../../docs/key-doc';
import type { DialectKeys } from '../module';

export const POLYTOKEN_KEYS: Record<string, KeyDoc> = {
  name: {
    key: 'name',
    type: 'string',
    presence: 'required',
    summary: 'The name the subagent is registered and called under.',
    runtime:
      'Must equal the file name without `.md`; Polytoken refuses to load the definition when the two differ. A later discovery folder holding the same name replaces this definition.',
    snippet: ' ${1:name}',
  },
  description: {
    key: 'description',
    type: 'string',
    presence: 'required',
    summary: 'One line telling the calling model what this subagent is for and when to use it.',
    snippet: ' ${1:what it does and when to use it}',
  },
  polytoken: {
    key: 'polytoken',
    type: 'mapping',
    presence: 'required',
    summary: 'The runtime settings of the subagent: model, tool grants and denials, skills, exit schema.',
    snippet: '\n${INDENT}$0',
  },
  'polytoken.model': {
    key: 'model',
    type: 'string (a model or model group)',
    summary:
      'Pins the subagent to a model. With a model group, each clone of a counted batch starts at a different candidate and fails over along the group.',
    snippet: ' ${1:model}',
  },
  'polytoken.fallback_models': {
    key: 'fallback_models',
    type: 'list of strings',
    default: '[]',
    summary: 'Models to fall back to, in order, when the pinned model is unavailable.',
    snippet: ` ${listSnippet()}`,
  },
  'polytoken.tools': {
    key: 'tools',
    type: 'list of tool names and shorthands',
    default: '[]',
    summary:
      'The tools the subagent is granted. Besides literal names it accepts the shorthands `mcp__<server>` (every tool of a server), `tag!ALL` (every tool), `tag!ALL_MCP` (every MCP tool) and `tag!<tag>` (every tool carrying a tag).',
    runtime:
      'Never list `exit_tool` (always registered) or `switch_facet` (a subagent cannot change facet): the definition is rejected.',
    snippet: ` ${listSnippet()}`,
  },
  'polytoken.tools_deny': {
    key: 'tools_deny',
    type: 'list of literal tool names',
    default: '[]',
    summary: 'Tools removed from what `tools` (and `inherit_tools`) grant.',
    runtime:
      'Literal names only: no `tag!` references and no `mcp__<server>` shorthands (write `mcp__<server>__<tool>`). Job control, `exit_tool`, `progress_update`, `tool_search`, `subagent` and `skill` cannot be denied. A tool may not be both denied and undeferred.',
    snippet: ` ${listSnippet()}`,
  },
  'polytoken.undeferred_tools': {
    key: 'undeferred_tools',
    type: 'list of literal tool names',
    default: '[]',
    summary: 'Tools whose full definitions are loaded up front instead of on demand through `tool_search`.',
    runtime:
      'Literal names only. Without `inherit_tools` or shorthands in `tools`, each entry must also be listed in `tools`. Never `switch_facet`, and never a denied tool.',
    snippet: ` ${listSnippet()}`,
  },
  'polytoken.skills_allow': {
    key: 'skills_allow',
    type: 'list of skill names',
    default: 'every skill',
    summary: 'The skills the subagent may use. The subagent\u2019s own lists decide, never the caller\u2019s.',
    runtime: 'An empty or missing list restricts nothing: every skill not in `skills_deny` stays allowed.',
    snippet: ` ${listSnippet()}`,
  },
  'polytoken.skills_deny': {
    key: 'skills_deny',
    type: 'list of skill names',
    default: '[]',
    summary: 'Skills the subagent may not use, also when `skills_allow` is empty.',
    snippet: ` ${listSnippet()}`,
  },
  'polytoken.autonomous_hint': {
    key: 'autonomous_hint',
    type: 'string',
    summary:
      'Extra context handed to the autonomous permissions classifier when it judges this subagent\u2019s actions.',
    snippet: ' ${1:hint}',
  },
  'polytoken.auto_facet_hint': {
    key: 'auto_facet_hint',
    type: 'string',
    deprecated: true,
    summary: 'The older spelling of `autonomous_hint`; still read.',
    runtime: 'Ignored when `autonomous_hint` is also set. Rename it to `autonomous_hint`.',
    snippet: ' ${1:hint}',
  },
  'polytoken.inherit_tools': {
    key: 'inherit_tools',
    type: 'boolean',
    default: 'false',
    values: BOOLEAN_VALUES,
    summary: 'Adds the calling facet\u2019s tools to this subagent\u2019s own at spawn time.',
    runtime:
      'Never inherits `switch_facet`, and never inherits skill access (skills follow the subagent\u2019s own lists).',
    snippet: ' ${1|true,false|}',
  },
  'polytoken.allow_subagent_spawn': {
    key: 'allow_subagent_spawn',
    type: 'boolean',
    default: 'false',
    values: BOOLEAN_VALUES,
    summary: 'Lets this subagent start subagents of its own.',
    snippet: ' ${1|true,false|}',
  },
  'polytoken.exit_tool_schema': {
    key: 'exit_tool_schema',
    type: 'JSON Schema (mapping)',
    default: '{ success, summary }',
    summary: 'The shape of the payload the subagent returns through `exit_tool`.',
    runtime:
      'The runtime classifies the result from a `success` boolean, else from the first of `kind`, `outcome`, `status` (lower-cased): success (`success`, `ok`, `done`, `completed`), failure (`failure`, `failed`, `error`), cancelled (`cancelled`, `canceled`, `cancel`). An enum with other values loads with a warning, and the model is forced to retry when it uses them. Declaring the schema also makes the runtime warn when the subagent ends without calling `exit_tool`.',
    snippet:
      '\n${INDENT}type: object\n${INDENT}properties:\n${INDENT}${INDENT}status:\n${INDENT}${INDENT}${INDENT}type: string\n${INDENT}${INDENT}${INDENT}enum: [${1:success}, ${2:failure}]\n${INDENT}${INDENT}summary:\n${INDENT}${INDENT}${INDENT}type: string$0',
  },
};

/** JSON Schema keywords offered inside `exit_tool_schema`. */
export const SCHEMA_KEYWORDS: Record<string, KeyDoc> = {
  type: {
    key: 'type',
    type: 'string',
    summary: 'The JSON type of the value: object, string, boolean, number, integer, array, null.',
    values: ['object', 'string', 'boolean', 'number', 'integer', 'array', 'null'],
    snippet: ' ${1|object,string,boolean,number,integer,array,null|}',
  },
  properties: {
    key: 'properties',
    type: 'mapping',
    summary: 'The fields of an object, each with its own schema.',
    snippet: '\n${INDENT}$0',
  },
  required: { key: 'required', type: 'list of strings', summary: 'The fields that must be present.', snippet: ' [$1]' },
  enum: {
    key: 'enum',
    type: 'list',
    summary:
      'The only values allowed. For `status`, `kind` or `outcome`, use the recognized families so the runtime can classify the result.',
    snippet: ' [$1]',
  },
  description: { key: 'description', type: 'string', summary: 'Tells the model what the field means.', snippet: ' $1' },
  items: { key: 'items', type: 'schema', summary: 'The schema of each element of an array.', snippet: '\n${INDENT}$0' },
  additionalProperties: {
    key: 'additionalProperties',
    type: 'boolean or schema',
    summary: 'Whether fields not listed in `properties` are allowed.',
    values: BOOLEAN_VALUES,
    snippet: ' ${1|false,true|}',
  },
};

/** Payload fields offered under `exit_tool_schema` → `properties`: the ones the runtime classifies. */
export const EXIT_PAYLOAD_FIELDS: Record<string, KeyDoc> = {
  success: {
    key: 'success',
    type: 'boolean field',
    summary: 'A `success` boolean in the payload decides the classification before any status field.',
    snippet: '\n${INDENT}type: boolean',
  },
  status: {
    key: 'status',
    type: 'string field',
    summary:
      'Classified when no `success` boolean is present (after `kind` and `outcome`); keep its enum inside the recognized families.',
    snippet: '\n${INDENT}type: string\n${INDENT}enum: [${1:success}, ${2:failure}, ${3:cancelled}]',
  },
  kind: {
    key: 'kind',
    type: 'string field',
    summary:
      'The first status field the runtime looks at when no `success` boolean is present; keep its enum inside the recognized families.',
    snippet: '\n${INDENT}type: string\n${INDENT}enum: [${1:success}, ${2:failure}]',
  },
  outcome: {
    key: 'outcome',
    type: 'string field',
    summary: 'Looked at after `kind`, before `status`; keep its enum inside the recognized families.',
    snippet: '\n${INDENT}type: string\n${INDENT}enum: [${1:success}, ${2:failure}]',
  },
  summary: {
    key: 'summary',
    type: 'string field',
    summary: 'A short account of the result for the parent (part of the default payload).',
    snippet: '\n${INDENT}type: string',
  },
};

const own = <T>(table: Record<string, T>, key: string): T | undefined =>
  Object.prototype.hasOwnProperty.call(table, key) ? table[key] : undefined;

/** True when the path lies inside `exit_tool_schema` (below the key itself). */
const inExitSchema = (path: readonly (string | number)[]) =>
  path[0] === 'polytoken' && path[1] === 'exit_tool_schema' && path.length > 2;

/**
 * The Polytoken key documentation: the table, and inside `exit_tool_schema` the JSON Schema keywords and payload
 * fields.
 */
export const polytokenKeys: DialectKeys = {
  table: POLYTOKEN_KEYS,
  docAt(path) {
    if (!inExitSchema(path)) return undefined;
    const last = path[path.length - 1];
    const parentKey = path[path.length - 2];
    if (typeof last !== 'string') return undefined;
    // Under `properties` every key is a field name, not a keyword.
    if (parentKey !== 'properties') return own(SCHEMA_KEYWORDS, last);
    return path.length === 4 ? own(EXIT_PAYLOAD_FIELDS, last) : undefined;
  },
  under(parentPath) {
    if (!inExitSchema([...parentPath, '_'])) return undefined;
    if (parentPath[parentPath.length - 1] === 'properties')
      return parentPath.length === 3 ? Object.values(EXIT_PAYLOAD_FIELDS) : [];
    return Object.values(SCHEMA_KEYWORDS);
  },
};
