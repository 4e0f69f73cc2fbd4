/**
 * A small tokenizer for the Jinja-style templates of Polytoken subagent bodies, and the
 * checks of polytoken/template-syntax. Editor features (grammar tests, hover) may reuse
 * `tokenizeTemplate`: it never throws and covers the whole text with tokens.
 */
import { TEMPLATE_BLOCK_TAGS } from './constants';

export type TemplateTokenKind = 'text' | 'expression' | 'statement' | 'comment' | 'raw';

export interface TemplateToken {
  kind: TemplateTokenKind;
  /** Offsets (plus `base`): the whole token, delimiters included. */
  start: number;
  end: number;
  /** False for a tag whose closing delimiter never comes (it then runs to the end). */
  closed: boolean;
  /** Statements: the tag name (`if`, `endfor`, …) and where it is. */
  name?: string;
  nameStart?: number;
  nameEnd?: number;
  /** The `{% raw %}` statement whose `{% endraw %}` never comes; the `endraw` that closes a raw block. */
  rawUnterminated?: boolean;
  rawEnd?: boolean;
}

const OPENERS: Record<string, { kind: TemplateTokenKind; close: string }> = {
  '{{': { kind: 'expression', close: '}}' },
  '{%': { kind: 'statement', close: '%}' },
  '{#': { kind: 'comment', close: '#}' },
};

const ENDRAW = /\{%[-+]?\s*endraw\s*[-+]?%\}/g;
const NAME = /^[-+]?\s*([A-Za-z_][A-Za-z0-9_]*)/;

/** Where the closing delimiter ends, skipping quoted strings in expressions and statements; -1 when never. */
function findClose(text: string, from: number, close: string, strings: boolean): number {
  if (strings) {
    let quote = '';
    for (let i = from; i < text.length; i++) {
      const c = text[i];
      if (quote) {
        if (c === '\\') i++;
        else if (c === quote) quote = '';
        continue;
      }
      if (c === '"' || c === "'") quote = c;
      else if (text.startsWith(close, i)) return i + close.length;
    }
  }
  // An unbalanced quote (an apostrophe in prose) must not hide the closing delimiter.
  const plain = text.indexOf(close, from);
  return plain === -1 ? -1 : plain + close.length;
}

export function tokenizeTemplate(text: string, base = 0): TemplateToken[] {
  const tokens: TemplateToken[] = [];
  let i = 0;
  let textStart = 0;
  const flushText = (until: number) => {
    if (until > textStart) tokens.push({ kind: 'text', start: base + textStart, end: base + until, closed: true });
  };
  for (;;) {
    const open = text.indexOf('{', i);
    if (open === -1) break;
    // A `{` at the very end reads as `{`, no opener.
    const opener = OPENERS[text.slice(open, open + 2)];
    if (!opener) {
      i = open + 1;
      continue;
    }
    flushText(open);
    const end = findClose(text, open + 2, opener.close, opener.kind !== 'comment');
    if (end === -1) {
      tokens.push({ kind: opener.kind, start: base + open, end: base + text.length, closed: false });
      textStart = i = text.length;
      break;
    }
    const token: TemplateToken = { kind: opener.kind, start: base + open, end: base + end, closed: true };
    tokens.push(token);
    i = textStart = end;
    if (opener.kind !== 'statement') continue;
    // Stryker disable next-line ArithmeticOperator: the name is matched from the tag's start; what follows `%}` cannot change it
    const m = NAME.exec(text.slice(open + 2, end - 2));
    if (!m) continue;
    token.name = m[1];
    token.nameStart = base + open + 2 + m[0].length - m[1].length;
    token.nameEnd = token.nameStart + m[1].length;
    if (token.name !== 'raw') continue;
    // Nothing inside a raw block is a tag.
    ENDRAW.lastIndex = end;
    const close = ENDRAW.exec(text);
    if (!close) {
      token.rawUnterminated = true;
      if (end < text.length) tokens.push({ kind: 'raw', start: base + end, end: base + text.length, closed: false });
      i = textStart = text.length;
      break;
    }
    if (close.index > end) tokens.push({ kind: 'raw', start: base + end, end: base + close.index, closed: true });
    const nameAt = close[0].indexOf('endraw');
    tokens.push({
      kind: 'statement',
      start: base + close.index,
      end: base + close.index + close[0].length,
      closed: true,
      name: 'endraw',
      nameStart: base + close.index + nameAt,
      nameEnd: base + close.index + nameAt + 'endraw'.length,
      rawEnd: true,
    });
    i = textStart = close.index + close[0].length;
  }
  flushText(text.length);
  return tokens;
}

