import {
  Composer,
  isAlias,
  isMap,
  isPair,
  isScalar,
  isSeq,
  Parser,
  YAMLParseError,
  type Alias,
  type YAMLError,
  type CST,
  type Document,
  type DocumentOptions,
  type Node as YamlNode,
  type ParseOptions,
  type SchemaOptions,
} from 'yaml';
import { SyntaxErrorSink, type SyntaxError } from './syntax-errors';
import type { AstNode, AstProperty } from './tree';
import { parseYamlFast } from './yaml-fast';

export { MAX_SYNTAX_ERRORS } from './syntax-errors';

export interface YamlParseResult {
  root?: AstNode;
  /** Offsets relative to the whole document. */
  errors: SyntaxError[];
}

/** Aliases are copied into the tree; past this many copied nodes the copy stops (alias bombs). */
const ALIAS_NODE_BUDGET = 10_000;
/** Deeper values are not converted, so a pathological file cannot overflow the stack. */
const MAX_DEPTH = 500;

/**
 * Parses YAML text that starts at `base` in the document and converts it to the
 * neutral tree. Duplicate keys are errors, as the runtimes' loaders treat them.
 * Plain YAML is read in one pass (yaml-fast.ts); everything else by the yaml package.
 */
export function parseYaml(text: string, base = 0): YamlParseResult {
  const fast = parseYamlFast(text, base);
  if (!fast) return parseYamlWithPackage(text, base);
  const sink = new SyntaxErrorSink('YAML');
  addDuplicateKeys(sink, fast.duplicateKeys);
  return { root: fast.root, errors: sink.result() };
}

/** Repeated keys (offsets into the whole document) are errors, as the runtimes' loaders treat them. */
function addDuplicateKeys(sink: SyntaxErrorSink, offsets: number[]): void {
  for (const offset of offsets) sink.add({ start: offset, end: offset + 1, message: DUPLICATE_KEY_MESSAGE });
}

/** parseYaml through the yaml package alone (the reference the fast path is held to). */
export function parseYamlWithPackage(text: string, base = 0): YamlParseResult {
  // The package makes an Error object for every problem it meets (more than it reports), and
  // capturing their stack traces is more than half of parsing a broken file: nobody reads them.
  const stackTraceLimit = Error.stackTraceLimit;
  Error.stackTraceLimit = 0;
  let doc: ReturnType<typeof parseDocumentBounded>;
  try {
    doc = parseDocumentBounded(text);
  } finally {
    Error.stackTraceLimit = stackTraceLimit;
  }
  if ('tooDeep' in doc) {
    return {
      errors: [
        {
          start: base + doc.tooDeep,
          end: base + doc.tooDeep + 1,
          message: `The YAML is nested deeper than ${MAX_PARSE_DEPTH} levels, so it is not read.`,
        },
      ],
    };
  }
  const sink = new SyntaxErrorSink('YAML');
  for (const e of doc.errors) {
    sink.add({
      start: base + e.pos[0],
      end: base + e.pos[1],
      message: describeYamlError(e, text),
      code: e.code,
    });
  }
  const { aliasTargets, duplicateKeyOffsets } = scanDocument(doc);
  addDuplicateKeys(
    sink,
    duplicateKeyOffsets.map((offset) => base + offset),
  );
  const converter = new Converter(aliasTargets, base);
  const root = doc.contents ? converter.convert(doc.contents as YamlNode, undefined, 0) : undefined;
  if (converter.aliasBudgetExceeded) {
    const at = converter.aliasBudgetExceeded;
    sink.add({
      start: at[0],
      end: at[1],
      message: 'Aliases expand to too many nodes; the rest of this value is not checked.',
    });
  }
  if (converter.tooDeep) {
    const at = converter.tooDeep;
    sink.add({ start: at[0], end: at[1], message: `Values nested deeper than ${MAX_DEPTH} levels are not checked.` });
  }
  return { root, errors: sink.result() };
}

