/**
 * Key documentation for hover and completion, for every key of every dialect.
 * Written in the project's own words from the runtimes' documents (never quoted).
 */
import type { Dialect } from '../types';
import { DOCS_BASE_URL } from '../rules/registry';

export interface KeyDoc {
  key: string;
  /** A short type description shown in hover and completion details. */
  type: string;
  default?: string;
  /** What the key does. */
  summary: string;
  /** What the runtime does with it (and what goes wrong). */
  runtime?: string;
  /** required / recommended / optional. */
  presence?: 'required' | 'recommended' | 'optional';
  /**
   * Completion body after the key, as an LSP snippet (YAML: after `key:`; JSON: after `"key": `).
   * `${INDENT}` stands for one level of indentation in YAML.
   */
  snippet?: string;
  /** Values offered for a scalar. */
  values?: readonly string[];
  deprecated?: boolean;
}

/** Where key documentation lives, next to the rule pages. */
export const KEY_DOCS_BASE_URL = DOCS_BASE_URL.replace(/\/rules$/, '/keys');

export function keyDocsUrl(dialect: Dialect, key: string): string {
  return `${KEY_DOCS_BASE_URL}/${dialect}.md#${headingAnchor(key)}`;
}

const BOOL = ['true', 'false'] as const;
const list = (placeholder = '') => `[${placeholder ? `\${1:${placeholder}}` : '$1'}]`;

const polytoken: Record<string, KeyDoc> = {
  name: {
    key: 'name', type: 'string', presence: 'required',
    summary: 'The name the subagent is registered and called under.',
    runtime: 'Must equal the file name without `.md`; Polytoken refuses to load the definition when the two differ. A later discovery folder holding the same name replaces this definition.',
    snippet: ' ${1:name}',
  },
  description: {
    key: 'description', type: 'string', presence: 'required',
    summary: 'One line telling the calling model what this subagent is for and when to use it.',
    snippet: ' ${1:what it does and when to use it}',
  },
  polytoken: {
    key: 'polytoken', type: 'mapping', presence: 'required',
    summary: 'The runtime settings of the subagent: model, tool grants and denials, skills, exit schema.',
    snippet: '\n${INDENT}$0',
  },
  'polytoken.model': {
    key: 'model', type: 'string (a model or model group)',
    summary: 'Pins the subagent to a model. With a model group, each clone of a counted batch starts at a different candidate and fails over along the group.',
    snippet: ' ${1:model}',
  },
  'polytoken.fallback_models': {
    key: 'fallback_models', type: 'list of strings', default: '[]',
    summary: 'Models to fall back to, in order, when the pinned model is unavailable.',
    snippet: ` ${list()}`,
  },
  'polytoken.tools': {
    key: 'tools', type: 'list of tool names and shorthands', default: '[]',
    summary: 'The tools the subagent is granted. Besides literal names it accepts the shorthands `mcp__<server>` (every tool of a server), `tag!ALL` (every tool), `tag!ALL_MCP` (every MCP tool) and `tag!<tag>` (every tool carrying a tag).',
    runtime: 'Never list `exit_tool` (always registered) or `switch_facet` (a subagent cannot change facet): the definition is rejected.',
    snippet: ` ${list()}`,
  },
  'polytoken.tools_deny': {
    key: 'tools_deny', type: 'list of literal tool names', default: '[]',
    summary: 'Tools removed from what `tools` (and `inherit_tools`) grant.',
    runtime: 'Literal names only: no `tag!` references and no `mcp__<server>` shorthands (write `mcp__<server>__<tool>`). Job control, `exit_tool`, `progress_update`, `tool_search`, `subagent` and `skill` cannot be denied. A tool may not be both denied and undeferred.',
    snippet: ` ${list()}`,
  },
  'polytoken.undeferred_tools': {
    key: 'undeferred_tools', type: 'list of literal tool names', default: '[]',
    summary: 'Tools whose full definitions are loaded up front instead of on demand through `tool_search`.',
    runtime: 'Literal names only. Without `inherit_tools` or shorthands in `tools`, each entry must also be listed in `tools`. Never `switch_facet`, and never a denied tool.',
    snippet: ` ${list()}`,
  },
  'polytoken.skills_allow': {
    key: 'skills_allow', type: 'list of skill names', default: 'every skill',
    summary: 'The skills the subagent may use. The subagent\u2019s own lists decide, never the caller\u2019s.',
    runtime: 'An empty or missing list restricts nothing: every skill not in `skills_deny` stays allowed.',
    snippet: ` ${list()}`,
  },
  'polytoken.skills_deny': {
    key: 'skills_deny', type: 'list of skill names', default: '[]',
    summary: 'Skills the subagent may not use, also when `skills_allow` is empty.',
    snippet: ` ${list()}`,
  },
  'polytoken.autonomous_hint': {
    key: 'autonomous_hint', type: 'string',
    summary: 'Extra context handed to the autonomous permissions classifier when it judges this subagent\u2019s actions.',
    snippet: ' ${1:hint}',
  },
  'polytoken.auto_facet_hint': {
    key: 'auto_facet_hint', type: 'string', deprecated: true,
    summary: 'The older spelling of `autonomous_hint`; still read.',
    runtime: 'Ignored when `autonomous_hint` is also set. Rename it to `autonomous_hint`.',
    snippet: ' ${1:hint}',
  },
  'polytoken.inherit_tools': {
    key: 'inherit_tools', type: 'boolean', default: 'false', values: BOOL,
    summary: 'Adds the calling facet\u2019s tools to this subagent\u2019s own at spawn time.',
    runtime: 'Never inherits `switch_facet`, and never inherits skill access (skills follow the subagent\u2019s own lists).',
    snippet: ' ${1|true,false|}',
  },
  'polytoken.allow_subagent_spawn': {
    key: 'allow_subagent_spawn', type: 'boolean', default: 'false', values: BOOL,
    summary: 'Lets this subagent start subagents of its own.',
    snippet: ' ${1|true,false|}',
  },
  'polytoken.exit_tool_schema': {
    key: 'exit_tool_schema', type: 'JSON Schema (mapping)', default: '{ success, summary }',
    summary: 'The shape of the payload the subagent returns through `exit_tool`.',
    runtime: 'The runtime classifies the result from a `success` boolean, else from the first of `kind`, `outcome`, `status` (lower-cased): success (`success`, `ok`, `done`, `completed`), failure (`failure`, `failed`, `error`), cancelled (`cancelled`, `canceled`, `cancel`). An enum with other values loads with a warning, and the model is forced to retry when it uses them. Declaring the schema also makes the runtime warn when the subagent ends without calling `exit_tool`.',
    snippet: '\n${INDENT}type: object\n${INDENT}properties:\n${INDENT}${INDENT}status:\n${INDENT}${INDENT}${INDENT}type: string\n${INDENT}${INDENT}${INDENT}enum: [${1:success}, ${2:failure}]\n${INDENT}${INDENT}summary:\n${INDENT}${INDENT}${INDENT}type: string$0',
  },
};

