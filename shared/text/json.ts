import { parseTree, printParseErrorCode, type Node as JsonNode, type ParseError } from 'jsonc-parser';
import type { AstNode, AstProperty } from './tree';

export interface JsonParseResult {
  root?: AstNode;
  errors: { start: number; end: number; message: string }[];
}

const MAX_DEPTH = 500;

/** Strict JSON (no comments, no trailing commas), converted to the neutral tree. */
export function parseJson(text: string): JsonParseResult {
  const parseErrors: ParseError[] = [];
  let tree: JsonNode | undefined;
  try {
    tree = parseTree(text, parseErrors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  } catch (e) {
    // jsonc-parser recurses; absurdly deep nesting can exhaust the stack.
    return { errors: [{ start: 0, end: 0, message: 'The JSON is nested too deeply to be read.' }] };
  }
  const errors = parseErrors.map((e) => ({
    start: e.offset,
    end: e.offset + e.length,
    message: describe(printParseErrorCode(e.error)),
  }));
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
        for (const prop of node.children ?? []) {
          const [k, v] = prop.children ?? [];
          if (!k) continue;
          const keyAst: AstNode = { kind: 'string', value: String(k.value), start: k.offset, end: k.offset + k.length, parent: out };
          const valueAst: AstNode = v
            ? convert(v, out, depth + 1)
            : { kind: 'null', value: null, start: keyAst.end, end: keyAst.end, parent: out };
          const property: AstProperty = { key: String(k.value), keyNode: keyAst, value: valueAst, parent: out };
          keyAst.keyOf = property;
          valueAst.property = property;
          out.properties!.push(property);
        }
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
  if (tooDeep) errors.push({ start: 0, end: 0, message: `Values nested deeper than ${MAX_DEPTH} levels are not checked.` });
  return { root, errors };
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
