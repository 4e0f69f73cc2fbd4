import type { Finding, FixRequest, Rule, RuleContext } from '../../types';
import type { ExpertModel } from './model';
import type { ProfyRuleId } from './rule-meta';

export type ProfyRule = Rule<ExpertModel, ProfyRuleId>;
/** A finding of a Profy rule: a misspelled rule id does not compile. */
export type ProfyFinding = Finding<ProfyRuleId>;
export type ProfyContext = RuleContext<ExpertModel>;
export type ProfyFix = FixRequest<ExpertModel>;
