import type { PolytokenRule } from '../util';
import { templateProblems } from '../template';

/** Past this many problems in one body the rest are follow-on noise; the first ones are what to fix. */
const MAX_REPORTED = 100;

/** polytoken/template-syntax: the Markdown body is rendered as a template. */
export const templateSyntaxRule: PolytokenRule = {
  ids: ['polytoken/template-syntax'],
  check(ctx) {
    const body = ctx.file.body;
    if (!body) return [];
    const text = ctx.file.source.text.slice(body.start, body.end);
    return templateProblems(ctx.model.template, text, body.start)
      .slice(0, MAX_REPORTED)
      .map((p) => ({
        rule: 'polytoken/template-syntax',
        range: ctx.file.source.range(p.start, p.end),
        message: p.message,
      }));
  },
};
