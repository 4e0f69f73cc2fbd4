/**
 * The rule-id vocabulary: what a rule's metadata says (`RuleMeta`), the generic rules every
 * dialect shares (`syntax/*`, `config/invalid`, `directive/*`) and where a rule's page is. Each
 * dialect writes its own rules' metadata beside its rules (`shared/dialects/<id>/rule-meta.ts`);
 * shared/rules/registry.ts lists them all.
 */
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

/** The metadata factory of one group: an id outside the group (`<group>/…` for `<group>`) does not compile. */
export function ruleFactory<const Group extends string>(group: Group) {
  return <const Id extends `${Group}/${string}`>(
    id: Id,
    defaultSeverity: SeverityName,
    summary: string,
    extra: { deprecated?: boolean } = {},
  ): RuleMeta<Id> => ({ id, group, defaultSeverity, summary, ...extra });
}

const syntax = ruleFactory('syntax');
const config = ruleFactory('config');
const directive = ruleFactory('directive');

/** The rules every dialect shares, in the order they are listed after the dialects' own. */
export const GENERIC_RULES = [
  syntax('syntax/yaml', 'error', 'The YAML does not parse.'),
  syntax('syntax/json', 'error', 'The JSON does not parse.'),
  syntax('syntax/frontmatter', 'error', 'The frontmatter block is missing or never closed.'),
  config('config/invalid', 'error', 'The `.subagents.yaml` configuration is malformed.'),
  directive('directive/unknown-rule', 'warning', 'A suppression comment names a rule id that does not exist.'),
  directive('directive/unused', 'information', 'A suppression comment silences nothing.'),
] as const;

/** A generic rule's id: a misspelled one does not compile. */
export type GenericRuleId = (typeof GENERIC_RULES)[number]['id'];

/** Where diagnostics link to. Overridable so the extension can point at its packaged docs. */
export const DOCS_BASE_URL = 'https://github.com/subagents-tooling/subagents/blob/main/docs/rules';

export function ruleDocsUrl(id: string, base = DOCS_BASE_URL): string {
  return `${base}/${id}.md`;
}
