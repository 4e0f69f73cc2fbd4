/** Where the YAML frontmatter of a Markdown file is, in offsets of the whole text. */
export type Frontmatter =
  | { kind: 'none' }
  | { kind: 'unclosed'; openEnd: number; yamlStart: number }
  | { kind: 'closed'; yamlStart: number; yamlEnd: number; closeStart: number; bodyStart: number };

const OPEN = /^---[ \t]*(\r\n|\n|\r|$)/;
const CLOSE = /^(---|\.\.\.)[ \t]*$/;

export function findFrontmatter(text: string): Frontmatter {
  const open = OPEN.exec(text);
  if (!open) return { kind: 'none' };
  const yamlStart = open[0].length;
  let lineStart = yamlStart;
  while (lineStart < text.length) {
    let lineEnd = lineStart;
    while (lineEnd < text.length && text[lineEnd] !== '\n' && text[lineEnd] !== '\r') lineEnd++;
    if (CLOSE.test(text.slice(lineStart, lineEnd))) {
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
