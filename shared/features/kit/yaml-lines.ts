/**
 * YAML read line by line, for text that may not parse: each line's shape (indentation, a
 * dash, a key), the path of keys above a line, and the keys or entries beside it. The cursor
 * (yaml-context.ts) is placed with these.
 */

export interface Line {
  start: number;
  end: number;
  text: string;
}

const KEY = /^((?:"[^"]*"|'[^']*'|[^\s#:'"\-\[\]{},][^#:]*?|-[^\s#:][^#:]*?)):(?=\s|$)/;
export const BLOCK_KEY_LINE = /^\s*(?:-\s+)?(?:"[^"]*"|'[^']*'|[\w.$-]+)\s*:(\s|$)/;

export function unquote(key: string): string {
  const k = key.trim();
  return (k.startsWith('"') && k.endsWith('"')) || (k.startsWith("'") && k.endsWith("'")) ? k.slice(1, -1) : k;
}

export function splitLines(text: string, start: number, end: number): Line[] {
  const lines: Line[] = [];
  let s = start;
  for (let i = start; i <= end; i++) {
    if (i === end || text[i] === '\n') {
      let e = i;
      if (e > s && text[e - 1] === '\r') e--;
      lines.push({ start: s, end: e, text: text.slice(s, e) });
      s = i + 1;
    }
  }
  return lines;
}

interface LineShape {
  indent: number;
  /** Column of the dash, when the line is a sequence entry. */
  dash?: number;
  /** Column and name of the key, when the line (after a dash) holds one. */
  keyCol?: number;
  key?: string;
  /** What follows the colon (comments dropped). */
  rest?: string;
  blank: boolean;
}

function shape(text: string): LineShape {
  const indent = text.length - text.trimStart().length;
  let content = text.slice(indent);
  if (!content || content.startsWith('#')) return { indent, blank: true };
  const out: LineShape = { indent, blank: false };
  let col = indent;
  const dash = /^-(\s+|$)/.exec(content);
  if (dash) {
    out.dash = indent;
    col = indent + dash[0].length;
    content = content.slice(dash[0].length);
  }
  const key = KEY.exec(content);
  if (key) {
    out.keyCol = col;
    out.key = unquote(key[1]);
    out.rest = content
      .slice(key[0].length)
      .replace(/(^|\s)#.*$/, '')
      .trim();
  }
  return out;
}

/** The path of the mapping (or, with `forDash`, the list) whose entries sit at `col` below line `index`. */
export function parentPath(
  lines: Line[],
  index: number,
  col: number,
  forDash: boolean,
  depth = 0,
): (string | number)[] | undefined {
  if (depth > 100) return undefined;
  for (let i = index - 1; i >= 0; i--) {
    const s = shape(lines[i].text);
    if (s.blank) continue;
    if (forDash) {
      if (s.dash === col && s.keyCol === undefined) continue; // a sibling entry
      if (s.indent > col) continue; // inside a sibling entry
      if (s.dash === col) continue; // a sibling entry holding a mapping
      if (s.keyCol !== undefined && s.keyCol <= col) return s.rest ? undefined : above(lines, i, s, depth);
      return undefined;
    }
    if (s.keyCol === col && s.dash !== undefined) {
      // A sibling key in the same list-entry mapping: the mapping is that entry.
      const list = parentPath(lines, i, s.dash, true, depth + 1);
      return list ? [...list, entryIndex(lines, i, s.dash)] : undefined;
    }
    if (s.indent >= col) continue; // a sibling or something deeper
    if (s.keyCol !== undefined && s.keyCol < col) return s.rest ? undefined : above(lines, i, s, depth);
    return undefined;
  }
  return forDash && col > 0 ? undefined : [];
}

/** The path of the key on line `i`. */
function above(lines: Line[], i: number, s: LineShape, depth: number): (string | number)[] | undefined {
  if (s.dash !== undefined) {
    const list = parentPath(lines, i, s.dash, true, depth + 1);
    return list ? [...list, entryIndex(lines, i, s.dash), s.key!] : undefined;
  }
  const up = parentPath(lines, i, s.keyCol!, false, depth + 1);
  return up ? [...up, s.key!] : undefined;
}

/**
 * Visits the non-blank lines above line `index` (nearest first), then those below, each way until `visit` returns
 * false.
 */
function scanAround(
  lines: Line[],
  index: number,
  visit: (s: LineShape, i: number, up: boolean) => boolean | void,
): void {
  for (const step of [-1, 1]) {
    for (let i = index + step; i >= 0 && i < lines.length; i += step) {
      const s = shape(lines[i].text);
      if (!s.blank && visit(s, i, step < 0) === false) break;
    }
  }
}

/** The position in its list of the entry whose dash, at `dashCol`, is on line `i`. */
function entryIndex(lines: Line[], i: number, dashCol: number): number {
  let entries = 0;
  for (let j = i - 1; j >= 0; j--) {
    const s = shape(lines[j].text);
    if (s.blank || s.indent > dashCol) continue;
    if (s.dash !== dashCol) break; // the key (or anything else) the list hangs from
    entries++;
  }
  return entries;
}

/** Keys at the same level as line `index`, column `col` (above and below). */
export function siblingKeys(lines: Line[], index: number, col: number): string[] {
  const keys: string[] = [];
  scanAround(lines, index, (s, _i, up) => {
    if (s.indent < col) {
      // The dash line above that opens this list entry holds its first key; the next entry's is not one of ours.
      if (up && s.dash !== undefined && s.keyCol === col && s.key) keys.push(s.key);
      return false;
    }
    if (s.keyCol === col && s.key && s.dash === undefined) keys.push(s.key);
  });
  return keys;
}

/** Block list entries at the dash column `col` around line `index`. */
export function siblingItems(lines: Line[], index: number, col: number): string[] {
  const items: string[] = [];
  scanAround(lines, index, (s, i) => {
    if (s.indent < col || (s.indent === col && s.dash === undefined)) return false;
    if (s.dash === col && s.keyCol === undefined) for (const item of itemText(lines[i].text, col)) items.push(item);
  });
  return items;
}

export function wordEnd(text: string, offset: number, limit: number): number {
  let e = offset;
  while (e < limit && /[^\s,\]\[{}"'#]/.test(text[e])) e++;
  return e;
}

export function flowEntries(text: string, open: number, limit: number): string[] {
  const entries: string[] = [];
  let depth = 0;
  let current = '';
  for (let i = open + 1; i < limit; i++) {
    const ch = text[i];
    if (ch === '[' || ch === '{') depth++;
    if ((ch === ']' || ch === '}') && depth-- === 0) break;
    if (ch === ',' && depth === 0) {
      entries.push(current);
      current = '';
    } else if (ch === '\n' || ch === '\r') current += ' ';
    else current += ch;
  }
  entries.push(current);
  return entries.map((e) => unquote(e.replace(/\s#.*$/, ''))).filter(Boolean);
}

/** On an empty line: when the nearest key above (less indented) opens a block list, that list. */
export function blockListAt(
  lines: Line[],
  index: number,
  col: number,
): { path: (string | number)[]; items: string[] } | undefined {
  for (let i = index - 1; i >= 0; i--) {
    const s = shape(lines[i].text);
    if (s.blank) continue;
    if (s.dash !== undefined && s.dash <= col && s.keyCol === undefined) {
      if (s.dash !== col) return undefined;
      const path = parentPath(lines, i, s.dash, true);
      return path && path.length
        ? { path, items: siblingItems(lines, i, s.dash).concat(itemText(lines[i].text, s.dash)) }
        : undefined;
    }
    // Anything else (`key:` with nothing below yet included): not a list entry.
    return undefined;
  }
  return undefined;
}

function itemText(line: string, col: number): string[] {
  const v = line
    .slice(col)
    .replace(/^-\s*/, '')
    .replace(/\s+#.*$/, '')
    .trim();
  return v ? [unquote(v)] : [];
}
