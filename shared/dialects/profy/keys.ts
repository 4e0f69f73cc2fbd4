/** The Profy keys, as hover, completion and docs/keys/profy.md explain them (the project's own words). */
import { BOOLEAN_VALUES, type KeyDoc } from '../../docs/key-doc';

export const PROFY_KEYS: Record<string, KeyDoc> = {
  name: {
    key: 'name',
    type: 'string',
    summary: 'The Expert\u2019s name, as users and other Experts see it.',
    snippet: '"${1:name}"',
  },
  description: {
    key: 'description',
    type: 'string',
    summary: 'Written for humans: shown on the marketplace card.',
    runtime: 'Other Experts\u2019 models see it when `delegationBrief` is empty.',
    snippet: '"${1:description}"',
  },
  delegatable: {
    key: 'delegatable',
    type: 'boolean',
    default: 'true',
    values: BOOLEAN_VALUES,
    summary: 'Whether other Experts may delegate work to this one.',
    runtime:
      'Checked when the roster is built and again when a request arrives; a refusal is a failed task result, not an HTTP error.',
    snippet: '${1|true,false|}',
  },
  delegationBrief: {
    key: 'delegationBrief',
    type: 'string',
    presence: 'recommended',
    summary:
      'Written for other Experts\u2019 models: what this Expert accepts and what it produces. Decides whether others think of delegating to it.',
    snippet: '"${1:Accepts: ... Produces: ...}"',
  },
  delegationPolicy: {
    key: 'delegationPolicy',
    type: '`"none"`, `"all"` or a list of Expert names',
    summary:
      'Which Experts this one sees in its delegation roster: none, every delegatable Expert the user can access, or a list.',
    runtime:
      'A list is capped at 10; entries past the tenth are dropped. Experts the user mentions with `@` are always added.',
    values: ['"none"', '"all"', '[]'],
    snippet: '${1|"none","all",[]|}',
  },
  tools: {
    key: 'tools',
    type: 'list of tool names',
    summary:
      'The main agent\u2019s toolset (what its enabled plugins give it). Subagent allowlists resolve against it.',
    runtime: 'Without it, `profy.mainTools` from `.subagents.yaml` is used.',
    snippet: '[$1]',
  },
  subagents: {
    key: 'subagents',
    type: 'list of subagent objects',
    summary:
      'Sub-roles inside this Expert, each with its own prompt and tool allowlist; the main agent dispatches subtasks to them.',
    runtime: 'A broken entry is skipped silently at runtime: no error, the subagent just never exists.',
    snippet:
      '[\n\t{\n\t\t"name": "${1:name}",\n\t\t"description": "${2:when to dispatch here}",\n\t\t"system_prompt": "${3:instructions}",\n\t\t"tools": [$4]\n\t}\n]',
  },
  'subagents.[].name': {
    key: 'name',
    type: 'string (identifier-like)',
    presence: 'required',
    summary: 'The subagent\u2019s name; the main agent calls it by this name.',
    runtime:
      'Dropped silently when empty, holding white space or `"` `<` `>` `&` `\'`, reserved, or already used by an earlier subagent or a builtin (first wins).',
    snippet: '"${1:name}"',
  },
  'subagents.[].description': {
    key: 'description',
    type: 'string',
    presence: 'required',
    summary: 'Tells the main agent when to dispatch to this subagent; vague text means it is never picked.',
    runtime: 'Dropped silently when missing or empty.',
    snippet: '"${1:when to dispatch here}"',
  },
  'subagents.[].system_prompt': {
    key: 'system_prompt',
    type: 'string',
    presence: 'required',
    summary: 'The subagent\u2019s own system prompt.',
    runtime: 'Dropped silently when missing or empty.',
    snippet: '"${1:instructions}"',
  },
  'subagents.[].tools': {
    key: 'tools',
    type: 'list of tool names and globs',
    default: '[] (no tools)',
    summary:
      'The subagent\u2019s tool allowlist. `*` matches any run of characters and `?` one character; entries resolve against the main agent\u2019s toolset.',
    runtime:
      'Reserved names are never granted; names that match nothing are dropped silently; a subagent left with no tool is dropped.',
    snippet: '[$1]',
  },
  'subagents.[].model': {
    key: 'model',
    type: 'string',
    summary: 'Pins a model for this subagent; without it the main agent\u2019s default is used.',
    snippet: '"${1:model}"',
  },
};