/** JSON Schema keywords offered inside `exit_tool_schema`. */
export const SCHEMA_KEYWORDS: Record<string, KeyDoc> = {
  type: { key: 'type', type: 'string', summary: 'The JSON type of the value: object, string, boolean, number, integer, array, null.', values: ['object', 'string', 'boolean', 'number', 'integer', 'array', 'null'], snippet: ' ${1|object,string,boolean,number,integer,array,null|}' },
  properties: { key: 'properties', type: 'mapping', summary: 'The fields of an object, each with its own schema.', snippet: '\n${INDENT}$0' },
  required: { key: 'required', type: 'list of strings', summary: 'The fields that must be present.', snippet: ' [$1]' },
  enum: { key: 'enum', type: 'list', summary: 'The only values allowed. For `status`, `kind` or `outcome`, use the recognized families so the runtime can classify the result.', snippet: ' [$1]' },
  description: { key: 'description', type: 'string', summary: 'Tells the model what the field means.', snippet: ' $1' },
  items: { key: 'items', type: 'schema', summary: 'The schema of each element of an array.', snippet: '\n${INDENT}$0' },
  additionalProperties: { key: 'additionalProperties', type: 'boolean or schema', summary: 'Whether fields not listed in `properties` are allowed.', values: BOOL, snippet: ' ${1|false,true|}' },
};

