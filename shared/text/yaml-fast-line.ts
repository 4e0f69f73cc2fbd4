/**
 * The part of the fast YAML reader (yaml-fast.ts) that reads what is written on one line:
 * plain and quoted scalars, implicit keys and flow collections, with the yaml package's core
 * schema for plain scalars. Anything it is not sure of throws BAIL: then the package reads
 * the whole text.
 */
import type { AstNode, AstProperty } from './tree';

/** Thrown inside the reader when the text needs the yaml package. */
export const BAIL: unique symbol = Symbol('bail');

/**
 * Characters the reader leaves to the package: controls (tab and CR included), C1, BOM, line and paragraph separators,
 * non-characters.
 */
export const UNSAFE = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff\ufffe\uffff]/;

/** Deeper than this, the package decides (and applies its own limits). */
export const MAX_NESTING = 64;
/** The package rejects implicit keys whose `:` is more than 1024 characters after their start. */
const MAX_KEY_LENGTH = 1000;

export const SPACE = 0x20;
export const NEWLINE = 0x0a;
export const HASH = 0x23;
export const COLON = 0x3a;
export const DASH = 0x2d;

export function bail(): never {
  throw BAIL;
}

/** Reads one line's scalars and flow collections of `text`; nodes' offsets are shifted by `base`. */
export class LineReader {
  protected readonly n: number;
  protected depth = 0;
  /** Past the value flowValue or flow read last (for a key: at its `:`). */
  protected flowEnd = 0;
  /** Where keys that repeat an earlier key of their mapping start (the tree keeps both, as the package's does). */
  readonly duplicateKeys: number[] = [];

  constructor(
    protected readonly text: string,
    protected readonly base: number,
  ) {
    this.n = text.length;
  }

  /** Adds a mapping's property, noting a repeated key. `keys`: the set kept past 8 keys (returned). */
  protected addProperty(map: AstNode, property: AstProperty, keys: Set<string> | undefined): Set<string> | undefined {
    const properties = map.properties!;
    let repeated: boolean;
    if (properties.length >= 8) {
      keys ??= new Set(properties.map((p) => p.key));
      repeated = keys.has(property.key);
      keys.add(property.key);
    } else repeated = properties.some((p) => p.key === property.key);
    if (repeated) this.duplicateKeys.push(property.keyNode.start);
    properties.push(property);
    return keys;
  }

  protected nextLine(i: number): number {
    const nl = this.text.indexOf('\n', i);
    return nl === -1 ? this.n : nl + 1;
  }

  protected lineEnd(i: number): number {
    const nl = this.text.indexOf('\n', i);
    return nl === -1 ? this.n : nl;
  }

  /**
   * The implicit key starting at `k` when the line holds one (`key:` followed by a space or
   * the end of the line): its string value, its end and the colon's offset. Keys that are not
   * strings to the package (numbers, booleans, null, `<<`) and long ones are left to it.
   */
  protected implicitKey(k: number): { value: string; end: number; colon: number } | undefined {
    const { text } = this;
    const c = text.charCodeAt(k);
    let end: number;
    let value: string;
    let i: number;
    if (c === 0x22 || c === 0x27) {
      const q = this.quoted(k);
      if (!q) return undefined;
      ({ value, end } = q);
      i = end;
      while (i < this.n && text.charCodeAt(i) === SPACE) i++;
      if (text.charCodeAt(i) !== COLON) return undefined;
    } else {
      if (!plainStart(text, k, this.n)) return undefined;
      // The first `:` followed by a space or the line's end; a comment before it means no key.
      for (i = k; ; i++) {
        const ch = i < this.n ? text.charCodeAt(i) : NEWLINE;
        if (ch === NEWLINE || (ch === HASH && text.charCodeAt(i - 1) === SPACE)) return undefined;
        if (ch !== COLON) continue;
        const next = i + 1 < this.n ? text.charCodeAt(i + 1) : NEWLINE;
        if (next === SPACE || next === NEWLINE) break;
      }
      end = i;
      while (text.charCodeAt(end - 1) === SPACE) end--;
      value = text.slice(k, end);
      if (value === '<<' || plainValue(value) !== value) bail();
    }
    const after = i + 1 < this.n ? text.charCodeAt(i + 1) : NEWLINE;
    if (after !== SPACE && after !== NEWLINE) bail();
    if (end - k > MAX_KEY_LENGTH) bail();
    return { value, end, colon: i };
  }

