/**
 * Line-based YAML context at a cursor: which key, value or list entry is being typed,
 * and the path of keys above it. It reads indentation and the nearest parent keys, so
 * it works on half-typed, unparsable YAML too.
 */
import {
  BLOCK_KEY_LINE,
  blockListAt,
  flowEntries,
  parentPath,
  siblingItems,
  siblingKeys,
  splitLines,
  unquote,
  wordEnd,
  type Line,
} from './yaml-lines';

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

/** What the steps of `yamlCursorAt` share: the region's lines, the cursor's line and what precedes the cursor on it. */
interface At {
  text: string;
  regionStart: number;
  regionEnd: number;
  offset: number;
  lines: Line[];
  index: number;
  line: Line;
  before: string;
  /** The indentation of the cursor's line. */
  indentText: string;
}

/**
 * A step's answer: the cursor; `null` when the place is this step's but nothing is offered there; `undefined` when it
 * is not its place.
 */
type Step = YamlCursor | null | undefined;

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
  if (/(^|\s)#/.test(before)) return undefined; // in a comment
  const indentText = line.text.slice(0, line.text.length - line.text.trimStart().length);
  const at: At = { text, regionStart, regionEnd, offset, lines, index, line, before, indentText };
  for (const step of [flowItem, blockItem, keyBeingTyped, valueAfterKey]) {
    const found = step(at);
    if (found !== undefined) return found ?? undefined;
  }
  return undefined;
}

/** Inside a flow sequence: an unmatched `[` before the cursor, with no block key in between. */
function flowItem(at: At): Step {
  const { text, regionStart, offset } = at;
  let depth = 0;
  for (let i = offset - 1; i >= regionStart; i--) {
    const ch = text[i];
    if (ch === ']' || ch === '}') depth++;
    else if (ch === '{') {
      if (depth === 0) return null; // inside a flow mapping: nothing offered
      depth--;
    } else if (ch === '[') {
      if (depth > 0) {
        depth--;
        continue;
      }
      const between = text.slice(i + 1, offset);
      if (
        between
          .split('\n')
          .slice(1)
          .some((l) => BLOCK_KEY_LINE.test(l))
      )
        return undefined;
      return flowEntryAfter(at, i, between);
    } else if (ch === '\n' && depth === 0) {
      // Only keep scanning across lines while they could continue a flow sequence.
      const prevLineStart = text.lastIndexOf('\n', i - 1) + 1;
      const prevLine = text.slice(Math.max(prevLineStart, regionStart), i);
      if (!prevLine.includes('[') && !prevLine.includes(']') && !prevLine.trimEnd().endsWith(',')) return undefined;
    }
  }
  return undefined;
}

/** The entry being typed in the flow sequence opened at `open` (`key: [a, b|`). */
function flowEntryAfter(at: At, open: number, between: string): Step {
  const { text, regionStart, regionEnd, offset, lines } = at;
  const lineStart = text.lastIndexOf('\n', open - 1) + 1;
  const head = text.slice(Math.max(lineStart, regionStart), open);
  const m = /^(\s*)(-\s+)?((?:"[^"]*"|'[^']*'|[^\s#:'"][^#:]*?)):\s*$/.exec(head);
  if (!m) return null;
  const keyCol = m[1].length + (m[2]?.length ?? 0);
  const lineIndex = lines.findIndex((l) => open >= l.start && open <= l.end);
  const parent = parentPath(lines, lineIndex, keyCol, false);
  if (!parent || m[2]) return null;
  const sep = between.lastIndexOf(',');
  let wordStart = open + 1 + sep + 1;
  while (wordStart < offset && /\s/.test(text[wordStart])) wordStart++;
  let quoted: '"' | "'" | undefined;
  if (text[wordStart] === '"' || text[wordStart] === "'") {
    quoted = text[wordStart] as '"' | "'";
    wordStart++;
  }
  const prefix = text.slice(wordStart, offset);
  if (/[\s]/.test(prefix)) return null;
  const replaceEnd = wordEnd(text, offset, regionEnd);
  const current = text.slice(wordStart, replaceEnd);
  const entries = flowEntries(text, open, regionEnd);
  const found = entries.indexOf(current);
  if (found >= 0) entries.splice(found, 1);
  return {
    kind: 'flow-item',
    path: [...parent, unquote(m[3])],
    prefix,
    replaceStart: wordStart,
    replaceEnd,
    siblings: entries,
    indent: at.indentText,
    quoted,
  };
}

/** A block list entry: `- ` then the word. */
function blockItem(at: At): Step {
  const { text, offset, lines, index, line, before } = at;
  const dash = /^(\s*)-(\s+)(["']?)([^\s#"']*)$/.exec(before) ?? /^(\s*)-()()$/.exec(before);
  if (!dash) return undefined;
  const col = dash[1].length;
  const parent = parentPath(lines, index, col, true);
  if (!parent || !parent.length) return null;
  const quoted = (dash[3] || undefined) as '"' | "'" | undefined;
  const prefix = dash[4] ?? '';
  const replaceStart = offset - prefix.length;
  const replaceEnd = wordEnd(text, offset, line.end);
  const current = text.slice(replaceStart, replaceEnd);
  const siblings = siblingItems(lines, index, col).filter((s, i, all) => s !== current || all.indexOf(s) !== i);
  return {
    kind: 'block-item',
    path: parent,
    prefix,
    replaceStart,
    replaceEnd,
    siblings,
    indent: at.indentText,
    quoted,
  };
}

/** A key being typed, or an empty line where a key (or, below a block list, a new entry) goes. */
function keyBeingTyped(at: At): Step {
  const { text, offset, lines, index, line, before } = at;
  const keyTyping = /^(\s*)([\w$./-]*)$/.exec(before);
  if (!keyTyping) return undefined;
  const col = before.length - before.trimStart().length;
  const parent = parentPath(lines, index, col, false);
  if (!parent) return null;
  const prefix = keyTyping[2];
  const replaceStart = offset - prefix.length;
  const m = /^[\w$./-]*/.exec(text.slice(offset, line.end));
  const replaceEnd = offset + (m ? m[0].length : 0);
  const list = prefix ? undefined : blockListAt(lines, index, col);
  if (list) {
    const { path, items: siblings } = list;
    return { kind: 'list-line', path, prefix, replaceStart, replaceEnd, siblings, indent: at.indentText };
  }
  const own = text.slice(replaceStart, replaceEnd);
  const siblings = siblingKeys(lines, index, col).filter((k) => k !== own);
  return { kind: 'key', path: parent, prefix, replaceStart, replaceEnd, siblings, indent: at.indentText };
}

/** A value after `key: `. */
function valueAfterKey(at: At): Step {
  const { text, offset, lines, index, line, before } = at;
  const value = /^(\s*)(-\s+)?((?:"[^"]*"|'[^']*'|[^\s#:'"\-][^#:]*?)):\s+(["']?)([^\s#"']*)$/.exec(before);
  if (!value) return undefined;
  if (value[2]) return null;
  const parent = parentPath(lines, index, value[1].length, false);
  if (!parent) return null;
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
    indent: at.indentText,
    quoted,
  };
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
