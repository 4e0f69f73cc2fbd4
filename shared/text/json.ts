import { parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import { parseJsonFast } from './json-fast';
import { SyntaxErrorSink, type SyntaxError } from './syntax-errors';
import type { AstNode, AstProperty } from './tree';

/** A key that a later key of the same object overrides: its key range (quotes included). */
export interface DuplicateKey {
  key: string;
  /** The earlier key's span. */
  start: number;
  end: number;
  /** Where the property after the earlier one starts: removing [start, next) removes it with its comma. */
  next: number;
}

export interface JsonParseResult {
  root?: AstNode;
  errors: SyntaxError[];
  /**
   * Keys given again later in the same object. JSON readers (JSON.parse, Python's json,
   * which Profy uses) keep the last value, so the tree holds only the last occurrence
   * and the earlier ones are listed here.
   */
  duplicateKeys: DuplicateKey[];
}

const MAX_DEPTH = 500;

/**
 * Strict JSON (no comments, no trailing commas), converted to the neutral tree. Well-formed
 * JSON without repeated keys is read in one pass (json-fast.ts); the rest by jsonc-parser.
 */
export function parseJson(text: string): JsonParseResult {
  const root = parseJsonFast(text);
  return root ? { root, errors: [], duplicateKeys: [] } : parseJsonWithPackage(text);
}

/** parseJson through jsonc-parser alone (the reference the fast path is held to). */
export function parseJsonWithPackage(text: string): JsonParseResult {
  const sink = new SyntaxErrorSink('JSON');
  // parseTree only pushes to its error list: a list that keeps a bounded number.
  const parseErrors = {
    push: (e: ParseError) =>
      sink.add({ start: e.offset, end: e.offset + e.length, message: describe(printParseErrorCode(e.error)) }),
  };
  let tree: JsonNode | undefined;
  try {
    tree = parseTree(text, parseErrors as unknown as ParseError[], {
      disallowComments: true,
      allowTrailingComma: false,
      allowEmptyContent: false,
    });
  } catch (e) {
    // jsonc-parser recurses; absurdly deep nesting can exhaust the stack.
    return { errors: [{ start: 0, end: 0, message: 'The JSON is nested too deeply to be read.' }], duplicateKeys: [] };
  }
  const duplicateKeys: DuplicateKey[] = [];
  /** Values a later key replaced: nobody reads them, so repeats inside them do not count. */
  const overridden: AstNode[] = [];
  let tooDeep = false;
  const convert = (node: JsonNode, parent: AstNode | undefined, depth: number): AstNode => {
    const start = node.offset;
    const end = node.offset + node.length;
    if (depth > MAX_DEPTH) {
      tooDeep = true;
      return { kind: 'unknown', start, end, parent };
    }
    switch (node.type) {
      case 'object': {
        const out: AstNode = { kind: 'object', start, end, parent, properties: [] };
        const last = new Map<string, AstProperty>();
        /** The earlier occurrences of repeated keys, by their place among the properties. */
        const earlierAt: number[] = [];
        const placeOf = new Map<AstProperty, number>();
        let repeated = false;
        for (const prop of node.children ?? []) {
          const [k, v] = prop.children ?? [];
          if (!k) continue;
          const keyAst: AstNode = {
            kind: 'string',
            value: String(k.value),
            start: k.offset,
            end: k.offset + k.length,
            parent: out,
          };
          const valueAst: AstNode = v
            ? convert(v, out, depth + 1)
            : { kind: 'null', value: null, start: keyAst.end, end: keyAst.end, parent: out };
          const property: AstProperty = { key: String(k.value), keyNode: keyAst, value: valueAst, parent: out };
          keyAst.keyOf = property;
          valueAst.property = property;
          const earlier = last.get(property.key);
          if (earlier) {
            earlierAt.push(placeOf.get(earlier)!);
            overridden.push(earlier.value);
            repeated = true;
          }
          last.set(property.key, property);
          placeOf.set(property, out.properties!.length);
          out.properties!.push(property);
        }
        // An earlier occurrence always has a property after it (the later one): removing up to it takes the comma too.
        for (const i of earlierAt) {
          const p = out.properties![i];
          duplicateKeys.push({
            key: p.key,
            start: p.keyNode.start,
            end: p.keyNode.end,
            next: out.properties![i + 1].keyNode.start,
          });
        }
        // The last occurrence wins, at its own place (the properties stay in text order).
        if (repeated) out.properties = out.properties!.filter((p) => last.get(p.key) === p);
        return out;
      }
      case 'array': {
        const out: AstNode = { kind: 'array', start, end, parent, items: [] };
        for (const child of node.children ?? []) out.items!.push(convert(child, out, depth + 1));
        return out;
      }
      case 'string':
      case 'number':
      case 'boolean':
      case 'null':
        return { kind: node.type, value: node.value, start, end, parent };
      default:
        return { kind: 'unknown', start, end, parent };
    }
  };
  const root = tree ? convert(tree, undefined, 0) : undefined;
  if (tooDeep)
    sink.add({ start: 0, end: 0, message: `Values nested deeper than ${MAX_DEPTH} levels are not checked.` });
  return { root, errors: sink.result(), duplicateKeys: outside(duplicateKeys, overridden) };
}

/** The keys (sorted by offset) that lie in none of the spans; spans of a tree nest or are disjoint. */
function outside(keys: DuplicateKey[], spans: AstNode[]): DuplicateKey[] {
  keys.sort((a, b) => a.start - b.start);
  if (!spans.length) return keys;
  spans.sort((a, b) => a.start - b.start);
  const out: DuplicateKey[] = [];
  let next = 0;
  let coveredUntil = -1;
  for (const key of keys) {
    while (next < spans.length && spans[next].start <= key.start)
      coveredUntil = Math.max(coveredUntil, spans[next++].end);
    if (key.end > coveredUntil) out.push(key);
  }
  return out;
}

function describe(code: string): string {
  const words: Record<string, string> = {
    InvalidSymbol: 'Unexpected character.',
    InvalidNumberFormat: 'Malformed number.',
    PropertyNameExpected: 'A property name (a string in double quotes) is expected.',
    ValueExpected: 'A value is expected.',
    ColonExpected: 'A colon is expected.',
    CommaExpected: 'A comma is expected.',
    CloseBraceExpected: 'A closing brace `}` is expected.',
    CloseBracketExpected: 'A closing bracket `]` is expected.',
    EndOfFileExpected: 'Nothing may follow the top-level value.',
    InvalidCommentToken: 'JSON does not allow comments.',
    UnexpectedEndOfComment: 'Unterminated comment.',
    UnexpectedEndOfString: 'Unterminated string.',
    UnexpectedEndOfNumber: 'Unterminated number.',
    InvalidUnicode: 'Invalid unicode escape.',
    InvalidEscapeCharacter: 'Invalid escape character.',
    InvalidCharacter: 'Invalid character in a string.',
  };
  return words[code] ?? `${code}.`;
}