/** `<<` written plain (a quoted `"<<"` is an ordinary key; the composer gives every scalar of the text its type). */
function isMergeKey(key: YamlNode | null): boolean {
  return isScalar(key) && key.value === '<<' && key.type === 'PLAIN';
}

/** The yaml package's own message for a repeated key (its check is turned off: it compares every pair of keys). */
const DUPLICATE_KEY_MESSAGE = 'Map keys must be unique';

/**
 * The problem in the author's terms, not the package's: by its error `code` where the package's
 * own words send the author to its API or grammar (the runtime wording is the dialect's:
 * `DialectModule.syntaxMessages`).
 */
function describeYamlError(e: YAMLError, text: string): string {
  // The yaml package catches its own stack overflow on absurd nesting and reports it as an error: kept for a
  // stack smaller than the composer needs for MAX_PARSE_DEPTH levels, which no test can set up.
  // Stryker disable next-line ConditionalExpression,StringLiteral,Regex
  if (/Maximum call stack size exceeded/.test(e.message)) return 'The YAML is nested too deeply to be read.';
  if (e.code === 'MULTIPLE_DOCS')
    return 'This `---` (or `...`) line starts a second YAML document, and the file is read as one; remove the line, or move what follows into a file of its own.';
  if (e.code === 'BAD_SCALAR_START') {
    const char = text[e.pos[0]];
    if (char && '@`%'.includes(char))
      return `A value that starts with \`${char}\` must be quoted (YAML reserves the character), so the file does not parse; write the value in quotes, as \`"${char}…"\`.`;
  }
  // One line, as a diagnostic shows it (the package's messages are one line today: composed with
  // prettyErrors off, none carries the ` at line L, column C` and source excerpt that option adds).
  return e.message.split('\n', 1)[0];
}

/**
 * Past this nesting the text is not composed at all: the yaml package's composer recurses
 * once per level and overflows the stack near 900 levels; an overflow it catches is
 * harmless, but one that hits while V8 compiles a regular expression aborts the process.
 */
export const MAX_PARSE_DEPTH = 600;

// uniqueKeys: off, since the package compares each key with every earlier one of its map
// (40,000 keys: seconds); scanDocument finds the same duplicates with one lookup per key.
const OPTIONS: ParseOptions & DocumentOptions & SchemaOptions = {
  prettyErrors: false,
  uniqueKeys: false,
  strict: true,
  keepSourceTokens: false,
};

/**
 * One pass over the composed document, in document order: the node each alias refers to
 * (the last node with its anchor before the alias, as `Alias.resolve` finds it, which
 * walks the whole document on every call), and the offset of every key that repeats an
 * earlier key of its map (equal scalar values, as the package's `uniqueKeys` compares).
 */
function scanDocument(doc: Document): { aliasTargets: Map<Alias, YamlNode>; duplicateKeyOffsets: number[] } {
  const aliasTargets = new Map<Alias, YamlNode>();
  const duplicateKeyOffsets: number[] = [];
  const anchors = new Map<string, YamlNode>();
  // Stryker disable next-line ArrayDeclaration: an item that is not a node is skipped below
  const stack: unknown[] = doc.contents ? [doc.contents] : [];
  while (stack.length) {
    const node = stack.pop();
    if (isAlias(node)) {
      const target = anchors.get(node.source);
      if (target) aliasTargets.set(node, target);
      continue;
    }
    if (isScalar(node) || isMap(node) || isSeq(node)) {
      if (node.anchor) anchors.set(node.anchor, node);
    }
    if (isMap(node)) {
      const seen = new Set<unknown>();
      for (const pair of node.items) {
        const key = isPair(pair) ? pair.key : undefined;
        if (!isScalar(key) || Number.isNaN(key.value)) continue;
        if (seen.has(key.value)) duplicateKeyOffsets.push(key.range?.[0] ?? 0);
        else seen.add(key.value);
      }
    }
    // Children pushed last-first, so that they come off the stack in document order.
    if (isMap(node) || isSeq(node)) {
      // Stryker disable next-line ArithmeticOperator: starting past the end pushes undefined items, skipped as above
      for (let i = node.items.length - 1; i >= 0; i--) {
        const item = node.items[i];
        if (isPair(item)) stack.push(item.value, item.key);
        else stack.push(item);
      }
    }
  }
  return { aliasTargets, duplicateKeyOffsets };
}

