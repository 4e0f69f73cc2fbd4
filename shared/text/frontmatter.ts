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
  // Stryker disable next-line EqualityOperator: at the end the empty last line is no closing line, and the loop breaks
  while (lineStart < text.length) {
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = text.length;
    if (nextCr !== -1 && nextCr < lineStart) nextCr = text.indexOf('\r', lineStart);
    if (nextCr !== -1 && nextCr < lineEnd) lineEnd = nextCr;
    if (isClosingLine(text, lineStart, lineEnd)) {
      let bodyStart = lineEnd;
      if (text[bodyStart] === '\r') bodyStart++;
      if (text[bodyStart] === '\n') bodyStart++;
      return { kind: 'closed', yamlStart, yamlEnd: lineStart, closeStart: lineStart, bodyStart };
    }
    lineStart = lineEnd;
    if (text[lineStart] === '\r') lineStart++;
    if (text[lineStart] === '\n') lineStart++;
    if (lineStart === lineEnd) break;
  }
  return { kind: 'unclosed', openEnd: 3, yamlStart };
}

/** `---` or `...` and nothing but spaces and tabs after it. */
function isClosingLine(text: string, start: number, end: number): boolean {
  if (end - start < 3) return false;
  const c = text.charCodeAt(start);
  if ((c !== 0x2d && c !== 0x2e) || text.charCodeAt(start + 1) !== c || text.charCodeAt(start + 2) !== c) return false;
  for (let i = start + 3; i < end; i++) {
    const d = text.charCodeAt(i);
    if (d !== 0x20 && d !== 0x09) return false;
  }
  return true;
}
