import type { FixPlan } from '../../../types';
import { getProperty } from '../../../text/tree';
import { insertKeyLinesEdit, rangeOf } from '../../../fixes/edits';
import type { PicassoRule } from '../util';

/** picasso/markdown-body: a `.md` role with Markdown after its frontmatter, which Picasso does not read. */
export const markdownBody: PicassoRule = {
  ids: ['picasso/markdown-body'],
  check(ctx) {
    const body = ctx.file.body;
    // Stryker disable next-line StringLiteral: only a `.md` role is read with a body (a `.yaml` role is YAML throughout)
    if (!body || !ctx.path.endsWith('.md')) return [];
    const text = ctx.file.source.text;
    let i = body.start;
    // The body ends with the text, past which `text[i]` is no space.
    while (/\s/.test(text[i])) i++;
    if (i >= body.end) return [];
    const line = ctx.file.source.position(i).line;
    return [
      {
        rule: 'picasso/markdown-body',
        range: ctx.file.source.lineRange(line),
        message:
          "This Markdown body is not read: Picasso takes a role's instructions from `system_prompt` only, so the text below the frontmatter never reaches the model; move it into `system_prompt: |`.",
        data: { bodyStart: i, bodyEnd: body.end },
      },
    ];
  },
  fixes: {
    'picasso/markdown-body': ({ ctx }) => {
      const body = ctx.file.body;
      const root = ctx.model.root;
      if (!body || !root) return [];
      const text = ctx.file.source.text;
      const content = text
        .slice(body.start, body.end)
        .replace(/^\s*\n/, '')
        .replace(/\s+$/, '');
      const remove = { range: rangeOf(ctx, body.start, body.end), newText: '' };
      const fixes: FixPlan[] = [];
      if (content && !getProperty(root, 'system_prompt')) {
        const block = ['system_prompt: |', ...content.split(/\r?\n/).map((l) => (l.trim() ? `  ${l}` : ''))];
        const insert = insertKeyLinesEdit(ctx, root, block);
        if (insert)
          fixes.push({ title: 'Move the body into `system_prompt`', edits: [insert, remove], preferred: true });
      }
      // Deleting text the author wrote is never done by default.
      fixes.push({ title: 'Remove the Markdown body', edits: [remove] });
      return fixes;
    },
  },
};
