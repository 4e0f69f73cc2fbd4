/**
 * A one-pass reader for the plain YAML most definitions are written in: block mappings and
 * sequences, one-line flow collections, plain and simple quoted scalars, and `|`/`|-` block
 * scalars, straight from the text to the neutral tree. It answers only when it is sure to
 * give exactly what the yaml package gives (the same tree, values and ranges, and no error);
 * on anything else (anchors, aliases, tags, merge keys, escapes, multi-line plain or quoted
 * scalars, folded scalars, tabs, CR, document markers, a comment where the
 * package's ranges depend on it, ...) it returns undefined and the caller uses the yaml
 * package. test/yaml-fast.test.ts holds it to the package on the YAML test suite, every
 * fixture and generated texts.
 */
import type { AstNode, AstProperty } from './tree';
import {
  BAIL,
  bail,
  COLON,
  DASH,
  HASH,
  kindOf,
  LineReader,
  MAX_NESTING,
  NEWLINE,
  plainStart,
  plainValue,
  SPACE,
  UNSAFE,
} from './yaml-fast-line';

/**
 * The tree of `text` (offsets shifted by `base`) and where its repeated keys start, or
 * undefined when the yaml package must read it.
 */
export function parseYamlFast(
  text: string,
  base = 0,
): { root: AstNode | undefined; duplicateKeys: number[] } | undefined {
  if (UNSAFE.test(text)) return undefined;
  try {
    const reader = new FastYamlReader(text, base);
    return { root: reader.document(), duplicateKeys: reader.duplicateKeys };
  } catch (e) {
    if (e === BAIL) return undefined;
    throw e;
  }
}

/**
 * The end of a node as the package's collections see it (its `range[2]`); -1 when a trailing comment makes it unsure.
 */
const UNSURE = -1;

class FastYamlReader extends LineReader {
  /** Start of the current content line (or n at the end). */
  private pos = 0;
  /** Indentation of the current content line. */
  private indent = 0;
  /** Whether the last skip passed a comment line that the value before it does not take in. */
  private sawComment = false;
  /** End of the comment lines a flow value before the skip takes in (-1: none). */
  private runEnd = -1;
  /** `range[2]` of the node read last. */
  private end2 = 0;

  document(): AstNode | undefined {
    this.skip(0);
    if (this.pos >= this.n) return undefined;
    if (this.indent !== 0) bail();
    const root = this.isSeqItem(this.pos) ? this.blockSeq(0, undefined, false) : this.blockMap(0, this.pos, undefined);
    if (this.pos < this.n) bail();
    return root;
  }

  /**
   * From the line start `p`, passes blank and comment lines; sets pos and indent to the next
   * content line. The package gives a flow value (a scalar or flow collection written on its
   * line) the comment lines right after it that are more indented than `deeperThan`, its
   * collection's column: their end is runEnd; later comments set sawComment.
   */
  private skip(p: number, deeperThan = Infinity): void {
    const { text, n } = this;
    this.sawComment = false;
    this.runEnd = -1;
    let run = true;
    while (p < n) {
      let i = p;
      while (i < n && text.charCodeAt(i) === SPACE) i++;
      const c = i < n ? text.charCodeAt(i) : NEWLINE;
      if (c === NEWLINE) {
        p = i + 1;
        continue;
      }
      if (c === HASH) {
        const column = i - p;
        p = this.nextLine(i);
        if (run && column > deeperThan) this.runEnd = p;
        else {
          run = false;
          this.sawComment = true;
        }
        continue;
      }
      this.pos = p;
      this.indent = i - p;
      // Document markers and directives start a new document: the package's business.
      if (i === p && (c === 0x25 || this.isMarker(p))) bail();
      return;
    }
    this.pos = n;
    this.indent = -1;
  }

  private isMarker(p: number): boolean {
    const { text } = this;
    const c = text.charCodeAt(p);
    if ((c !== DASH && c !== 0x2e) || text.charCodeAt(p + 1) !== c || text.charCodeAt(p + 2) !== c) return false;
    const after = p + 3 < this.n ? text.charCodeAt(p + 3) : NEWLINE;
    return after === SPACE || after === NEWLINE;
  }

  /** `-` followed by a space or the end of the line, at offset `d`. */
  private isSeqItem(d: number): boolean {
    if (this.text.charCodeAt(d) !== DASH) return false;
    const c = d + 1 < this.n ? this.text.charCodeAt(d + 1) : NEWLINE;
    return c === SPACE || c === NEWLINE;
  }

