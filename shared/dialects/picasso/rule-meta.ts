/** The Picasso rules' metadata (docs/runtimes/picasso.md), in the order the docs describe them. */
import { ruleFactory } from '../../rules/ids';

const rule = ruleFactory('picasso');

export const PICASSO_RULES = [
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
] as const;

/** A Picasso rule id: a misspelled one does not compile. */
export type PicassoRuleId = (typeof PICASSO_RULES)[number]['id'];
