/** Where the YAML frontmatter of a Markdown file is, in offsets of the whole text. */
export type Frontmatter =
  | { kind: 'none' }
  | { kind: 'unclosed'; openEnd: number; yamlStart: number }
  | { kind: 'closed'; yamlStart: number; yamlEnd: number; closeStart: number; bodyStart: number };

const OPEN = /^---[ \t]*(\r\n|\n|\r|$)/;

export function findFrontmatter(text: string): Frontmatter {
  const open = OPEN.exec(text);
  if (!open) return { kind: 'none' };
  const yamlStart = open[0].length;
  // Lines end at LF, CR or CRLF; line ends are found with indexOf, CRs only when there are any.
  let nextCr = text.indexOf('\r', yamlStart);
  let lineStart = yamlStart;
  // Stryker disable next-line EqualityOperator: at the end the empty last line is no closing line
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    // Stryker disable next-line ConditionalExpression,LogicalOperator,EqualityOperator,UnaryOperator: the next CR found again is the same
    if (nextCr !== -1 && nextCr < lineStart) nextCr = text.indexOf('\r', lineStart);
    // Stryker disable next-line EqualityOperator: a CR at the line's end is its end
    if (nextCr !== -1 && nextCr < lineEnd) lineEnd = nextCr;
    const next = Math.min(lineEnd + (text.startsWith('\r\n', lineEnd) ? 2 : 1), text.length);
    if (isClosingLine(text, lineStart, lineEnd))
      return { kind: 'closed', yamlStart, yamlEnd: lineStart, closeStart: lineStart, bodyStart: next };
    lineStart = next;
  }
  return { kind: 'unclosed', openEnd: 3, yamlStart };
}

/** `---` or `...` and nothing but spaces and tabs after it (on a shorter line a line break or the end is no `-` or `.`). */
function isClosingLine(text: string, start: number, end: number): boolean {
  const c = text.charCodeAt(start);
  if ((c !== 0x2d && c !== 0x2e) || text.charCodeAt(start + 1) !== c || text.charCodeAt(start + 2) !== c) return false;
  for (let i = start + 3; i < end; i++) {
    const d = text.charCodeAt(i);
    if (d !== 0x20 && d !== 0x09) return false;
  }
  return true;
}