/** Payload fields offered under `exit_tool_schema` → `properties`: the ones the runtime classifies. */
export const EXIT_PAYLOAD_FIELDS: Record<string, KeyDoc> = {
  success: { key: 'success', type: 'boolean field', summary: 'A `success` boolean in the payload decides the classification before any status field.', snippet: '\n${INDENT}type: boolean' },
  status: { key: 'status', type: 'string field', summary: 'Classified when no `success` boolean is present (after `kind` and `outcome`); keep its enum inside the recognized families.', snippet: '\n${INDENT}type: string\n${INDENT}enum: [${1:success}, ${2:failure}, ${3:cancelled}]' },
  kind: { key: 'kind', type: 'string field', summary: 'The first status field the runtime looks at when no `success` boolean is present; keep its enum inside the recognized families.', snippet: '\n${INDENT}type: string\n${INDENT}enum: [${1:success}, ${2:failure}]' },
  outcome: { key: 'outcome', type: 'string field', summary: 'Looked at after `kind`, before `status`; keep its enum inside the recognized families.', snippet: '\n${INDENT}type: string\n${INDENT}enum: [${1:success}, ${2:failure}]' },
  summary: { key: 'summary', type: 'string field', summary: 'A short account of the result for the parent (part of the default payload).', snippet: '\n${INDENT}type: string' },
};

const picasso: Record<string, KeyDoc> = {
  name: {
    key: 'name', type: 'string (snake_case)', presence: 'required',
    summary: 'The role\u2019s stable identifier, in snake_case (`security_auditor`).',
    runtime: 'Should equal the file name without its extension, and `invocation` must be `@` followed by it.',
    snippet: ' ${1:name}',
  },
  invocation: {
    key: 'invocation', type: 'string (`@<name>`)', presence: 'required',
    summary: 'How the role is called in the TUI: `@` followed by the name.',
    snippet: ' "@${1:name}"',
  },
  model: { key: 'model', type: 'string', presence: 'required', summary: 'The default model route the role runs on.', snippet: ' ${1:model}' },
  tools: {
    key: 'tools', type: 'list of tool names', presence: 'required',
    summary: 'The narrowed allowlist of tools the role may use.',
    runtime: 'May not share a name with `deny`, nor list a tool the `memory` scope refuses: the role file is refused at load.',
    snippet: `\n\${INDENT}- \${1:read_file}`,
  },
  max_steps: { key: 'max_steps', type: 'integer \u2265 1', presence: 'required', summary: 'Hard cap on the number of steps of a run.', snippet: ' ${1:30}' },
  max_depth: { key: 'max_depth', type: 'integer \u2265 0', presence: 'required', summary: 'How deep this role may nest subagents (0: none).', snippet: ' ${1:0}' },
  output_schema: { key: 'output_schema', type: 'string', presence: 'recommended', summary: 'The structured result the role is expected to return.', snippet: ' ${1:schema}' },
  description: { key: 'description', type: 'string', presence: 'recommended', summary: 'A one-line description of the role.', snippet: ' ${1:description}' },
  when_to_use: { key: 'when_to_use', type: 'string', presence: 'recommended', summary: 'Guidance on when to dispatch to this role.', snippet: ' ${1:when to use it}' },
  deny: {
    key: 'deny', type: 'list of tool names', presence: 'optional', default: '[]',
    summary: 'Tools removed from the child\u2019s tool surface (`tools` stays the allowlist).',
    runtime: 'Must be disjoint from `tools`: a shared name refuses the role file at load.',
    snippet: `\n\${INDENT}- \${1:delete_file}`,
  },
  hooks: {
    key: 'hooks', type: '`none`, `all`, or `{ skip: [hook names] }`', presence: 'optional',
    summary: 'Per-role hook opt-outs: a scalar `none`/`all`, or a mapping whose `skip` lists the hooks a run of this role does not fire.',
    values: ['none', 'all', 'skip'],
    snippet: ' ${1|none,all|}',
  },
  'hooks.skip': { key: 'skip', type: 'list of hook names', summary: 'Hooks not fired for this role\u2019s runs (e.g. `post-act`).', snippet: ' [${1:post-act}]' },
  memory: {
    key: 'memory', type: '`none` | `read-only` | `session`', presence: 'optional',
    summary: 'Memory scoping, enforced through the deny list: `none` refuses `query_memory` and `write_memory`, `read-only` refuses `write_memory`, `session` gives a session-scoped namespace.',
    runtime: 'A scope that refuses a tool also listed in `tools` refuses the role file at load.',
    values: ['none', 'read-only', 'session'],
    snippet: ' ${1|none,read-only,session|}',
  },
  system_prompt: {
    key: 'system_prompt', type: 'string (usually a `|` block)', presence: 'optional',
    summary: 'The role\u2019s instructions. Picasso reads them from this key only, never from a Markdown body.',
    snippet: ' |\n${INDENT}${1:You are ...}',
  },
};

