/**
 * The Polytoken body template in the editor: hover on the names its document gives (`prompt`,
 * `transclude`, the `raw` block) and completion of `prompt` inside `{{ }}` and of block tags
 * inside `{% %}`. The body is tokenized by the same tokenizer polytoken/template-syntax uses.
 */
import { CompletionItemKind, MarkupKind, type CompletionItem, type Hover } from 'vscode-languageserver-types';
import { toItems, type Candidate, type CompletionOptions } from '../../../features/kit/completion-items';
import type { FeatureFile } from '../../module';
import { TEMPLATE_BLOCK_TAGS } from '../constants';
import type { PolytokenModel } from '../model';
import type { TemplateToken } from '../template';

/** What the Polytoken document says of the names a body may use. */
const TEMPLATE_NAMES: Record<string, string> = {
  prompt:
    'The task the calling model gave in its subagent call. Polytoken renders that task as a template first, then this body with the rendered task available as `prompt`; both render once for each clone of a counted batch.',
  transclude: 'Includes a prompt fragment that ships with Polytoken, for reference text several subagents share.',
  raw: 'Everything up to `{% endraw %}` is literal text: use it for a `{{ … }}` or `{% … %}` that must reach the model as written.',
  endraw: 'Ends a `{% raw %}` block.',
};

/** The expression or statement of the body holding the offset (the model's tokens, in text order). */
function tokenAt(file: FeatureFile<PolytokenModel>, offset: number): TemplateToken | undefined {
  const tokens = file.model.template;
  let lo = 0;
  let hi = tokens.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (tokens[mid].end < offset) lo = mid + 1;
    else hi = mid;
  }
  // The first token ending at or after the offset: the cursor right after a closing delimiter still belongs to it.
  // Before the body's first token (on the closing `---`) the offset is in none. A raw block's text is literal.
  const t = tokens[lo];
  return t && (t.kind === 'expression' || t.kind === 'statement') && offset > t.start ? t : undefined;
}

export function templateHover(file: FeatureFile<PolytokenModel>, offset: number): Hover | undefined {
  const token = tokenAt(file, offset);
  if (!token) return undefined;
  let start = offset;
  let end = offset;
  while (start > token.start && /\w/.test(file.text[start - 1])) start--;
  while (end < token.end && /\w/.test(file.text[end])) end++;
  const name = file.text.slice(start, end);
  const doc = Object.prototype.hasOwnProperty.call(TEMPLATE_NAMES, name) ? TEMPLATE_NAMES[name] : undefined;
  if (!doc) return undefined;
  return {
    contents: { kind: MarkupKind.Markdown, value: `**${name}** \u2014 Polytoken template\n\n${doc}` },
    range: file.ctx.file.source.range(start, end),
  };
}

/** Completion inside a `{{ }}` or `{% %}` of the body; undefined elsewhere. */
export function templateCompletions(
  file: FeatureFile<PolytokenModel>,
  offset: number,
  options: CompletionOptions,
): CompletionItem[] | undefined {
  const token = tokenAt(file, offset);
  if (!token) return undefined;
  const before = file.text.slice(token.start, offset);
  const word = /\w*$/.exec(before)![0];
  let end = offset;
  while (end < token.end && /\w/.test(file.text[end])) end++;
  let candidates: Candidate[] = [];
  // The first word after the opening delimiter (which tells an expression from a statement).
  if (/^\{\{[-+]?\s*\w*$/.test(before)) {
    candidates = [
      {
        label: 'prompt',
        kind: CompletionItemKind.Variable,
        detail: "the caller's rendered task",
        documentation: TEMPLATE_NAMES.prompt,
      },
    ];
  } else if (/^\{%[-+]?\s*\w*$/.test(before)) {
    candidates = TEMPLATE_BLOCK_TAGS.map((tag, i) => ({
      label: tag,
      kind: CompletionItemKind.Keyword,
      documentation: TEMPLATE_NAMES[tag],
      sort: i,
    }));
  }
  return toItems(file.ctx.file.source, candidates, offset - word.length, end, options);
}
