import type { Rule } from '../../../engine';

/** picasso/markdown-body: a `.md` role with Markdown after its frontmatter, which Picasso does not read. */
export const markdownBody: Rule = {
  ids: ['picasso/markdown-body'],
  check(ctx) {
    const body = ctx.file.body;
    if (!body || !ctx.path.endsWith('.md')) return [];
    const text = ctx.file.source.text;
    let i = body.start;
    while (i < body.end && /\s/.test(text[i])) i++;
    if (i >= body.end) return [];
    const line = ctx.file.source.position(i).line;
    return [
      {
        rule: 'picasso/markdown-body',
        range: ctx.file.source.lineRange(line),
        message: 'This Markdown body is not read: Picasso takes a role\'s instructions from `system_prompt` only, so the text below the frontmatter never reaches the model; move it into `system_prompt: |`.',
        data: { bodyStart: i, bodyEnd: body.end },
      },
    ];
  },
};