export interface TemplateProblem {
  start: number;
  end: number;
  message: string;
  /** The block tag involved (the one left open, or the `end…` without its opening). */
  tag?: string;
}

const BLOCKS = new Set<string>(TEMPLATE_BLOCK_TAGS);
const DELIMS: Record<string, [string, string]> = {
  expression: ['{{', '}}'],
  statement: ['{%', '%}'],
  comment: ['{#', '#}'],
};
const FAILS = 'so Polytoken cannot render the prompt';

/** The problems polytoken/template-syntax reports; `text` is what the tokens' offsets point into. */
export function templateProblems(tokens: readonly TemplateToken[], text: string, base = 0): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const stack: TemplateToken[] = [];
  /** How many blocks of each name are open, so an orphan `end…` costs nothing to spot. */
  const open = new Map<string, number>();
  const lineEnd = (offset: number) => {
    let e = offset - base;
    while (e < text.length && text[e] !== '\n' && text[e] !== '\r') e++;
    while (e > offset - base && /\s/.test(text[e - 1])) e--;
    return e + base;
  };
  const unclosedBlock = (open: TemplateToken, reason: string) =>
    problems.push({
      start: open.start,
      end: open.end,
      tag: open.name,
      message: `\`{% ${open.name} %}\` ${reason}, ${FAILS}; add \`{% end${open.name} %}\` where the block ends.`,
    });
  for (const t of tokens) {
    // Text is always closed and has no name: only the inside of a raw block needs skipping.
    if (t.kind === 'raw') continue;
    if (!t.closed) {
      const [open, close] = DELIMS[t.kind];
      problems.push({
        start: t.start,
        // The line's end, trailing blanks left out: at least the two characters of the delimiter.
        end: lineEnd(t.start),
        message: `This \`${open}\` is never closed with \`${close}\`, ${FAILS}; close it, or wrap literal braces in \`{% raw %}…{% endraw %}\`.`,
      });
      continue;
    }
    // Only statements have a name.
    if (!t.name || t.rawEnd) continue;
    const name = t.name;
    if (name === 'raw') {
      if (t.rawUnterminated) unclosedBlock(t, 'is never closed with `{% endraw %}`');
      continue;
    }
    if (BLOCKS.has(name)) {
      stack.push(t);
      open.set(name, (open.get(name) ?? 0) + 1);
      continue;
    }
    if (name === 'elif' || name === 'else') {
      const top = stack[stack.length - 1];
      const fits = top && (top.name === 'if' || (name === 'else' && top.name === 'for'));
      if (!fits) {
        const opener = name === 'elif' ? '`{% if %}`' : '`{% if %}` or `{% for %}`';
        problems.push({
          start: t.start,
          end: t.end,
          tag: name,
          message: `\`{% ${name} %}\` is not inside an open ${opener} block, ${FAILS}; remove it or add the opening tag.`,
        });
      }
      continue;
    }
    if (name.startsWith('end') && BLOCKS.has(name.slice(3))) {
      const block = name.slice(3);
      if (!open.get(block)) {
        problems.push({
          start: t.start,
          end: t.end,
          tag: block,
          message: `\`{% ${name} %}\` closes no open \`{% ${block} %}\` block, ${FAILS}; remove it or add the opening tag.`,
        });
        continue;
      }
      // Blocks opened inside the one being closed were never closed; every popped block is visited once.
      for (let top = stack.pop(); top; top = stack.pop()) {
        open.set(top.name!, (open.get(top.name!) ?? 1) - 1);
        if (top.name === block) break;
        unclosedBlock(top, `is not closed before \`{% ${name} %}\``);
      }
    }
  }
  for (const open of stack) unclosedBlock(open, 'is never closed');
  return problems.sort((a, b) => a.start - b.start);
}