  /** A `'…'` or `"…"` scalar closed on its line (double-quoted: no escapes). */
  protected quoted(q: number): { value: string; end: number } | undefined {
    const { text } = this;
    const quote = text.charCodeAt(q);
    let doubled = false;
    for (let i = q + 1; i < this.n; i++) {
      const ch = text.charCodeAt(i);
      if (ch === NEWLINE || (ch === 0x5c && quote === 0x22)) return undefined;
      if (ch !== quote) continue;
      if (quote === 0x27 && text.charCodeAt(i + 1) === 0x27) {
        doubled = true;
        i++;
        continue;
      }
      const inner = text.slice(q + 1, i);
      return { value: doubled ? inner.replace(/''/g, "'") : inner, end: i + 1 };
    }
    return undefined;
  }

  /** A flow collection closed on its line, starting at `o`; sets flowEnd past its closing bracket. */
  protected flow(o: number, parent: AstNode): AstNode {
    if (this.depth > MAX_NESTING) bail();
    const { text } = this;
    const isMap = text.charCodeAt(o) === 0x7b;
    const close = isMap ? 0x7d : 0x5d;
    const node: AstNode = isMap
      ? { kind: 'object', start: this.base + o, end: 0, parent, properties: [], flow: true }
      : { kind: 'array', start: this.base + o, end: 0, parent, items: [], flow: true };
    let i = this.spaces(o + 1);
    let keys: Set<string> | undefined;
    if (text.charCodeAt(i) !== close) {
      for (;;) {
        if (isMap) keys = this.flowPair(node, i, keys);
        else node.items!.push(this.flowValue(i, node, false));
        i = this.spaces(this.flowEnd);
        const c = text.charCodeAt(i);
        if (c === close) break;
        if (c !== 0x2c) bail();
        i = this.spaces(i + 1);
        // A trailing comma, or an empty entry: the package's reading.
        if (text.charCodeAt(i) === close || text.charCodeAt(i) === 0x2c) bail();
      }
    }
    node.end = this.base + i + 1;
    this.flowEnd = i + 1;
    return node;
  }

  /** Spaces from `i`; a line break inside a flow collection is left to the package. */
  protected spaces(i: number): number {
    const { text } = this;
    while (text.charCodeAt(i) === SPACE) i++;
    if (i >= this.n || text.charCodeAt(i) === NEWLINE) bail();
    return i;
  }

  protected flowPair(map: AstNode, k: number, keys: Set<string> | undefined): Set<string> | undefined {
    const keyNode = this.flowValue(k, map, true);
    if (keyNode.kind !== 'string') bail();
    const key = keyNode.value as string;
    const { text } = this;
    const colon = this.flowEnd;
    if (text.charCodeAt(colon) !== COLON || text.charCodeAt(colon + 1) !== SPACE) bail();
    const value = this.flowValue(this.spaces(colon + 1), map, false);
    if (key === '<<') bail();
    const property: AstProperty = { key, keyNode, value, parent: map };
    keyNode.keyOf = property;
    value.property = property;
    return this.addProperty(map, property, keys);
  }

