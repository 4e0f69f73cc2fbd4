import type { Finding, FixRequest, Rule, RuleContext } from '../../types';
import type { PicassoModel } from './model';
import type { PicassoRuleId } from './rule-meta';

export type PicassoRule = Rule<PicassoModel, PicassoRuleId>;
/** A finding of a Picasso rule: a misspelled rule id does not compile. */
export type PicassoFinding = Finding<PicassoRuleId>;
export type PicassoContext = RuleContext<PicassoModel>;
export type PicassoFix = FixRequest<PicassoModel>;

/** A node's kind for a message: "a mapping", "a list", "empty", "a number"... */
export function kindName(kind: string): string {
  return kind === 'object' ? 'a mapping' : kind === 'array' ? 'a list' : kind === 'null' ? 'empty' : `a ${kind}`;
}