const profy: Record<string, KeyDoc> = {
  name: { key: 'name', type: 'string', summary: 'The Expert\u2019s name, as users and other Experts see it.', snippet: '"${1:name}"' },
  description: {
    key: 'description', type: 'string',
    summary: 'Written for humans: shown on the marketplace card.',
    runtime: 'Other Experts\u2019 models see it when `delegationBrief` is empty.',
    snippet: '"${1:description}"',
  },
  delegatable: {
    key: 'delegatable', type: 'boolean', default: 'true', values: BOOL,
    summary: 'Whether other Experts may delegate work to this one.',
    runtime: 'Checked when the roster is built and again when a request arrives; a refusal is a failed task result, not an HTTP error.',
    snippet: '${1|true,false|}',
  },
  delegationBrief: {
    key: 'delegationBrief', type: 'string', presence: 'recommended',
    summary: 'Written for other Experts\u2019 models: what this Expert accepts and what it produces. Decides whether others think of delegating to it.',
    snippet: '"${1:Accepts: ... Produces: ...}"',
  },
  delegationPolicy: {
    key: 'delegationPolicy', type: '`"none"`, `"all"` or a list of Expert names',
    summary: 'Which Experts this one sees in its delegation roster: none, every delegatable Expert the user can access, or a list.',
    runtime: 'A list is capped at 10; entries past the tenth are dropped. Experts the user mentions with `@` are always added.',
    values: ['"none"', '"all"', '[]'],
    snippet: '${1|"none","all",[]|}',
  },
  tools: {
    key: 'tools', type: 'list of tool names',
    summary: 'The main agent\u2019s toolset (what its enabled plugins give it). Subagent allowlists resolve against it.',
    runtime: 'Without it, `profy.mainTools` from `.subagents.yaml` is used.',
    snippet: '[$1]',
  },
  subagents: {
    key: 'subagents', type: 'list of subagent objects',
    summary: 'Sub-roles inside this Expert, each with its own prompt and tool allowlist; the main agent dispatches subtasks to them.',
    runtime: 'A broken entry is skipped silently at runtime: no error, the subagent just never exists.',
    snippet: '[\n\t{\n\t\t"name": "${1:name}",\n\t\t"description": "${2:when to dispatch here}",\n\t\t"system_prompt": "${3:instructions}",\n\t\t"tools": [$4]\n\t}\n]',
  },
  'subagents.[].name': {
    key: 'name', type: 'string (identifier-like)', presence: 'required',
    summary: 'The subagent\u2019s name; the main agent calls it by this name.',
    runtime: 'Dropped silently when empty, holding white space or `"` `<` `>` `&` `\'`, reserved, or already used by an earlier subagent or a builtin (first wins).',
    snippet: '"${1:name}"',
  },
  'subagents.[].description': {
    key: 'description', type: 'string', presence: 'required',
    summary: 'Tells the main agent when to dispatch to this subagent; vague text means it is never picked.',
    runtime: 'Dropped silently when missing or empty.',
    snippet: '"${1:when to dispatch here}"',
  },
  'subagents.[].system_prompt': {
    key: 'system_prompt', type: 'string', presence: 'required',
    summary: 'The subagent\u2019s own system prompt.',
    runtime: 'Dropped silently when missing or empty.',
    snippet: '"${1:instructions}"',
  },
  'subagents.[].tools': {
    key: 'tools', type: 'list of tool names and globs', default: '[] (no tools)',
    summary: 'The subagent\u2019s tool allowlist. `*` matches any run of characters and `?` one character; entries resolve against the main agent\u2019s toolset.',
    runtime: 'Reserved names are never granted; names that match nothing are dropped silently; a subagent left with no tool is dropped.',
    snippet: '[$1]',
  },
  'subagents.[].model': {
    key: 'model', type: 'string',
    summary: 'Pins a model for this subagent; without it the main agent\u2019s default is used.',
    snippet: '"${1:model}"',
  },
};

export const KEY_DOCS: Record<Dialect, Record<string, KeyDoc>> = { polytoken, picasso, profy };

/** `['subagents', 0, 'tools']` → `subagents.[].tools`. */
export function pathPattern(path: readonly (string | number)[]): string {
  return path.map((s) => (typeof s === 'number' ? '[]' : s)).join('.');
}

