/** The Picasso keys, as hover, completion and docs/keys/picasso.md explain them (the project's own words). */
import type { KeyDoc } from '../../docs/key-doc';

export const PICASSO_KEYS: Record<string, KeyDoc> = {
  name: {
    key: 'name',
    type: 'string (snake_case)',
    presence: 'required',
    summary: 'The role\u2019s stable identifier, in snake_case (`security_auditor`).',
    runtime: 'Should equal the file name without its extension, and `invocation` must be `@` followed by it.',
    snippet: ' ${1:name}',
  },
  invocation: {
    key: 'invocation',
    type: 'string (`@<name>`)',
    presence: 'required',
    summary: 'How the role is called in the TUI: `@` followed by the name.',
    snippet: ' "@${1:name}"',
  },
  model: {
    key: 'model',
    type: 'string',
    presence: 'required',
    summary: 'The default model route the role runs on.',
    snippet: ' ${1:model}',
  },
  tools: {
    key: 'tools',
    type: 'list of tool names',
    presence: 'required',
    summary: 'The narrowed allowlist of tools the role may use.',
    runtime:
      'May not share a name with `deny`, nor list a tool the `memory` scope refuses: the role file is refused at load.',
    snippet: `\n\${INDENT}- \${1:read_file}`,
  },
  max_steps: {
    key: 'max_steps',
    type: 'integer \u2265 1',
    presence: 'required',
    summary: 'Hard cap on the number of steps of a run.',
    snippet: ' ${1:30}',
  },
  max_depth: {
    key: 'max_depth',
    type: 'integer \u2265 0',
    presence: 'required',
    summary: 'How deep this role may nest subagents (0: none).',
    snippet: ' ${1:0}',
  },
  output_schema: {
    key: 'output_schema',
    type: 'string',
    presence: 'recommended',
    summary: 'The structured result the role is expected to return.',
    snippet: ' ${1:schema}',
  },
  description: {
    key: 'description',
    type: 'string',
    presence: 'recommended',
    summary: 'A one-line description of the role.',
    snippet: ' ${1:description}',
  },
  when_to_use: {
    key: 'when_to_use',
    type: 'string',
    presence: 'recommended',
    summary: 'Guidance on when to dispatch to this role.',
    snippet: ' ${1:when to use it}',
  },
  deny: {
    key: 'deny',
    type: 'list of tool names',
    presence: 'optional',
    default: '[]',
    summary: 'Tools removed from the child\u2019s tool surface (`tools` stays the allowlist).',
    runtime: 'Must be disjoint from `tools`: a shared name refuses the role file at load.',
    snippet: `\n\${INDENT}- \${1:delete_file}`,
  },
  hooks: {
    key: 'hooks',
    type: '`none`, `all`, or `{ skip: [hook names] }`',
    presence: 'optional',
    summary:
      'Per-role hook opt-outs: a scalar `none`/`all`, or a mapping whose `skip` lists the hooks a run of this role does not fire.',
    values: ['none', 'all', 'skip'],
    valueSnippets: { skip: { detail: 'skip some hooks', insert: '\n  skip: [${1:post-act}]' } },
    snippet: ' ${1|none,all|}',
  },
  'hooks.skip': {
    key: 'skip',
    type: 'list of hook names',
    summary: 'Hooks not fired for this role\u2019s runs (e.g. `post-act`).',
    snippet: ' [${1:post-act}]',
  },
  memory: {
    key: 'memory',
    type: '`none` | `read-only` | `session`',
    presence: 'optional',
    summary:
      'Memory scoping, enforced through the deny list: `none` refuses `query_memory` and `write_memory`, `read-only` refuses `write_memory`, `session` gives a session-scoped namespace.',
    runtime: 'A scope that refuses a tool also listed in `tools` refuses the role file at load.',
    values: ['none', 'read-only', 'session'],
    snippet: ' ${1|none,read-only,session|}',
  },
  system_prompt: {
    key: 'system_prompt',
    type: 'string (usually a `|` block)',
    presence: 'optional',
    summary: 'The role\u2019s instructions. Picasso reads them from this key only, never from a Markdown body.',
    snippet: ' |\n${INDENT}${1:You are ...}',
  },
};
