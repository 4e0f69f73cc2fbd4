import type { FixRequest, Rule, RuleContext } from '../../types';
import type { ExpertModel } from './model';

export type ProfyRule = Rule<ExpertModel>;
export type ProfyContext = RuleContext<ExpertModel>;
export type ProfyFix = FixRequest<ExpertModel>;
