import * as assert from 'assert';
import { parseYamlWithPackage } from '../shared/text/yaml';
import type { AstNode } from '../shared/text/tree';

/**
 * A tree as nested plain values, each mapping as its list of entries in order: a key repeated by a merge
 * shows twice, where `toPlain` (an object) would keep one and hide it.
 */
function plain(node: AstNode | undefined): unknown {
  if (!node) return undefined;
  if (node.kind === 'object') return node.properties!.map((p) => [p.key, plain(p.value)]);
  if (node.kind === 'array') return node.items!.map(plain);
  return node.value;
}

function property(node: AstNode | undefined, key: string): AstNode {
  const found = node?.properties?.find((p) => p.key === key);
  assert.ok(found, `no key ${key}`);
  return found.value;
}

describe('YAML read by the yaml package: what the conversion adds', () => {
  it('puts the stack trace limit back after reading a broken file', () => {
    const before = Error.stackTraceLimit;
    try {
      Error.stackTraceLimit = 17; // not the default, nor what the parse sets
      assert.notStrictEqual(parseYamlWithPackage('a: [x\n').errors.length, 0);
      assert.strictEqual(Error.stackTraceLimit, 17);
    } finally {
      Error.stackTraceLimit = before;
    }
  });

  it('merges a plain `<<` key, and reads a quoted `"<<"` as an ordinary key', () => {
    const text = 'b: &b {x: 1}\nplain:\n  <<: *b\nquoted:\n  "<<": *b\n';
    const root = parseYamlWithPackage(text).root;
    assert.deepStrictEqual(plain(property(root, 'plain')), [['x', 1]]);
    assert.deepStrictEqual(plain(property(root, 'quoted')), [['<<', [['x', 1]]]]);
  });

  it("keeps a mapping's own keys over merged ones, and the first source's among several", () => {
    const text = 'a: &a {x: 1}\nb: &b {x: 2, y: 2}\nown: {<<: *b, x: 3}\nboth: {<<: [*a, *b]}\n';
    const root = parseYamlWithPackage(text).root;
    assert.deepStrictEqual(plain(property(root, 'own')), [
      ['x', 3],
      ['y', 2],
    ]);
    assert.deepStrictEqual(plain(property(root, 'both')), [
      ['x', 1],
      ['y', 2],
    ]);
  });

  it('marks the keys and values copied through an alias, at the alias', () => {
    const text = 'a: &x {k: 1}\nb: *x\n';
    const copy = property(parseYamlWithPackage(text).root, 'b');
    const [p] = copy.properties!;
    assert.deepStrictEqual(
      [copy.viaAlias, p.keyNode.viaAlias, p.value.viaAlias, p.keyNode.start, p.keyNode.end],
      [true, true, true, 16, 18],
    );
    const original = property(parseYamlWithPackage(text).root, 'a');
    assert.deepStrictEqual([original.viaAlias, original.properties![0].keyNode.viaAlias], [undefined, undefined]);
  });

  it('copies 10,000 nodes through aliases, and stops at the next one', () => {
    // The alias itself and each of its list's items count: 1 + 9,999 nodes, then 1 + 10,000.
    const text = (items: number) => `a: &x [${Array(items).fill('1').join(', ')}]\nb: *x\n`;
    assert.deepStrictEqual(parseYamlWithPackage(text(9_999)).errors, []);
    const at = text(10_000).indexOf('*x');
    assert.deepStrictEqual(parseYamlWithPackage(text(10_000)).errors, [
      { start: at, end: at + 2, message: 'Aliases expand to too many nodes; the rest of this value is not checked.' },
    ]);
  });

  it('counts the levels of nested mappings, and of merged ones, up to 500', () => {
    const maps = (levels: number) => `${'{a: '.repeat(levels)}1${'}'.repeat(levels)}`;
    assert.deepStrictEqual(parseYamlWithPackage(maps(500)).errors, []);
    assert.deepStrictEqual(
      parseYamlWithPackage(maps(502)).errors.map((e) => e.message),
      ['Values nested deeper than 500 levels are not checked.'],
    );
    const merges = (levels: number) => `${'{<<: '.repeat(levels)}{a: 1}${'}'.repeat(levels)}`;
    assert.deepStrictEqual(parseYamlWithPackage(merges(499)).errors, []);
    assert.deepStrictEqual(
      parseYamlWithPackage(merges(501)).errors.map((e) => e.message),
      ['Values nested deeper than 500 levels are not checked.'],
    );
  });

  it('does not compose collections nested too deep inside a key', () => {
    const lists = `${'['.repeat(700)}${']'.repeat(700)}`;
    const message = 'The YAML is nested deeper than 600 levels, so it is not read.';
    // The key is one level into the map: its 600th bracket (at offset 2 + 599) is level 601.
    assert.deepStrictEqual(parseYamlWithPackage(`? ${lists}\n: 1\n`).errors, [{ start: 601, end: 602, message }]);
    assert.deepStrictEqual(parseYamlWithPackage(`{${lists}: 1}`).errors, [{ start: 600, end: 601, message }]);
  });

  it("explains a reserved first character by the error's code, and keeps the package's words otherwise", () => {
    // A block scalar indicator in a flow list: the same code, a character YAML does not reserve.
    assert.deepStrictEqual(
      parseYamlWithPackage('a: [|x]\n').errors.map((e) => e.message),
      ['Plain value cannot start with block scalar indicator |'],
    );
    // Other errors at a reserved character keep their own message.
    const messages = parseYamlWithPackage('a: [x\n@').errors.map((e) => [e.code, e.message.slice(0, 40)]);
    assert.deepStrictEqual(messages, [
      ['BAD_INDENT', 'Flow sequence in block collection must b'],
      ['BAD_SCALAR_START', 'A value that starts with `@` must be quo'],
      ['MISSING_CHAR', 'Implicit map keys need to be followed by'],
    ]);
  });
});
