/** Polytoken facts (docs/runtimes/polytoken.md). */
export const TOP_LEVEL_KEYS = ['name', 'description', 'polytoken'] as const;

export const POLYTOKEN_KEYS = [
  'model',
  'fallback_models',
  'tools',
  'tools_deny',
  'undeferred_tools',
  'skills_allow',
  'skills_deny',
  'autonomous_hint',
  'auto_facet_hint',
  'inherit_tools',
  'allow_subagent_spawn',
  'exit_tool_schema',
] as const;

/** Exit payload fields the runtime classifies, in the order it looks at them. */
export const STATUS_FIELDS = ['kind', 'outcome', 'status'] as const;

/**
 * The enum of a field the runtime classifies: `polytoken.exit_tool_schema.properties.<field>.enum`, the payload's own
 * field only (a nested object's `status` decides nothing), where polytoken/unrecognized-status-enum looks too.
 */
export function isStatusEnumPath(path: readonly (string | number)[]): boolean {
  return (
    path.length === 5 &&
    path[0] === 'polytoken' &&
    path[1] === 'exit_tool_schema' &&
    path[2] === 'properties' &&
    (STATUS_FIELDS as readonly unknown[]).includes(path[3]) &&
    path[4] === 'enum'
  );
}

export const STATUS_FAMILIES: Record<'success' | 'failure' | 'cancelled', readonly string[]> = {
  success: ['success', 'ok', 'done', 'completed'],
  failure: ['failure', 'failed', 'error'],
  cancelled: ['cancelled', 'canceled', 'cancel'],
};

/** The family of a status value (compared lower-cased), or undefined when unrecognized. */
export function statusFamily(value: string): keyof typeof STATUS_FAMILIES | undefined {
  const v = value.toLowerCase();
  return (Object.keys(STATUS_FAMILIES) as (keyof typeof STATUS_FAMILIES)[]).find((f) => STATUS_FAMILIES[f].includes(v));
}

export const SHORTHAND_ALL = 'tag!ALL';
export const SHORTHAND_ALL_MCP = 'tag!ALL_MCP';
/** Template block tags that need an `end…`. */
export const TEMPLATE_BLOCK_TAGS = ['if', 'for', 'raw', 'macro', 'block', 'with', 'call', 'filter'] as const;
