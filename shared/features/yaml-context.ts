/**
 * Line-based YAML context at a cursor: which key, value or list entry is being typed,
 * and the path of keys above it. It reads indentation and the nearest parent keys, so
 * it works on half-typed, unparsable YAML too.
 */

export type YamlCursorKind = 'key' | 'value' | 'flow-item' | 'block-item' | 'list-line';

export interface YamlCursor {
  kind: YamlCursorKind;
  /**
   * `key`: the path of the mapping that gets the key; `value`: the key's own path;
   * items and `list-line`: the path of the list's key.
   */
  path: (string | number)[];
  /** The word already typed before the cursor (quotes excluded). */
  prefix: string;
  /** Offsets of the word to replace (it may extend past the cursor). */
  replaceStart: number;
  replaceEnd: number;
  /** Keys already in the mapping (`key`), or entries already in the list (items). */
  siblings: string[];
  /** The indentation of the cursor's line (for multi-line snippets). */
  indent: string;
  /** The value is written inside quotes. */
  quoted?: '"' | "'";
}

interface Line {
  start: number;
  end: number;
  text: string;
}

const KEY = /^((?:"[^"]*"|'[^']*'|[^\s#:'"\-\[\]{},][^#:]*?|-[^\s#:][^#:]*?)):(?=\s|$)/;
const BLOCK_KEY_LINE = /^\s*(?:-\s+)?(?:"[^"]*"|'[^']*'|[\w.$-]+)\s*:(\s|$)/;

function unquote(key: string): string {
  const k = key.trim();
  return (k.startsWith('"') && k.endsWith('"')) || (k.startsWith("'") && k.endsWith("'")) ? k.slice(1, -1) : k;
}

function splitLines(text: string, start: number, end: number): Line[] {
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
function parentPath(
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
      return list ? [...list, 0] : undefined;
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
    return list ? [...list, 0, s.key!] : undefined;
  }
  const up = parentPath(lines, i, s.keyCol!, false, depth + 1);
  return up ? [...up, s.key!] : undefined;
}

/** Visits the non-blank lines above line `index` (nearest first), then those below, each way until `visit` returns false. */
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

/** Keys at the same level as line `index`, column `col` (above and below). */
function siblingKeys(lines: Line[], index: number, col: number): string[] {
  const keys: string[] = [];
  scanAround(lines, index, (s, _i, up) => {
    if (s.indent < col && !(s.dash !== undefined && s.keyCol === col && up)) {
      if (s.keyCol === col && s.key) keys.push(s.key);
      return false;
    }
    if (s.keyCol === col && s.key && s.dash === undefined) keys.push(s.key);
  });
  return keys;
}

/** Block list entries at the dash column `col` around line `index`. */
function siblingItems(lines: Line[], index: number, col: number): string[] {
  const items: string[] = [];
  scanAround(lines, index, (s, i) => {
    if (s.indent < col || (s.indent === col && s.dash === undefined)) return false;
    if (s.dash === col && s.keyCol === undefined) for (const item of itemText(lines[i].text, col)) items.push(item);
  });
  return items;
}

function wordEnd(text: string, offset: number, limit: number): number {
  let e = offset;
  while (e < limit && /[^\s,\]\[{}"'#]/.test(text[e])) e++;
  return e;
}

function flowEntries(text: string, open: number, limit: number): string[] {
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

/**
 * The context at `offset`, inside the YAML region `[regionStart, regionEnd)`;
 * undefined when the cursor is in a comment, a scalar or somewhere nothing is offered.
 */
export function yamlCursorAt(
  text: string,
  regionStart: number,
  regionEnd: number,
  offset: number,
): YamlCursor | undefined {
  if (offset < regionStart || offset > regionEnd) return undefined;
  const lines = splitLines(text, regionStart, regionEnd);
  const index = lines.findIndex((l) => offset >= l.start && offset <= l.end);
  if (index < 0) return undefined;
  const line = lines[index];
  const before = text.slice(line.start, offset);
  if (/(^|\s)#/.test(before)) return undefined;
  const indent = before.length - before.trimStart().length;
  const indentText = line.text.slice(0, line.text.length - line.text.trimStart().length);

  // A flow sequence: an unmatched `[` before the cursor, no block key in between.
  let depth = 0;
  for (let i = offset - 1; i >= regionStart; i--) {
    const ch = text[i];
    if (ch === ']' || ch === '}') depth++;
    else if (ch === '{') {
      if (depth === 0) return undefined;
      depth--;
    } else if (ch === '[') {
      if (depth > 0) {
        depth--;
        continue;
      }
      const lineStart = text.lastIndexOf('\n', i - 1) + 1;
      const between = text.slice(i + 1, offset);
      if (
        between
          .split('\n')
          .slice(1)
          .some((l) => BLOCK_KEY_LINE.test(l))
      )
        break;
      const head = text.slice(Math.max(lineStart, regionStart), i);
      const m = /^(\s*)(-\s+)?((?:"[^"]*"|'[^']*'|[^\s#:'"][^#:]*?)):\s*$/.exec(head);
      if (!m) return undefined;
      const keyCol = m[1].length + (m[2]?.length ?? 0);
      const lineIndex = lines.findIndex((l) => i >= l.start && i <= l.end);
      const parent = parentPath(lines, lineIndex, keyCol, false);
      if (!parent) return undefined;
      if (m[2]) return undefined;
      const sep = between.lastIndexOf(',');
      let wordStart = i + 1 + sep + 1;
      while (wordStart < offset && /\s/.test(text[wordStart])) wordStart++;
      let quoted: '"' | "'" | undefined;
      if (text[wordStart] === '"' || text[wordStart] === "'") {
        quoted = text[wordStart] as '"' | "'";
        wordStart++;
      }
      const prefix = text.slice(wordStart, offset);
      if (/[\s]/.test(prefix)) return undefined;
      const replaceEnd = wordEnd(text, offset, regionEnd);
      const current = text.slice(wordStart, replaceEnd);
      const entries = flowEntries(text, i, regionEnd);
      const at = entries.indexOf(current);
      if (at >= 0) entries.splice(at, 1);
      return {
        kind: 'flow-item',
        path: [...parent, unquote(m[3])],
        prefix,
        replaceStart: wordStart,
        replaceEnd,
        siblings: entries,
        indent: indentText,
        quoted,
      };
    } else if (ch === '\n' && depth === 0) {
      // Only keep scanning across lines while they could continue a flow sequence.
      const prevLineStart = text.lastIndexOf('\n', i - 1) + 1;
      const prevLine = text.slice(Math.max(prevLineStart, regionStart), i);
      if (!prevLine.includes('[') && !prevLine.includes(']') && !prevLine.trimEnd().endsWith(',')) break;
    }
  }

  // A block list entry: `- ` then the word.
  const dash = /^(\s*)-(\s+)(["']?)([^\s#"']*)$/.exec(before) ?? /^(\s*)-()()$/.exec(before);
  if (dash) {
    const col = dash[1].length;
    const parent = parentPath(lines, index, col, true);
    if (!parent || !parent.length) return undefined;
    const quoted = (dash[3] || undefined) as '"' | "'" | undefined;
    const prefix = dash[4] ?? '';
    const replaceStart = offset - prefix.length;
    const replaceEnd = wordEnd(text, offset, line.end);
    const current = text.slice(replaceStart, replaceEnd);
    const siblings = siblingItems(lines, index, col).filter((s, i, all) => s !== current || all.indexOf(s) !== i);
    return { kind: 'block-item', path: parent, prefix, replaceStart, replaceEnd, siblings, indent: indentText, quoted };
  }

  // A key being typed (or an empty line where a key goes).
  const keyTyping = /^(\s*)([\w$./-]*)$/.exec(before);
  if (keyTyping) {
    const col = indent;
    const parent = parentPath(lines, index, col, false);
    if (!parent) return undefined;
    const prefix = keyTyping[2];
    const replaceStart = offset - prefix.length;
    const m = /^[\w$./-]*/.exec(text.slice(offset, line.end));
    const replaceEnd = offset + (m ? m[0].length : 0);
    // An empty line below a block list: a new entry rather than a key.
    if (!prefix) {
      const listKind = blockListAt(lines, index, col);
      if (listKind) {
        return {
          kind: 'list-line',
          path: listKind.path,
          prefix,
          replaceStart,
          replaceEnd,
          siblings: listKind.items,
          indent: indentText,
        };
      }
    }
    const own = text.slice(replaceStart, replaceEnd);
    const siblings = siblingKeys(lines, index, col).filter((k) => k !== own);
    return { kind: 'key', path: parent, prefix, replaceStart, replaceEnd, siblings, indent: indentText };
  }

  // A value after `key: `.
  const value = /^(\s*)(-\s+)?((?:"[^"]*"|'[^']*'|[^\s#:'"\-][^#:]*?)):\s+(["']?)([^\s#"']*)$/.exec(before);
  if (value) {
    const col = value[1].length + (value[2]?.length ?? 0);
    if (value[2]) return undefined;
    const parent = parentPath(lines, index, col, false);
    if (!parent) return undefined;
    const quoted = (value[4] || undefined) as '"' | "'" | undefined;
    const prefix = value[5];
    const replaceStart = offset - prefix.length;
    const replaceEnd = wordEnd(text, offset, line.end);
    return {
      kind: 'value',
      path: [...parent, unquote(value[3])],
      prefix,
      replaceStart,
      replaceEnd,
      siblings: [],
      indent: indentText,
      quoted,
    };
  }
  return undefined;
}

/** On an empty line: when the nearest key above (less indented) opens a block list, that list. */
function blockListAt(
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

/** Where a word under the cursor lies in YAML that may not parse: a key being written, or a list entry. */
export interface YamlWord {
  kind: 'key' | 'item';
  /** A key's own path; an entry's list path. */
  path: (string | number)[];
  word: string;
  start: number;
  end: number;
}

/**
 * The key (`word:`) or list entry under the cursor, placed by indentation like `yamlCursorAt`,
 * for hover on text that does not parse. Words hold letters, digits and `$ . / ! * ? - _`.
 */
export function yamlWordAt(text: string, region: { start: number; end: number }, offset: number): YamlWord | undefined {
  let start = offset;
  let end = offset;
  while (start > region.start && /[\w$./!*?-]/.test(text[start - 1])) start--;
  while (end < region.end && /[\w$./!*?-]/.test(text[end])) end++;
  if (start === end) return undefined;
  const word = text.slice(start, end);
  if (text[end] === ':') {
    const cursor = yamlCursorAt(text, region.start, region.end, start);
    return cursor?.kind === 'key' ? { kind: 'key', path: [...cursor.path, word], word, start, end } : undefined;
  }
  const item = yamlCursorAt(text, region.start, region.end, end);
  return item && (item.kind === 'flow-item' || item.kind === 'block-item')
    ? { kind: 'item', path: item.path, word, start, end }
    : undefined;
}
