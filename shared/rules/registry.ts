import type { RuleGroup, SeverityName } from '../basics';

export interface RuleMeta<Id extends string = string> {
  id: Id;
  /** The folder of its docs page: a dialect, `syntax`, `config` or `directive`. */
  group: RuleGroup;
  defaultSeverity: SeverityName;
  summary: string;
  /** The rule marks deprecated usage (DiagnosticTag.Deprecated). */
  deprecated?: boolean;
}

function rule<const Id extends `${RuleGroup}/${string}`>(
  id: Id,
  defaultSeverity: SeverityName,
  summary: string,
  extra: { deprecated?: boolean } = {},
): RuleMeta<Id> {
  return { id, group: id.split('/')[0] as RuleGroup, defaultSeverity, summary, ...extra };
}

/** Every rule, grouped by dialect in the order docs/runtimes/ describes them. */
export const RULES = [
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

  rule('profy/not-an-object', 'error', 'A `subagents` entry is not an object; it is dropped.'),
  rule(
    'profy/missing-field',
    'error',
    '`name`, `description` or `system_prompt` is missing, empty or not a string; dropped.',
  ),
  rule('profy/invalid-name', 'error', '`name` holds white space or a forbidden character; dropped.'),
  rule(
    'profy/name-not-identifier',
    'information',
    '`name` loads but is not identifier-like, as the main agent passes it as an argument.',
  ),
  rule('profy/reserved-name', 'error', '`name` is a reserved name; dropped.'),
  rule('profy/tools-not-array', 'error', '`tools` is present and not an array; dropped.'),
  rule('profy/reserved-tool', 'warning', 'An allowlist entry is a reserved name and is never granted.'),
  rule('profy/unresolved-tool', 'warning', 'An allowlist entry resolves to no tool of the main toolset.'),
  rule('profy/no-tools', 'error', 'No tool remains after resolution; dropped.'),
  rule('profy/duplicate-name', 'error', 'An earlier subagent or a builtin has the same name; dropped.'),
  rule(
    'profy/self-delegation',
    'warning',
    '`delegationPolicy` names the Expert itself; the runtime always leaves it out.',
  ),
  rule('profy/duplicate-key', 'warning', 'A JSON key given twice; the runtime keeps the last value.'),
  rule('profy/whitelist-cap', 'warning', '`delegationPolicy` lists more than 10 Experts; the rest are dropped.'),
  rule('profy/missing-delegation-brief', 'information', 'A delegatable Expert without `delegationBrief`.'),
  rule('profy/unknown-key', 'warning', 'A key Profy does not know.'),
  rule('profy/invalid-value', 'error', 'A value has the wrong type or shape.'),
  rule('profy/unknown-toolset', 'information', 'The main agent toolset is unknown; tool checks are skipped.'),

  rule('picasso/missing-required', 'error', 'A required key is missing.'),
  rule('picasso/name-format', 'error', '`name` is not snake_case.'),
  rule('picasso/name-mismatch', 'warning', '`name` differs from the file name.'),
  rule('picasso/invocation-mismatch', 'error', '`invocation` is not `@` followed by `name`.'),
  rule('picasso/tools-deny-overlap', 'error', 'A tool is both in `tools` and in `deny`; the role is refused.'),
  rule('picasso/invalid-memory', 'error', '`memory` is not `none`, `read-only` or `session`.'),
  rule('picasso/memory-conflict', 'error', 'The memory scope denies a tool that `tools` lists; the role is refused.'),
  rule('picasso/invalid-hooks', 'error', '`hooks` is not `none`, `all` or `{ skip: [...] }`.'),
  rule('picasso/invalid-value', 'error', 'A value has the wrong type or is out of range.'),
  rule('picasso/unknown-key', 'warning', 'A key Picasso does not know.'),
  rule('picasso/missing-recommended', 'information', 'A recommended key is missing.'),
  rule('picasso/markdown-body', 'information', 'A Markdown body that Picasso ignores.'),
  rule(
    'picasso/duplicate-role',
    'warning',
    'Two role files of one project declare the same `name`; which one runs is undocumented.',
  ),
  rule('picasso/unknown-tool', 'warning', 'A tool the catalog does not know.'),

  rule('syntax/yaml', 'error', 'The YAML does not parse.'),
  rule('syntax/json', 'error', 'The JSON does not parse.'),
  rule('syntax/frontmatter', 'error', 'The frontmatter block is missing or never closed.'),
  rule('config/invalid', 'error', 'The `.subagents.yaml` configuration is malformed.'),
  rule('directive/unknown-rule', 'warning', 'A suppression comment names a rule id that does not exist.'),
  rule('directive/unused', 'information', 'A suppression comment silences nothing.'),
] as const;

/** A rule id of the registry: a misspelled id does not compile. */
export type RuleId = (typeof RULES)[number]['id'];

const byId = new Map<string, RuleMeta<RuleId>>(RULES.map((r) => [r.id, r]));

export function ruleMeta(id: string): RuleMeta<RuleId> | undefined {
  return byId.get(id);
}

/** A finding's severity before any display setting: its own, else its rule's default. */
export function defaultSeverity(finding: { rule: string; severity?: SeverityName }): SeverityName {
  return finding.severity ?? ruleMeta(finding.rule)?.defaultSeverity ?? 'error';
}

export function isRuleId(id: string): id is RuleId {
  return byId.has(id);
}

/** Where diagnostics link to. Overridable so the extension can point at its packaged docs. */
export const DOCS_BASE_URL = 'https://github.com/subagents-tooling/subagents/blob/main/docs/rules';

export function ruleDocsUrl(id: string, base = DOCS_BASE_URL): string {
  return `${base}/${id}.md`;
}