  private enter(): void {
    if (++this.depth > MAX_NESTING) bail();
  }

  /** A block mapping whose first key starts at `k`, its keys in column `indent`. */
  private blockMap(indent: number, k: number, parent: AstNode | undefined): AstNode {
    this.enter();
    const node: AstNode = { kind: 'object', start: this.base + k, end: 0, parent, properties: [], flow: false };
    let keys: Set<string> | undefined;
    for (;;) {
      keys = this.addProperty(node, this.pair(node, indent, k), keys);
      if (this.pos >= this.n || this.indent < indent) break;
      if (this.indent > indent) bail();
      k = this.pos + indent;
    }
    this.finish(node);
    return node;
  }

  /**
   * A collection's end is its last value's `range[2]`; its own `range[2]` takes in the comments after it, unknown here.
   */
  private finish(node: AstNode): void {
    if (this.end2 === UNSURE) bail();
    node.end = this.base + this.end2;
    if (this.sawComment) this.end2 = UNSURE;
    this.depth--;
  }

  /** One `key: value` of a block mapping, the key at `k`. Leaves pos at the next content line. */
  private pair(map: AstNode, indent: number, k: number): AstProperty {
    const key = this.implicitKey(k);
    if (!key) bail();
    const keyNode: AstNode = {
      kind: 'string',
      value: key.value,
      start: this.base + k,
      end: this.base + key.end,
      parent: map,
    };
    const value = this.valueAfter(key.colon + 1, indent, map, true);
    const property: AstProperty = { key: key.value, keyNode, value, parent: map };
    keyNode.keyOf = property;
    value.property = property;
    return property;
  }

  /**
   * The value after an indicator (`:` of a block key, `-` of an item) ending at `v`: on the
   * same line, or the block collection on the lines below, or null. `inMap`: a sequence in
   * the mapping's own column is its value.
   */
  private valueAfter(v: number, indent: number, parent: AstNode, inMap: boolean): AstNode {
    const { text } = this;
    while (v < this.n && text.charCodeAt(v) === SPACE) v++;
    const c = v < this.n ? text.charCodeAt(v) : NEWLINE;
    // A comment after the indicator: the value, if any, is on the lines below.
    const commented = c === HASH;
    if (c !== NEWLINE && !commented) {
      if (!inMap && c === DASH && this.isSeqItem(v)) bail();
      const key = inMap ? undefined : this.implicitKey(v);
      if (key) return this.blockMap(v - this.lineStart(v), v, parent);
      const node = this.inlineValue(v, indent, parent);
      // A block scalar's end is its last line: it takes in no comment.
      this.skip(this.pos, c === 0x7c ? Infinity : indent);
      if (this.runEnd !== -1) this.end2 = this.runEnd;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: at the end skip leaves indent at -1, deeper than no block
      if (this.pos < this.n && this.indent > indent) bail();
      return node;
    }
    this.skip(this.nextLine(v));
    if (this.pos < this.n) {
      const d = this.pos + this.indent;
      if (this.indent > indent)
        return this.isSeqItem(d) ? this.blockSeq(this.indent, parent, false) : this.blockMap(this.indent, d, parent);
      if (inMap && this.indent === indent && this.isSeqItem(d)) return this.blockSeq(indent, parent, true);
    }
    // An empty value: a null at the indicator's end (past its spaces), unless comments make its end unsure.
    if (commented || this.sawComment) bail();
    this.end2 = v;
    return { kind: 'null', value: null, start: this.base + v, end: this.base + v, parent };
  }

  private lineStart(i: number): number {
    return this.text.lastIndexOf('\n', i - 1) + 1;
  }

  /**
   * A block sequence in column `indent`, its first `-` on the current line. `inMap`: a mapping's value in its own
   * column.
   */
  private blockSeq(indent: number, parent: AstNode | undefined, inMap: boolean): AstNode {
    this.enter();
    const d0 = this.pos + indent;
    const node: AstNode = { kind: 'array', start: this.base + d0, end: 0, parent, items: [], flow: false };
    for (;;) {
      const d = this.pos + indent;
      // Comments before an empty item's `-` are its own: the package ends it after them.
      const commentsBefore = this.sawComment || this.runEnd !== -1;
      const item = this.valueAfter(d + 1, indent, node, false);
      if (commentsBefore && item.kind === 'null' && item.start === item.end) this.end2 = UNSURE;
      node.items!.push(item);
      if (this.pos >= this.n || this.indent < indent) break;
      if (this.indent > indent) bail();
      if (!this.isSeqItem(this.pos + indent)) {
        if (inMap) break;
        bail();
      }
    }
    this.finish(node);
    return node;
  }