  /** A scalar or nested collection inside a flow collection; sets flowEnd past it (a key: at its `:`). */
  protected flowValue(i: number, parent: AstNode, isKey: boolean): AstNode {
    const { text } = this;
    const c = text.charCodeAt(i);
    if (c === 0x5b || c === 0x7b) {
      if (isKey) bail();
      this.depth++;
      const node = this.flow(i, parent);
      this.depth--;
      return node;
    }
    if (c === 0x22 || c === 0x27) {
      const q = this.quoted(i);
      if (!q) bail();
      this.flowEnd = q.end;
      return { kind: 'string', value: q.value, start: this.base + i, end: this.base + q.end, parent };
    }
    if (!plainStart(text, i, this.n)) bail();
    let e = i;
    for (;;) {
      const ch = text.charCodeAt(e);
      if (ch === 0x2c || ch === 0x5d || ch === 0x7d || ch === NEWLINE || e >= this.n) break;
      if (ch === 0x5b || ch === 0x7b || (ch === HASH && text.charCodeAt(e - 1) === SPACE)) bail();
      if (ch === COLON) {
        // Only a key's `: ` ends a plain scalar here; any other colon is the package's reading.
        if (isKey && text.charCodeAt(e + 1) === SPACE) break;
        bail();
      }
      e++;
    }
    while (text.charCodeAt(e - 1) === SPACE) e--;
    this.flowEnd = e;
    const value = plainValue(text.slice(i, e));
    return { kind: kindOf(value), value, start: this.base + i, end: this.base + e, parent };
  }
}

/** Characters that cannot start a plain scalar (indicators, quotes, and the space and line break). */
const NOT_PLAIN_START = new Uint8Array(128);
for (const c of ',[]{}#&*!|>\'"%@`?: \n') NOT_PLAIN_START[c.charCodeAt(0)] = 1;

/**
 * Whether a plain scalar may start at `i` (a `-` only when something other than a space or a flow indicator follows
 * it).
 */
export function plainStart(text: string, i: number, n: number): boolean {
  if (i >= n) return false;
  const c = text.charCodeAt(i);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: a typed array read past its end gives undefined, which is no mark
  if (c < 128 && NOT_PLAIN_START[c]) return false;
  if (c !== DASH) return true;
  const next = i + 1 < n ? text.charCodeAt(i + 1) : NEWLINE;
  return next !== SPACE && next !== NEWLINE && next !== 0x2c && next !== 0x5d && next !== 0x7d;
}

// The yaml package's core schema (YAML 1.2), in its order: null, bool, octal, decimal and hex int, then floats.
const NULL = /^(?:~|[Nn]ull|NULL)?$/;
const BOOL = /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/;
const INT_OCT = /^0o[0-7]+$/;
const INT = /^[-+]?[0-9]+$/;
const INT_HEX = /^0x[0-9a-fA-F]+$/;
const FLOAT_NAN = /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** The value of a plain scalar, as the yaml package's core schema resolves it. */
export function plainValue(s: string): string | number | boolean | null {
  const c = s.charCodeAt(0);
  // Most scalars are words: only those starting like a number or a keyword are tested.
  const letter = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
  if (letter && c !== 0x6e && c !== 0x4e && c !== 0x74 && c !== 0x54 && c !== 0x66 && c !== 0x46) return s;
  if (NULL.test(s)) return null;
  if (BOOL.test(s)) return c === 0x74 || c === 0x54;
  if (INT_OCT.test(s)) return parseInt(s.substring(2), 8);
  if (INT.test(s)) return parseInt(s, 10);
  if (INT_HEX.test(s)) return parseInt(s.substring(2), 16);
  if (FLOAT_NAN.test(s)) return s.slice(-3).toLowerCase() === 'nan' ? NaN : s[0] === '-' ? -Infinity : Infinity;
  if (FLOAT_EXP.test(s) || FLOAT.test(s)) return parseFloat(s);
  return s;
}

export function kindOf(value: string | number | boolean | null): AstNode['kind'] {
  return value === null
    ? 'null'
    : typeof value === 'string'
      ? 'string'
      : typeof value === 'number'
        ? 'number'
        : 'boolean';
}
