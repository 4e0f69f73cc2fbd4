/** Picasso facts (docs/runtimes/picasso.md). */
export const REQUIRED_KEYS = ['name', 'invocation', 'model', 'tools', 'max_steps', 'max_depth'] as const;
export const RECOMMENDED_KEYS = ['output_schema', 'description', 'when_to_use'] as const;
export const OPTIONAL_KEYS = ['deny', 'hooks', 'memory', 'system_prompt'] as const;
export const ALL_KEYS = [...REQUIRED_KEYS, ...RECOMMENDED_KEYS, ...OPTIONAL_KEYS] as const;
export const MEMORY_SCOPES = ['none', 'read-only', 'session'] as const;
/** Tools each memory scope refuses. */
export const MEMORY_DENIES: Record<string, readonly string[]> = {
  none: ['query_memory', 'write_memory'],
  'read-only': ['write_memory'],
  session: [],
};
export const HOOKS_SCALARS = ['none', 'all'] as const;
export const NAME_PATTERN = /^[a-z][a-z0-9]*(_[a-z0-9]+)*$/;
