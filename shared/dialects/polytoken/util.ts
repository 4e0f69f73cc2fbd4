import type { Finding, FixRequest, Rule, RuleContext } from '../../types';
import type { PolytokenModel } from './model';
import type { PolytokenRuleId } from './rule-meta';

export type PolytokenRule = Rule<PolytokenModel, PolytokenRuleId>;
/** A finding of a Polytoken rule: a misspelled rule id does not compile. */
export type PolytokenFinding = Finding<PolytokenRuleId>;
export type PolytokenContext = RuleContext<PolytokenModel>;
export type PolytokenFix = FixRequest<PolytokenModel>;

/** The model, or undefined while the frontmatter does not parse (no follow-on noise until syntax/yaml is fixed). */
export function readable(ctx: PolytokenContext): PolytokenModel | undefined {
  return ctx.model.broken ? undefined : ctx.model;
}

/** The file stem as a YAML scalar that reads back as that string (`123` and `true` need quotes). */
export function yamlString(value: string): string {
  const plain = /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(value) && !/^(true|false|null|yes|no|on|off|y|n)$/i.test(value);
  return plain ? value : JSON.stringify(value);
}

export const KIND_WORDS: Record<string, string> = {
  array: 'a list',
  string: 'a string',
  number: 'a number',
  boolean: 'a boolean',
  null: 'empty',
  unknown: 'not a plain value',
};
