/** Profy facts (docs/runtimes/profy.md). */
export const EXPERT_KEYS = [
  'name',
  'description',
  'delegatable',
  'delegationBrief',
  'delegationPolicy',
  'tools',
  'subagents',
] as const;
export const SUBAGENT_KEYS = ['name', 'description', 'system_prompt', 'tools', 'model'] as const;
export const REQUIRED_SUBAGENT_FIELDS = ['name', 'description', 'system_prompt'] as const;
/** Characters a subagent name may not hold (besides white space). */
export const FORBIDDEN_NAME_CHARS = ['"', '<', '>', '&', "'"] as const;
/** Entries of a `delegationPolicy` list past this many are dropped. */
export const DELEGATION_WHITELIST_MAX = 10;
export { PROFY_RESERVED as RESERVED_NAMES } from './builtins';
/** What the document asks of a subagent name ("identifier-like"): the main agent passes it as an argument. */
export const IDENTIFIER_LIKE = /^[A-Za-z_][A-Za-z0-9_]*$/;