/**
 * `parseDocument` of the yaml package, in its two steps: the CST parser (iterative, so any
 * depth is safe) and the composer (recursive), which runs only when the CST's collections
 * nest at most MAX_PARSE_DEPTH deep. Same result as `parseDocument(text, OPTIONS)`.
 */
function parseDocumentBounded(text: string): Document.Parsed | { tooDeep: number } {
  const tokens = Array.from(new Parser().parse(text));
  const tooDeep = cstDepthAbove(tokens, MAX_PARSE_DEPTH);
  if (tooDeep !== undefined) return { tooDeep };
  let doc: Document.Parsed | undefined;
  for (const d of new Composer(OPTIONS).compose(tokens, true, text.length)) {
    if (!doc) doc = d;
    else {
      doc.errors.push(
        new YAMLParseError(
          d.range.slice(0, 2) as [number, number],
          'MULTIPLE_DOCS',
          // Stryker disable next-line StringLiteral: the package's words, which describeYamlError replaces by the code
          'Source contains multiple documents; please use YAML.parseAllDocuments()',
        ),
      );
      break;
    }
  }
  return doc!;
}

/** The offset of the first collection nested deeper than `max`, walking the CST without recursion. */
function cstDepthAbove(tokens: CST.Token[], max: number): number | undefined {
  const stack: [CST.Token | undefined | null, number][] = tokens.map((t) => [t, 0]);
  while (stack.length) {
    const [token, depth] = stack.pop()!;
    if (!token) continue;
    switch (token.type) {
      case 'document':
        stack.push([token.value, depth]);
        break;
      case 'block-map':
      case 'block-seq':
      case 'flow-collection': {
        if (depth + 1 > max) return token.offset;
        for (const item of token.items) {
          const it = item as { key?: CST.Token | null; value?: CST.Token };
          stack.push([it.key, depth + 1], [it.value, depth + 1]);
        }
        break;
      }
      // Stryker disable next-line ConditionalExpression: the last case; without its break the switch ends all the same
      default:
        break;
    }
  }
  return undefined;
}

class Converter {
  aliasBudgetExceeded?: [number, number];
  tooDeep?: [number, number];
  private aliasNodes = 0;

  constructor(
    private readonly aliasTargets: ReadonlyMap<Alias, YamlNode>,
    private readonly base: number,
  ) {}

  convert(node: YamlNode, parent: AstNode | undefined, depth: number, aliasSpan?: [number, number]): AstNode {
    const out = this.convertNode(node, parent, depth, aliasSpan);
    if (aliasSpan) out.viaAlias = true;
    return out;
  }

