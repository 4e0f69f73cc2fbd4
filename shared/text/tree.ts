/**
 * The one place that maps YAML and JSON nodes to offsets. Both parsers' trees are
 * converted to the same small node shape, so rules, schema validation and editor
 * features never touch parser specifics.
 */
import { onForgetMemos } from '../memos';

export type NodeKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null' | 'unknown';

export interface AstNode {
  kind: NodeKind;
  /** Offsets into the whole document text (not the frontmatter slice). */
  start: number;
  end: number;
  parent?: AstNode;
  /** The property whose value this node is, when it is one. */
  property?: AstProperty;
  /** The property whose key this node is, when it is one. */
  keyOf?: AstProperty;
  value?: string | number | boolean | null;
  properties?: AstProperty[];
  items?: AstNode[];
  /** YAML flow collection (`[a, b]`, `{a: 1}`); false for block style and JSON. */
  flow?: boolean;
  /** A copy made through a YAML alias: its range is the alias's (`*base`), not text of its own, so no fix edits it. */
  viaAlias?: boolean;
}

export interface AstProperty {
  key: string;
  keyNode: AstNode;
  value: AstNode;
  parent: AstNode;
}

export function isObject(node: AstNode | undefined): node is AstNode & { properties: AstProperty[] } {
  return node?.kind === 'object';
}

export function isArray(node: AstNode | undefined): node is AstNode & { items: AstNode[] } {
  return node?.kind === 'array';
}

export function isString(node: AstNode | undefined): node is AstNode & { value: string } {
  return node?.kind === 'string';
}

/**
 * The first property with that key (a repeated YAML key is a syntax error; a JSON tree holds only the last of a
 * repeated key).
 */
export function getProperty(node: AstNode | undefined, key: string): AstProperty | undefined {
  return node?.properties?.find((p) => p.key === key);
}

export function getValue(node: AstNode | undefined, key: string): AstNode | undefined {
  return getProperty(node, key)?.value;
}

/** Follows a path of keys and indexes. */
export function nodeAtPath(root: AstNode | undefined, path: readonly (string | number)[]): AstNode | undefined {
  let node = root;
  for (const segment of path) {
    if (!node) return undefined;
    node = typeof segment === 'number' ? node.items?.[segment] : getValue(node, segment);
  }
  return node;
}

/** The keys and indexes from the root down to this node. */
export function pathOf(node: AstNode): (string | number)[] {
  const path: (string | number)[] = [];
  let current: AstNode = node;
  while (current.parent) {
    const parent: AstNode = current.parent;
    if (current.property) path.unshift(current.property.key);
    else if (current.keyOf) path.unshift(current.keyOf.key);
    else if (parent.items) path.unshift(itemIndex(parent.items, current));
    current = parent;
  }
  return path;
}

/** Each list's item positions, built on first use: a path per item of a long list stays linear overall. */
let itemIndexes = new WeakMap<readonly AstNode[], Map<AstNode, number>>();
onForgetMemos(() => (itemIndexes = new WeakMap()));

function itemIndex(items: readonly AstNode[], item: AstNode): number {
  let indexes = itemIndexes.get(items);
  // Stryker disable next-line ConditionalExpression: building the positions again gives the same ones
  if (!indexes) {
    indexes = new Map();
    // Stryker disable next-line ArithmeticOperator: starting past the end only maps `undefined`
    for (let i = items.length - 1; i >= 0; i--) indexes.set(items[i], i); // the first occurrence wins, as indexOf
    itemIndexes.set(items, indexes);
  }
  // Stryker disable next-line UnaryOperator: a node's parent always lists it
  return indexes.get(item) ?? -1;
}

/** The plain value of a node, as JSON.parse or yaml's toJS would give it (null for `unknown` nodes). */
export function toPlain(node: AstNode | undefined): unknown {
  if (!node) return undefined;
  switch (node.kind) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const p of node.properties ?? []) {
        // Own keys only (`constructor`, `toString` are keys like any other), and `__proto__`
        // defined as a plain property, as JSON.parse does: never the object's prototype.
        if (Object.prototype.hasOwnProperty.call(out, p.key)) continue;
        if (p.key === '__proto__')
          Object.defineProperty(out, p.key, {
            value: toPlain(p.value),
            enumerable: true,
            writable: true,
            configurable: true,
          });
        else out[p.key] = toPlain(p.value);
      }
      return out;
    }
    case 'array':
      return (node.items ?? []).map(toPlain);
    case 'unknown':
      // A value the tree does not model (`!!binary`, a value past the alias budget or the
      // depth cap): null, so that a schema rejects it instead of reading it as absent.
      return null;
    default:
      return node.value;
  }
}

/** The deepest node whose span holds the offset (keys included), or undefined. */
export function nodeAtOffset(root: AstNode | undefined, offset: number): AstNode | undefined {
  if (!root || offset < root.start || offset > root.end) return undefined;
  for (const p of root.properties ?? []) {
    if (offset >= p.keyNode.start && offset <= p.keyNode.end) return p.keyNode;
    const inner = nodeAtOffset(p.value, offset);
    if (inner) return inner;
  }
  for (const item of root.items ?? []) {
    const inner = nodeAtOffset(item, offset);
    if (inner) return inner;
  }
  return root;
}

/** The string entries of a list node, with their nodes; non-strings are skipped. */
export function stringItems(node: AstNode | undefined): { value: string; node: AstNode }[] {
  if (!isArray(node)) return [];
  return node.items.filter(isString).map((n) => ({ value: n.value, node: n }));
}