/** True when the path lies inside a Polytoken `exit_tool_schema` (below the key itself). */
export function inExitSchema(dialect: Dialect, path: readonly (string | number)[]): boolean {
  return dialect === 'polytoken' && path[0] === 'polytoken' && path[1] === 'exit_tool_schema' && path.length > 2;
}

/** The documentation of the key at this path (the key's own path, e.g. `['polytoken', 'tools']`). */
export function keyDoc(dialect: Dialect, path: readonly (string | number)[]): KeyDoc | undefined {
  const own = KEY_DOCS[dialect][pathPattern(path)];
  if (own) return own;
  if (inExitSchema(dialect, path)) {
    const last = path[path.length - 1];
    const parentKey = path[path.length - 2];
    // Under `properties` every key is a field name, not a keyword.
    if (typeof last === 'string' && parentKey !== 'properties') return SCHEMA_KEYWORDS[last];
    if (typeof last === 'string' && parentKey === 'properties' && path.length === 4) return EXIT_PAYLOAD_FIELDS[last];
  }
  return undefined;
}

/** The keys a mapping at this path may hold (the mapping's path, e.g. `['polytoken']`). */
export function keysAt(dialect: Dialect, parentPath: readonly (string | number)[]): KeyDoc[] {
  if (inExitSchema(dialect, [...parentPath, '_'])) {
    if (parentPath[parentPath.length - 1] === 'properties') return parentPath.length === 3 ? Object.values(EXIT_PAYLOAD_FIELDS) : [];
    return Object.values(SCHEMA_KEYWORDS);
  }
  const prefix = pathPattern(parentPath);
  const out: KeyDoc[] = [];
  for (const [pattern, doc] of Object.entries(KEY_DOCS[dialect])) {
    const dot = pattern.lastIndexOf('.');
    const parent = dot < 0 ? '' : pattern.slice(0, dot);
    if (parent === prefix) out.push(doc);
  }
  return out;
}

const DIALECT_TITLE: Record<Dialect, string> = { polytoken: 'Polytoken', picasso: 'Picasso', profy: 'Profy' };

export function dialectTitle(dialect: Dialect): string {
  return DIALECT_TITLE[dialect];
}

/** Markdown for hover and completion documentation. */
export function keyDocMarkdown(dialect: Dialect, path: readonly (string | number)[], doc: KeyDoc): string {
  const facts = [`**${doc.key}**${doc.deprecated ? ' (deprecated)' : ''} \u2014 ${doc.type}`];
  const meta: string[] = [];
  if (doc.presence) meta.push(doc.presence);
  if (doc.default) meta.push(`default: ${doc.default}`);
  if (meta.length) facts.push(`*${meta.join(' \u00b7 ')}*`);
  facts.push(doc.summary);
  if (doc.runtime) facts.push(`${DIALECT_TITLE[dialect]}: ${doc.runtime}`);
  const anchor = typeof path[path.length - 1] === 'string' ? pathPattern(path).replace(/\.\[\]/g, '') : doc.key;
  facts.push(`[${DIALECT_TITLE[dialect]} key reference](${keyDocsUrl(dialect, anchor)})`);
  return facts.join('\n\n');
}

/**
 * The key reference page of a dialect (`docs/keys/<dialect>.md`), generated from the same
 * documentation hover shows; every hover link points at one of its headings.
 */
export function keyReferenceMarkdown(dialect: Dialect): string {
  const out = [`# ${DIALECT_TITLE[dialect]} keys`, '', `Every key a ${DIALECT_TITLE[dialect]} definition may hold, as the editor explains it on hover.`, ''];
  for (const [pattern, doc] of Object.entries(KEY_DOCS[dialect])) {
    const heading = pattern.replace(/\.\[\]/g, '');
    out.push(`## ${heading}`, '');
    out.push(`Type: ${doc.type}${doc.presence ? ` \u00b7 ${doc.presence}` : ''}${doc.default ? ` \u00b7 default: ${doc.default}` : ''}${doc.deprecated ? ' \u00b7 deprecated' : ''}`, '');
    out.push(doc.summary, '');
    if (doc.runtime) out.push(doc.runtime, '');
    if (doc.values?.length) out.push(`Values: ${doc.values.map((v) => `\`${v}\``).join(', ')}`, '');
  }
  return out.join('\n');
}

/** The anchor GitHub gives a heading (for links into the reference page). */
export function headingAnchor(heading: string): string {
  return heading.toLowerCase().replace(/[^a-z0-9_ -]/g, '').replace(/ /g, '-');
}
