/**
 * A strict one-pass JSON reader straight to the neutral tree, for the well-formed Experts
 * most files are. It answers only for JSON jsonc-parser reads without any error, and with
 * no repeated key in an object; anything else (a syntax error, comments, a repeated key,
 * nesting deeper than MAX_DEPTH) returns undefined and json.ts uses jsonc-parser.
 * test/json-fast.test.ts holds it to that path on JSONTestSuite, every fixture and
 * generated texts.
 */
import type { AstNode, AstProperty } from './tree';

const BAIL: unique symbol = Symbol('bail');
const MAX_DEPTH = 400;

function bail(): never {
  throw BAIL;
}

/** The tree of `text`, or undefined when jsonc-parser must read it. */
export function parseJsonFast(text: string): AstNode | undefined {
  try {
    const reader = new JsonReader(text);
    const root = reader.value(reader.skip(0), undefined, 0);
    if (reader.skip(reader.end) !== text.length) bail();
    return root;
  } catch (e) {
    // Only a bug of the reader throws anything but BAIL (so emptying this block changes nothing a test sees).
    if (e === BAIL) return undefined;
    throw e;
  }
}

/** A quoted string with escapes, read by JSON.parse; a bad escape leaves the text to jsonc-parser. */
function unescaped(quoted: string): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    bail();
  }
}

class JsonReader {
  /** Past the value read last. */
  end = 0;
  private readonly n: number;

  constructor(private readonly text: string) {
    this.n = text.length;
  }

  /** Past JSON's white space (space, tab, LF, CR) from `i`. */
  skip(i: number): number {
    const { text } = this;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return i;
      i++;
    }
  }

  value(i: number, parent: AstNode | undefined, depth: number): AstNode {
    if (depth > MAX_DEPTH) bail();
    const c = this.text.charCodeAt(i);
    switch (c) {
      case 0x7b:
        return this.object(i, parent, depth);
      case 0x5b:
        return this.array(i, parent, depth);
      case 0x22: {
        const value = this.string(i);
        return { kind: 'string', value, start: i, end: this.end, parent };
      }
      case 0x74:
        return this.literal(i, 'true', 'boolean', true, parent);
      case 0x66:
        return this.literal(i, 'false', 'boolean', false, parent);
      case 0x6e:
        return this.literal(i, 'null', 'null', null, parent);
      default:
        return this.number(i, parent);
    }
  }

  private object(o: number, parent: AstNode | undefined, depth: number): AstNode {
    const { text } = this;
    const node: AstNode = { kind: 'object', start: o, end: 0, parent, properties: [] };
    const properties = node.properties!;
    let keys: Set<string> | undefined;
    let i = this.skip(o + 1);
    if (text.charCodeAt(i) !== 0x7d) {
      for (;;) {
        if (text.charCodeAt(i) !== 0x22) bail();
        const key = this.string(i);
        const keyNode: AstNode = { kind: 'string', value: key, start: i, end: this.end, parent: node };
        i = this.skip(this.end);
        if (text.charCodeAt(i) !== 0x3a) bail();
        const value = this.value(this.skip(i + 1), node, depth + 1);
        const property: AstProperty = { key, keyNode, value, parent: node };
        keyNode.keyOf = property;
        value.property = property;
        // A repeated key: the earlier ones are listed apart (json.ts), jsonc-parser's path. Past 8
        // keys a set finds it (a linear search would find the same, more slowly).
        // Stryker disable next-line ConditionalExpression,EqualityOperator,BlockStatement: only the speed differs
        if (properties.length >= 8) {
          keys ??= new Set(properties.map((p) => p.key));
          if (keys.has(key)) bail();
          keys.add(key);
        } else if (properties.some((p) => p.key === key)) bail();
        properties.push(property);
        i = this.nextEntry(0x7d);
        if (i === -1) break;
      }
    } else this.end = i + 1;
    node.end = this.end;
    return node;
  }

  private array(o: number, parent: AstNode | undefined, depth: number): AstNode {
    const { text } = this;
    const node: AstNode = { kind: 'array', start: o, end: 0, parent, items: [] };
    let i = this.skip(o + 1);
    if (text.charCodeAt(i) !== 0x5d) {
      for (;;) {
        node.items!.push(this.value(i, node, depth + 1));
        i = this.nextEntry(0x5d);
        if (i === -1) break;
      }
    } else this.end = i + 1;
    node.end = this.end;
    return node;
  }

  /** After an entry: the start of the next one (past `,`), or -1 at the closing `close` (end set past it). */
  private nextEntry(close: number): number {
    const i = this.skip(this.end);
    const c = this.text.charCodeAt(i);
    if (c === close) {
      this.end = i + 1;
      return -1;
    }
    if (c !== 0x2c) bail();
    return this.skip(i + 1);
  }

  /** A string at `q` (its opening quote); escapes are read by JSON.parse. Sets end past the closing quote. */
  private string(q: number): string {
    const { text } = this;
    // Stryker disable next-line BooleanLiteral: JSON.parse reads a string without escapes the same, more slowly
    let escaped = false;
    for (let i = q + 1; i < this.n; i++) {
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        this.end = i + 1;
        // Always JSON.parse would read a string without escapes the same, more slowly.
        return escaped ? unescaped(text.slice(q, i + 1)) : text.slice(q + 1, i);
      }
      if (c < 0x20) bail();
      if (c === 0x5c) {
        escaped = true;
        i++;
      }
    }
    bail();
  }

  private literal(
    i: number,
    word: string,
    kind: 'boolean' | 'null',
    value: boolean | null,
    parent: AstNode | undefined,
  ): AstNode {
    if (!this.text.startsWith(word, i)) bail();
    // What follows is checked by the caller (a `,`, `]`, `}` or the end after white space).
    const end = i + word.length;
    this.end = end;
    return { kind, value, start: i, end, parent };
  }

  /** JSON's number grammar exactly: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`. */
  private number(start: number, parent: AstNode | undefined): AstNode {
    const { text } = this;
    let i = start;
    if (text.charCodeAt(i) === 0x2d) i++;
    if (text.charCodeAt(i) === 0x30) i++;
    else if (isDigit(text.charCodeAt(i))) while (isDigit(text.charCodeAt(i))) i++;
    else bail();
    if (text.charCodeAt(i) === 0x2e) {
      i++;
      if (!isDigit(text.charCodeAt(i))) bail();
      while (isDigit(text.charCodeAt(i))) i++;
    }
    const e = text.charCodeAt(i);
    if (e === 0x65 || e === 0x45) {
      i++;
      const sign = text.charCodeAt(i);
      if (sign === 0x2b || sign === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i))) bail();
      while (isDigit(text.charCodeAt(i))) i++;
    }
    this.end = i;
    return { kind: 'number', value: Number(text.slice(start, i)), start, end: i, parent };
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}
