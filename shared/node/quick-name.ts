import { findFrontmatter } from '../text/frontmatter';

/** Tests turn the quick path off to compare with full parses. */
export const QUICK_NAMES = { enabled: true };

const TOP_KEY_LINE = /^[A-Za-z_][\w-]*:(?:[ ]|$)/;
const NAME_LINE = /^name:[ ]+(?:([A-Za-z_][\w.-]*)|"([^"\\]+)"|'([^']+)')[ ]*(?:[ ]#.*)?$/;
const YAML_WORDS = /^(true|false|yes|no|on|off|null|y|n)$/i;

/**
 * The `name` of a Polytoken definition read off its frontmatter's lines, without a YAML
 * parse: a closed frontmatter whose top-level lines are all simple `key:` lines, one of
 * them `name:` with a plain identifier or a quoted string without escapes, and no line
 * that could open a multi-line quoted or flow value. Otherwise undefined (then the file is
 * parsed). For a file that parses cleanly this is polytokenName's answer; a broken file's
 * parse can disagree, and checkPaths corrects the index after that parse (applyCorrections).
 */
export function quickPolytokenName(raw: string): string | undefined {
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const fm = findFrontmatter(text);
  if (fm.kind !== 'closed') return undefined;
  const region = text.slice(fm.yamlStart, fm.yamlEnd);
  if (region.includes('\t')) return undefined;
  let name: string | undefined;
  let afterName = false;
  let seenKey = false;
  for (const line of region.split(/\r\n|\n|\r/)) {
    if (!line.trim()) continue;
    // The line after `name:` must be a new key: an indented one would continue the value.
    if (afterName && !TOP_KEY_LINE.test(line)) return undefined;
    afterName = false;
    if (line[0] === '#') continue;
    if (!balanced(line)) return undefined;
    if (line[0] === ' ') {
      if (!seenKey) return undefined; // indented content first: the top level may not be a mapping
      continue;
    }
    if (!TOP_KEY_LINE.test(line)) return undefined;
    seenKey = true;
    if (!line.startsWith('name:')) continue;
    const m = NAME_LINE.exec(line);
    if (!m || name !== undefined) return undefined;
    name = m[1] ?? m[2] ?? m[3];
    if (m[1] !== undefined && YAML_WORDS.test(name)) return undefined;
    afterName = true;
  }
  return name;
}

/** No quote or bracket left open on the line (so nothing can swallow the next lines). */
function balanced(line: string): boolean {
  let square = 0;
  let curly = 0;
  let double = 0;
  let single = 0;
  for (let i = 0; i < line.length; i++) {
    switch (line.charCodeAt(i)) {
      case 0x5b: square++; break; // [
      case 0x5d: square--; break; // ]
      case 0x7b: curly++; break; // {
      case 0x7d: curly--; break; // }
      case 0x22: if (line[i - 1] !== '\\') double++; break; // "
      case 0x27: single++; break; // '
      case 0x5c: if (line[i + 1] !== '"' && line[i + 1] !== '\\') return false; i++; break; // other escapes: let the parser decide
    }
  }
  return square === 0 && curly === 0 && double % 2 === 0 && single % 2 === 0;
}