  /** A scalar or flow collection written on the line of its key or `-`; leaves pos at the next line. */
  private inlineValue(v: number, indent: number, parent: AstNode): AstNode {
    const { text } = this;
    const c = text.charCodeAt(v);
    let node: AstNode;
    let after: number;
    if (c === 0x7c) return this.literal(v, indent, parent);
    if (c === 0x22 || c === 0x27) {
      const q = this.quoted(v);
      if (!q) bail();
      node = { kind: 'string', value: q.value, start: this.base + v, end: this.base + q.end, parent };
      after = q.end;
    } else if (c === 0x5b || c === 0x7b) {
      this.depth++;
      node = this.flow(v, parent);
      this.depth--;
      after = this.flowEnd;
    } else {
      if (!plainStart(text, v, this.n)) bail();
      let e = v;
      for (; e < this.n; e++) {
        const ch = text.charCodeAt(e);
        if (ch === NEWLINE || (ch === HASH && text.charCodeAt(e - 1) === SPACE)) break;
        // `: ` or a final `:` inside: a nested mapping on one line, which the package rejects.
        if (ch === COLON) {
          const next = e + 1 < this.n ? text.charCodeAt(e + 1) : NEWLINE;
          if (next === SPACE || next === NEWLINE) bail();
        }
      }
      while (text.charCodeAt(e - 1) === SPACE) e--;
      const raw = text.slice(v, e);
      const value = plainValue(raw);
      node = { kind: kindOf(value), value, start: this.base + v, end: this.base + e, parent };
      after = e;
    }
    this.endOfLine(after);
    return node;
  }

  /** After a value: spaces, a comment after a space, then the end of the line. Sets end2 and pos. */
  private endOfLine(i: number): void {
    const { text } = this;
    const from = i;
    while (i < this.n && text.charCodeAt(i) === SPACE) i++;
    if (i < this.n) {
      const c = text.charCodeAt(i);
      if (c === HASH) {
        if (i === from) bail();
      } else if (c !== NEWLINE) bail();
    }
    this.pos = this.nextLine(i);
    this.end2 = this.pos;
  }

  /**
   * A `|` or `|-` block scalar at `v` whose lines are more indented than `indent`. Lines of
   * spaces only must not be longer than the content's indentation (they would be content).
   */
  private literal(v: number, indent: number, parent: AstNode): AstNode {
    const { text, n } = this;
    let h = v + 1;
    const strip = text.charCodeAt(h) === DASH;
    if (strip) h++;
    const headerEnd = this.lineEnd(h);
    let i = h;
    while (i < headerEnd && text.charCodeAt(i) === SPACE) i++;
    if (i < headerEnd && (text.charCodeAt(i) !== HASH || i === h)) bail();
    let p = headerEnd + 1;
    let contentIndent = -1;
    let longestBlank = 0;
    const lines: string[] = [];
    let pendingBlank = 0;
    let end = p;
    while (p < n) {
      let s = p;
      while (s < n && text.charCodeAt(s) === SPACE) s++;
      const eol = this.lineEnd(s);
      const spaces = s - p;
      if (s === eol) {
        if (contentIndent === -1) longestBlank = Math.max(longestBlank, spaces);
        else if (spaces > contentIndent) bail();
        pendingBlank++;
        p = eol + 1;
        continue;
      }
      if (contentIndent === -1) {
        if (spaces <= indent || longestBlank > spaces) bail();
        contentIndent = spaces;
      } else if (spaces < contentIndent) break;
      for (; pendingBlank > 0; pendingBlank--) lines.push('');
      lines.push(text.slice(p + contentIndent, eol));
      end = eol < n ? eol + 1 : n;
      p = eol + 1;
    }
    if (contentIndent === -1) bail();
    const value = lines.join('\n') + (strip ? '' : '\n');
    this.pos = end;
    this.end2 = end;
    return { kind: 'string', value, start: this.base + v, end: this.base + end, parent };
  }
}
