/**
 * Reading a definition's `name` off its lines, without a YAML parse, when the lines are plain
 * enough to be sure: the workspace index of the server and of `subagents check` read tens of
 * thousands of files at start-up this way. Otherwise undefined: then the file is parsed. The
 * dialect modules whose names are a top-level `name:` use these readers as their quick path.
 */
import { findFrontmatter } from './frontmatter';

/** Tests turn the quick path off to compare with full parses. */
export const QUICK_NAMES = { enabled: true };

/** A name read quickly: the value and its span (quotes included) in the text without a BOM. */
export interface QuickName {
  name: string;
  start: number;
  end: number;
}

/**
 * The top-level `name` of a Markdown file's frontmatter, read off its lines (text without a BOM); undefined without a
 * closed frontmatter.
 */
export function quickFrontmatterName(text: string): QuickName | undefined {
  const fm = findFrontmatter(text);
  return fm.kind === 'closed' ? nameInRegion(text, fm.yamlStart, fm.yamlEnd) : undefined;
}

/** The top-level `name` of a YAML file, read off its lines (text without a BOM). */
export function quickYamlName(text: string): QuickName | undefined {
  return nameInRegion(text, 0, text.length);
}

const TOP_KEY_LINE = /^[A-Za-z_][\w-]*:(?:[ ]|$)/;
const NAME_LINE = /^name:[ ]+(?:([A-Za-z_][\w.-]*)|"([^"\\]+)"|'([^']+)')[ ]*(?:[ ]#.*)?$/;
const YAML_WORDS = /^(true|false|yes|no|on|off|null|y|n)$/i;

/**
 * The name of the YAML mapping in `text[start, end)`, read line by line, without a YAML
 * parse: top-level lines that are all simple `key:` lines, one of them `name:` with a plain
 * identifier or a quoted string without escapes, and no line that could open a multi-line
 * quoted or flow value. Otherwise undefined (then the file is parsed). Reading stops at the
 * line after `name:`: in a text that parses cleanly nothing later can change the name (a
 * second `name:` is a repeated key, a syntax error). For a file that parses cleanly this is
 * the parse's answer; a broken file's parse can disagree, and checkPaths corrects the index
 * after that parse (applyCorrections).
 */
function nameInRegion(text: string, start: number, end: number): QuickName | undefined {
  const region = text.slice(start, end);
  let found: QuickName | undefined;
  let afterName = false;
  let seenKey = false;
  const LINE = /[^\r\n]*(\r\n|\n|\r|$)/g;
  for (let m = LINE.exec(region); m && m[0]; m = LINE.exec(region)) {
    // A tab, or a lone CR (the yaml package does not break lines on it as this reader would): let the parser decide.
    if (m[0].includes('\t') || m[1] === '\r') return undefined;
    const line = m[0].slice(0, m[0].length - m[1].length);
    const lineStart = start + m.index;
    if (!line.trim()) continue;
    // The line after `name:` must be a new key: an indented one would continue the value.
    if (afterName) return TOP_KEY_LINE.test(line) ? found : undefined;
    if (line[0] === '#') continue;
    if (!balanced(line)) return undefined;
    if (line[0] === ' ') {
      if (!seenKey) return undefined; // indented content first: the top level may not be a mapping
      continue;
    }
    if (!TOP_KEY_LINE.test(line)) return undefined;
    seenKey = true;
    if (!line.startsWith('name:')) continue;
    const n = NAME_LINE.exec(line);
    if (!n) return undefined;
    const name = n[1] ?? n[2] ?? n[3];
    if (n[1] !== undefined && YAML_WORDS.test(name)) return undefined;
    const quoted = n[1] === undefined;
    const valueStart = lineStart + line.length - line.slice('name:'.length).trimStart().length;
    found = { name, start: valueStart, end: valueStart + name.length + (quoted ? 2 : 0) };
    afterName = true;
  }
  return found;
}

/** No quote or bracket left open on the line (so nothing can swallow the next lines). */
function balanced(line: string): boolean {
  let square = 0;
  let curly = 0;
  let double = 0;
  let single = 0;
  for (let i = 0; i < line.length; i++) {
    switch (line.charCodeAt(i)) {
      case 0x5b:
        square++;
        break; // [
      case 0x5d:
        square--;
        break; // ]
      case 0x7b:
        curly++;
        break; // {
      case 0x7d:
        curly--;
        break; // }
      case 0x22:
        // Stryker disable next-line UpdateOperator: counted down, an odd count stays odd
        double++; // an escaped quote never gets here: its backslash skips it
        break; // "
      case 0x27:
        // Stryker disable next-line UpdateOperator: counted down, an odd count stays odd
        single++;
        break; // '
      case 0x5c:
        if (line[i + 1] !== '"' && line[i + 1] !== '\\') return false;
        i++;
        break; // other escapes: let the parser decide
    }
  }
  return square === 0 && curly === 0 && double % 2 === 0 && single % 2 === 0;
}
