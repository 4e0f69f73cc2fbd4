import type { Rule } from '../../../engine';
import { templateProblems, tokenizeTemplate } from '../template';

/** polytoken/template-syntax: the Markdown body is rendered as a template. */
export const templateSyntaxRule: Rule = {
  ids: ['polytoken/template-syntax'],
  check(ctx) {
    const body = ctx.file.body;
    if (!body) return [];
    const text = ctx.file.source.text.slice(body.start, body.end);
    return templateProblems(tokenizeTemplate(text, body.start), text, body.start).map((p) => ({
      rule: 'polytoken/template-syntax',
      range: ctx.file.source.range(p.start, p.end),
      message: p.message,
      ...(p.tag ? { data: { tag: p.tag } } : {}),
    }));
  },
};
