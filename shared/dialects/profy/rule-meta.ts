/** The Profy rules' metadata (docs/runtimes/profy.md), in the order the docs describe them. */
import { ruleFactory } from '../../rules/ids';

const rule = ruleFactory('profy');

export const PROFY_RULES = [
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
] as const;

/** A Profy rule id: a misspelled one does not compile. */
export type ProfyRuleId = (typeof PROFY_RULES)[number]['id'];