  private convertNode(
    node: YamlNode,
    parent: AstNode | undefined,
    depth: number,
    aliasSpan?: [number, number],
  ): AstNode {
    const span = aliasSpan ?? this.span(node);
    if (aliasSpan && ++this.aliasNodes > ALIAS_NODE_BUDGET) {
      this.aliasBudgetExceeded ??= aliasSpan;
      return { kind: 'unknown', start: span[0], end: span[1], parent };
    }
    if (depth > MAX_DEPTH) {
      this.tooDeep ??= span;
      return { kind: 'unknown', start: span[0], end: span[1], parent };
    }
    if (isAlias(node)) {
      const target = this.aliasTargets.get(node);
      if (!target) return { kind: 'unknown', start: span[0], end: span[1], parent };
      return this.convert(target, parent, depth + 1, span);
    }
    if (isScalar(node)) {
      // The core schema composes null, strings, numbers and booleans (integers as numbers: intAsBigInt is off).
      const value = node.value;
      const out: AstNode = { kind: 'unknown', start: span[0], end: span[1], parent };
      if (value === null) out.kind = 'null';
      else if (typeof value === 'string') out.kind = 'string';
      else if (typeof value === 'number') out.kind = 'number';
      else if (typeof value === 'boolean') out.kind = 'boolean';
      // Stryker disable next-line ConditionalExpression: no other scalar value is composed (see above)
      if (out.kind !== 'unknown') out.value = value as AstNode['value'];
      return out;
    }
    if (isSeq(node)) {
      const out: AstNode = { kind: 'array', start: span[0], end: span[1], parent, items: [], flow: !!node.flow };
      for (const item of node.items) {
        // Stryker disable next-line ConditionalExpression: a type guard; the composer gives a node for every item
        if (item == null) continue;
        out.items!.push(this.convert(item as YamlNode, out, depth + 1, aliasSpan));
      }
      return out;
    }
    // Stryker disable next-line ConditionalExpression: the composer makes aliases, scalars, sequences and maps only
    if (isMap(node)) {
      const out: AstNode = { kind: 'object', start: span[0], end: span[1], parent, properties: [], flow: !!node.flow };
      const merges: YamlNode[] = [];
      for (const pair of node.items) {
        // Stryker disable next-line ConditionalExpression: a type guard; the package composes every item of a map as a Pair
        if (!isPair(pair)) continue;
        const keyNode = pair.key as YamlNode | null;
        if (isMergeKey(keyNode) && pair.value) {
          merges.push(pair.value as YamlNode);
          continue;
        }
        const keySpan: [number, number] = aliasSpan ?? (keyNode ? this.span(keyNode) : [span[0], span[0]]);
        // Stryker disable next-line StringLiteral: a type guard; an empty key is composed as a null scalar (`null`)
        const key = isScalar(keyNode) ? String(keyNode.value) : keyNode ? String(keyNode) : '';
        const keyAst: AstNode = {
          kind: 'string',
          value: key,
          start: keySpan[0],
          end: keySpan[1],
          parent: out,
          ...(aliasSpan ? { viaAlias: true } : {}),
        };
        const valueAst: AstNode = pair.value
          ? this.convert(pair.value as YamlNode, out, depth + 1, aliasSpan)
          : { kind: 'null', value: null, start: keySpan[1], end: keySpan[1], parent: out };
        const property: AstProperty = { key, keyNode: keyAst, value: valueAst, parent: out };
        keyAst.keyOf = property;
        valueAst.property = property;
        out.properties!.push(property);
      }
      // Stryker disable next-line ConditionalExpression: merging no sources changes nothing
      if (merges.length) this.merge(out, merges, depth, aliasSpan);
      return out;
    }
    return { kind: 'unknown', start: span[0], end: span[1], parent };
  }

  /**
   * YAML merge keys (`<<: *base`, `<<: [*a, *b]`, `<<: {k: v}`), as the runtimes' YAML
   * loaders apply them: the merged mappings' keys are added where the mapping does not
   * write them itself (its own keys win), the first source winning among several. A merged
   * value keeps its own place in the text, or the alias's when it comes through one.
   */
  private merge(out: AstNode, sources: YamlNode[], depth: number, aliasSpan?: [number, number]): void {
    const present = new Set(out.properties!.map((p) => p.key));
    for (const source of sources) {
      const list = isSeq(source) ? (source.items as YamlNode[]) : [source];
      for (const item of list) {
        // Stryker disable next-line ConditionalExpression: a type guard; the composer gives a node for every item
        if (item == null) continue;
        const merged = this.convert(item, out, depth + 1, aliasSpan);
        for (const p of merged.properties ?? []) {
          if (present.has(p.key)) continue;
          present.add(p.key);
          p.parent = out;
          p.keyNode.parent = out;
          p.value.parent = out;
          out.properties!.push(p);
        }
      }
    }
  }

  private span(node: YamlNode): [number, number] {
    const r = node.range;
    if (!r) return [this.base, this.base];
    return [this.base + r[0], this.base + r[1]];
  }
}
