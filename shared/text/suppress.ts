import { Parser, type CST } from 'yaml';
import type { Range } from 'vscode-languageserver-types';
import type { SourceText } from './source';

/** One `# subagents-disable…` comment. */
export interface SuppressionDirective {
  /** `line`: `subagents-disable-next-line`, for the next line; `file`: `subagents-disable`, for the whole file. */
  kind: 'line' | 'file';
  /** From the `#` to the end of the rule list. */
  range: Range;
  /** The rule ids it names, each with its range; empty when it names none (it silences every rule). */
  rules: { id: string; range: Range }[];
}

/** The suppression comments of a file (shared/rules/directives.ts `DirectiveUse` applies them). */
export interface Suppressions {
  /** Every directive, in text order. */
  directives: SuppressionDirective[];
}

const MARKER = 'subagents-disable';
const DIRECTIVE = /#\s*subagents-disable(-next-line)?(?![\w-])[ \t]*([^\r\n#]*)/;

/**
 * Finds `# subagents-disable-next-line a, b` and `# subagents-disable a` comments in the
 * given regions (the YAML parts of a file). Only real YAML comments count: the same
 * characters inside a block scalar, a quoted string or a Markdown body are content. A
 * directive without rule ids silences every rule.
 */
export function findSuppressions(source: SourceText, regions: { start: number; end: number }[]): Suppressions {
  const result: Suppressions = { directives: [] };
  const text = source.text;
  for (const region of regions) {
    const first = text.indexOf(MARKER, region.start);
    // Most files hold no directive: then nothing is parsed.
    // Stryker disable next-line ConditionalExpression,LogicalOperator: parsing anyway finds no directive
    if (first === -1 || first >= region.end) continue;
    for (const comment of yamlComments(text.slice(region.start, region.end))) {
      // Stryker disable next-line ConditionalExpression: DIRECTIVE does not match a comment without MARKER
      if (!comment.source.includes(MARKER)) continue;
      const directive = readDirective(source, region.start + comment.offset, comment.source);
      if (directive) result.directives.push(directive);
    }
  }
  return result;
}

function readDirective(source: SourceText, offset: number, comment: string): SuppressionDirective | undefined {
  const match = DIRECTIVE.exec(comment);
  if (!match) return undefined;
  const listStart = offset + match.index + match[0].length - match[2].length;
  const rules: SuppressionDirective['rules'] = [];
  let at = 0;
  for (const part of match[2].split(',')) {
    const lead = part.length - part.trimStart().length;
    const id = part.trim();
    if (id) rules.push({ id, range: source.range(listStart + at + lead, listStart + at + lead + id.length) });
    at += part.length + 1;
  }
  const end = offset + match.index + match[0].trimEnd().length;
  return { kind: match[1] ? 'line' : 'file', range: source.range(offset + match.index, end), rules };
}

/**
 * The YAML comment holding `offset` (its end included: the cursor after the last character, not
 * before its `#`), as the text of the comment and its start; undefined when the offset is not in a
 * real comment.
 */
export function yamlCommentAt(
  text: string,
  region: { start: number; end: number },
  offset: number,
): { start: number; text: string } | undefined {
  // Two shortcuts: the loop below finds no comment either way, so mutants that skip them are equivalent.
  // Stryker disable next-line LogicalOperator: a shortcut
  if (offset < region.start || offset > region.end) return undefined;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  // Most positions are not in a comment: only a line with `#` before the cursor is parsed.
  // Stryker disable next-line MethodExpression,StringLiteral: a wider slice only parses more often
  if (!text.slice(Math.max(lineStart, region.start), offset).includes('#')) return undefined;
  for (const comment of yamlComments(text.slice(region.start, region.end))) {
    const start = region.start + comment.offset;
    if (offset > start && offset <= start + comment.source.length) return { start, text: comment.source };
  }
  return undefined;
}

/** The comments the YAML parser sees in `text`, in text order (offsets into `text`). */
function yamlComments(text: string): CST.SourceToken[] {
  const comments: CST.SourceToken[] = [];
  // The CST, walked without recursion: comments sit in the `start`, `sep` and `end` token
  // lists of documents and collection items, and in the `props` of block scalars.
  // Stryker disable next-line ArrayDeclaration: a string on the stack is skipped below
  const stack: unknown[] = [];
  for (const token of new Parser().parse(text)) stack.push(token);
  while (stack.length) {
    const token = stack.pop();
    // Stryker disable next-line ConditionalExpression,LogicalOperator: a guard; this parser's CST holds only objects and arrays there
    if (!token || typeof token !== 'object') continue;
    if (Array.isArray(token)) {
      for (const t of token) stack.push(t);
      continue;
    }
    const t = token as Record<string, unknown>;
    if (t.type === 'comment') {
      comments.push(t as unknown as CST.SourceToken);
      continue;
    }
    for (const key of CHILD_KEYS) if (t[key]) stack.push(t[key]);
  }
  return comments.sort((a, b) => a.offset - b.offset);
}

const CHILD_KEYS = ['start', 'end', 'sep', 'props', 'items', 'key', 'value'] as const;
