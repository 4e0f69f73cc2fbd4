/** The Polytoken rules' metadata (docs/runtimes/polytoken.md), in the order the docs describe them. */
import { ruleFactory } from '../../rules/ids';

const rule = ruleFactory('polytoken');

export const POLYTOKEN_RULES = [
  rule('polytoken/missing-name', 'error', '`name` is missing or is not a non-empty string.'),
  rule(
    'polytoken/name-mismatch',
    'error',
    '`name` differs from the file name; Polytoken refuses to load the definition.',
  ),
  rule('polytoken/invalid-value', 'error', 'A key has the wrong type or shape.'),
  rule('polytoken/unknown-key', 'warning', 'A key Polytoken does not know.'),
  rule(
    'polytoken/exit-tool-listed',
    'error',
    '`exit_tool` is listed in `tools`; it is always registered and must not be listed.',
  ),
  rule('polytoken/switch-facet', 'error', '`switch_facet` is listed in `tools` or `undeferred_tools`.'),
  rule(
    'polytoken/tag-in-literal-list',
    'error',
    'A `tag!` reference in `tools_deny` or `undeferred_tools`, which take literal names only.',
  ),
  rule(
    'polytoken/mcp-shorthand-in-deny',
    'error',
    'An `mcp__<server>` shorthand in `tools_deny`; only full tool names may be denied.',
  ),
  rule('polytoken/undeniable-tool', 'error', '`tools_deny` holds a tool that may not be denied.'),
  rule('polytoken/deny-undeferred-conflict', 'error', 'A tool is both denied and undeferred.'),
  rule('polytoken/undeferred-not-granted', 'error', 'An `undeferred_tools` entry is not granted by `tools`.'),
  rule('polytoken/invalid-exit-schema', 'error', '`exit_tool_schema` is not a valid JSON Schema.'),
  rule(
    'polytoken/unrecognized-status-enum',
    'warning',
    'A status enum value outside the success, failure and cancelled families.',
  ),
  rule(
    'polytoken/status-field-order',
    'warning',
    "An earlier status field (`kind`, `outcome`) hides a later field's enum from the runtime.",
  ),
  rule('polytoken/auto-facet-hint', 'hint', '`auto_facet_hint` is the older spelling of `autonomous_hint`.', {
    deprecated: true,
  }),
  rule('polytoken/empty-skills-allow', 'information', '`skills_allow: []` restricts nothing.'),
  rule('polytoken/unknown-tool', 'warning', 'A tool, tag or MCP server the catalog does not know.'),
  rule('polytoken/template-syntax', 'error', 'The body template is malformed.'),
  rule('polytoken/shadowed', 'information', 'A later definition with the same name replaces this one.'),
] as const;

/** A Polytoken rule id: a misspelled one does not compile. */
export type PolytokenRuleId = (typeof POLYTOKEN_RULES)[number]['id'];
