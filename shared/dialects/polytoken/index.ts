import type { DialectModule } from '../../engine';
import { parseMarkdownFile } from '../../text/document';
import { resolvePolytoken } from './resolve';
import { exitSchemaRule, statusEnumRule } from './rules/exit-schema';
import { grantsRule } from './rules/grants';
import { literalListsRule } from './rules/literal-lists';
import { shadowedRule } from './rules/shadowed';
import { autoFacetHintRule, emptySkillsAllowRule } from './rules/skills-and-hints';
import { invalidValueRule, nameRule, unknownKeyRule } from './rules/structure';
import { templateSyntaxRule } from './rules/template-syntax';
import { undeferredRule } from './rules/undeferred';
import { unknownToolRule } from './rules/unknown-tool';

export const polytoken: DialectModule = {
  dialect: 'polytoken',
  parse: (source) => parseMarkdownFile(source),
  rules: [
    nameRule,
    invalidValueRule,
    unknownKeyRule,
    grantsRule,
    literalListsRule,
    undeferredRule,
    exitSchemaRule,
    statusEnumRule,
    autoFacetHintRule,
    emptySkillsAllowRule,
    unknownToolRule,
    templateSyntaxRule,
    shadowedRule,
  ],
  resolve: resolvePolytoken,
};
