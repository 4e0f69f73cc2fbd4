// The edit builders every quick fix is made of (shared/fixes/edits.ts) and the applying of
// several fixes at once (shared/fixes/apply-edits.ts), tested directly: each case builds the
// edit for a small text and asserts the text it leaves, in both line endings. The golden fix
// twins reach only the layouts some rule's fixture happens to have; these tables pin the rest
// (first and last line, no final line break, indentation, flow and block lists, quoted and
// spaced keys, comments, empty collections).
import * as assert from 'assert';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { TextEdit } from 'vscode-languageserver-types';
import { applyFixes } from '../shared/fixes/apply-edits';
import { declareToolEdit } from '../shared/config/add-tool';
import {
  afterColonEdit,
  appendToListEdit,
  indentOf,
  inLineEndingOf,
  insertJsonPropertyEdit,
  insertKeyLinesEdit,
  lineStartOf,
  minimalEdit,
  nextLineStart,
  writtenNull,
  nodeForRange,
  rangeOf,
  removeItemEdit,
  removePropertyEdit,
  replaceItemWithManyEdit,
  replaceValueEdit,
  type EditTarget,
} from '../shared/fixes/edits';
import { parseJsonFile, parseYamlFile } from '../shared/text/document';
import { getProperty, nodeAtPath, type AstNode } from '../shared/text/tree';

type Path = (string | number)[];

/** JSON when the text starts with `{`, else YAML. */
const targetOf = (text: string): EditTarget => ({
  file: text.startsWith('{') ? parseJsonFile(text) : parseYamlFile(text),
});

function nodeAt(target: EditTarget, path: Path): AstNode {
  const node = nodeAtPath(target.file.root, path);
  assert.ok(node, `a node at ${JSON.stringify(path)}`);
  return node;
}

function keyAt(target: EditTarget, path: Path): AstNode {
  const key = getProperty(nodeAtPath(target.file.root, path.slice(0, -1)), String(path.at(-1)))?.keyNode;
  assert.ok(key, `a key at ${JSON.stringify(path)}`);
  return key;
}

/** The text after the edit, written in the file's line ending as the fix machinery writes it. */
function applied(target: EditTarget, edit: TextEdit): string {
  const text = target.file.source.text;
  const doc = TextDocument.create('file:///t', 'yaml', 1, text);
  return TextDocument.applyEdits(doc, inLineEndingOf(text, [edit]));
}

/**
 * Asserts that `build` turns `before` into `after` (undefined: builds no edit), with LF and
 * with CRLF line endings.
 */
function assertEdit(before: string, after: string | undefined, build: (t: EditTarget) => TextEdit | undefined): void {
  // A text without a line break has no line ending of its own: fixes write `\n` there.
  for (const eol of before.includes('\n') ? ['\n', '\r\n'] : ['\n']) {
    const target = targetOf(before.replace(/\n/g, eol));
    const edit = build(target);
    const label = `${JSON.stringify(before)} (${JSON.stringify(eol)})`;
    if (after === undefined) assert.strictEqual(edit, undefined, label);
    else {
      assert.ok(edit, label);
      assert.strictEqual(applied(target, edit), after.replace(/\n/g, eol), label);
    }
  }
}

describe('fix edits (shared/fixes/edits.ts)', () => {
  it('finds line starts, next line starts and indentation at any offset', () => {
    const text = 'a:\n  b: 1\n\tc';
    assert.deepStrictEqual(
      [0, 1, 2, 3, 5, 9, 10, 11].map((o) => lineStartOf(text, o)),
      [0, 0, 0, 3, 3, 3, 10, 10],
    );
    assert.deepStrictEqual(
      [0, 2, 3, 9, 10, 12].map((o) => nextLineStart(text, o)),
      [3, 3, 10, 10, 12, 12],
    );
    assert.strictEqual(nextLineStart('\nab', 0), 1);
    assert.deepStrictEqual(
      [0, 5, 8, 11].map((o) => indentOf(text, o)),
      ['', '  ', '  ', '\t'],
    );
  });

  it('finds the node spanning a range exactly, else the deepest node holding its start', () => {
    const text = 'x:\n  a: 1\n  b: bb\n';
    const root = targetOf(text).file.root;
    const cases: [start: number, end: number, expected: string | undefined][] = [
      [0, 18, 'object 0'], // the root
      [5, 18, 'object 5'], // the nested mapping, though its first key starts there too
      [0, 1, 'key x'],
      [12, 13, 'key b'],
      [15, 17, 'string bb'],
      [15, 16, 'string bb'], // inside a scalar
      [17, 17, 'string bb'], // at a scalar's end
      [6, 7, 'key a'], // at a key's end
      [8, 13, 'number 1'], // from a value to the end of the next key
      [11, 11, 'object 5'], // between two keys of the nested mapping
      [2, 2, 'object 0'],
      [30, 30, undefined],
    ];
    const describe = (n: AstNode | undefined) =>
      n && (n.keyOf ? `key ${n.keyOf.key}` : `${n.kind} ${n.kind === 'object' ? n.start : String(n.value)}`);
    for (const [start, end, expected] of cases)
      assert.strictEqual(describe(nodeForRange(root, start, end)), expected, `[${start}, ${end}]`);
    const list = targetOf('- a: 1\n- bb\n').file.root;
    assert.strictEqual(describe(nodeForRange(list, 2, 7)), 'object 2', 'a list item');
    assert.strictEqual(describe(nodeForRange(list, 9, 11)), 'string bb');
    assert.strictEqual(nodeForRange(undefined, 0, 0), undefined);
  });

  it('removes a list entry with its separator, leaving an emptied list as []', () => {
    const cases: [before: string, path: Path, after: string][] = [
      ['tools:\n  - a\n  - b\n  - c\nname: x\n', ['tools', 1], 'tools:\n  - a\n  - c\nname: x\n'],
      ['- a\n- b\n', [0], '- b\n'],
      ['tools:\n  - a\n  - b', ['tools', 1], 'tools:\n  - a\n'],
      ['- a: 1\n  b: 2\n- c\n', [0], '- c\n'], // an entry of several lines
      ['tools:\n  - a\nname: x\n', ['tools', 0], 'tools: []\nname: x\n'],
      ['tools :\n  - a\n', ['tools', 0], 'tools : []\n'],
      ['"tools":\n  - a # why\n', ['tools', 0], '"tools": []\n'],
      ['- a\n', [0], ''],
      // An entry that shares its line with the outer list's dash: the next entry takes its place.
      ['- - a\n  - b\n', [0, 0], '- - b\n'],
      ['- - a\n', [0, 0], '- []\n'],
      ['t:\n  - -5\n  - b\n', ['t', 0], 't:\n  - b\n'], // a value that starts with a dash
      ['tools: [a, b, c]\n', ['tools', 1], 'tools: [a, c]\n'],
      ['tools: [a, b, c]\n', ['tools', 2], 'tools: [a, b]\n'],
      ['tools: [a, b, c]\n', ['tools', 0], 'tools: [b, c]\n'],
      ['tools: [a]\n', ['tools', 0], 'tools: []\n'],
      ['{"tools": ["a", "b"]}', ['tools', 1], '{"tools": ["a"]}'],
      ['{"tools": ["a", "b"]}', ['tools', 0], '{"tools": ["b"]}'],
      ['{"tools": ["a"]}', ['tools', 0], '{"tools": []}'],
    ];
    for (const [before, path, after] of cases) assertEdit(before, after, (t) => removeItemEdit(t, nodeAt(t, path)));
  });

  it('removes a key with its value and its line, keeping the blank lines and keys around it', () => {
    const cases: [before: string, path: Path, after: string][] = [
      ['a: 1\nb: 2\nc: 3\n', ['b'], 'a: 1\nc: 3\n'],
      ['a:\n  - x\n\nb: 1', ['a'], '\nb: 1'],
      ['a: |\n  t\n\nb: 1\n', ['a'], '\nb: 1\n'],
      ['x:\n  a: 1\n  b: 2\n', ['x', 'a'], 'x:\n  b: 2\n'],
      ['a: 1   # why\nb: 2', ['a'], 'b: 2'],
      ['a: 1\nb: 2', ['b'], 'a: 1\n'],
      ['a:\nb: 1\n', ['a'], 'b: 1\n'],
      ['k: {a: 1, b: 2, c: 3}\n', ['k', 'b'], 'k: {a: 1, c: 3}\n'],
      ['k: {a: 1, b: 2, c: 3}\n', ['k', 'c'], 'k: {a: 1, b: 2}\n'],
      ['k: {a: 1}\n', ['k', 'a'], 'k: {}\n'],
      ['{"a": 1, "b": 2}', ['a'], '{"b": 2}'],
      ['{"a": 1, "b": 2}', ['b'], '{"a": 1}'],
      ['{"a": 1}', ['a'], '{}'],
      ['{\n  "a": 1,\n  "b": [2]\n}', ['b'], '{\n  "a": 1\n}'],
      ['{\n  "a": 1,\n  "b": [2]\n}', ['a'], '{\n  "b": [2]\n}'],
    ];
    for (const [before, path, after] of cases) assertEdit(before, after, (t) => removePropertyEdit(t, keyAt(t, path)));
  });

  it('replaces a value as a YAML scalar unless it is already written quoted; in JSON, keeps a string a string', () => {
    const cases: [before: string, value: string, replacement: string, after: string][] = [
      ['a: b\n', 'b', ': "x"', 'a: ": \\"x\\""\n'], // quoted at its end only: not a quoted scalar
      ['a: b\n', 'b', '"x" y', 'a: "\\"x\\" y"\n'], // quoted at its start only
      ['a: b\n', 'b', "'xy'", "a: 'xy'\n"],
      ['a: b\n', 'b', '""', 'a: ""\n'],
      ['a: b\n', 'b', '"', 'a: "\\""\n'],
      ["a: 'b'\n", "'b'", "it's", "a: 'it''s'\n"],
      ['{"a": "b"}', '"b"', '2', '{"a": "2"}'], // JSON text, but not a string, array or object
      ['{"a": "b"}', '"b"', ' []', '{"a": " []"}'],
      ['{"a": "b"}', '"b"', '["c"]', '{"a": ["c"]}'],
      ['{"a": ["b"]}', '["b"]', '3', '{"a": 3}'], // not a string: written as given
    ];
    for (const [before, value, replacement, after] of cases)
      assertEdit(before, after, (t) => {
        const start = t.file.source.text.indexOf(value);
        return replaceValueEdit(t, start, start + value.length, replacement);
      });
  });

  it('replaces a list entry by several, in the list’s own style', () => {
    const cases: [before: string, path: Path, values: string[], after: string][] = [
      ['{"t": ["a", "x"]}', ['t', 0], ['b', 'c'], '{"t": ["b", "c", "x"]}'],
      ['t: [a, x]\n', ['t', 0], ['b', 'yes'], 't: [b, "yes", x]\n'],
      ['t:\n  - a\n  - x\n', ['t', 0], ['b', 'c'], 't:\n  - b\n  - c\n  - x\n'],
      ['- a\n', [0], ['b', '#c'], '- b\n- "#c"\n'],
      ['t:\n  - -a\n', ['t', 0], ['b', 'c'], 't:\n  - b\n  - c\n'],
      ['- - a\n', [0, 0], ['b', 'c'], '- - b\n  - c\n'],
    ];
    for (const [before, path, values, after] of cases)
      assertEdit(before, after, (t) => replaceItemWithManyEdit(t, nodeAt(t, path), values));
  });

  it('appends to a list in its style, creating the list where the key has no value or is missing', () => {
    const cases: [before: string, path: Path, key: string, value: string, after: string | undefined][] = [
      ['{"t": []}', [], 't', 'a', '{"t": ["a"]}'],
      ['{"t": ["a"]}', [], 't', 'b', '{"t": ["a", "b"]}'],
      ['t: []\n', [], 't', 'a', 't: [a]\n'],
      ['t: [ ]\n', [], 't', 'a', 't: [ a]\n'],
      ['t: [a]\n', [], 't', 'yes', 't: [a, "yes"]\n'],
      ['x:\n  t:\n    - a\nz: 1\n', ['x'], 't', 'b', 'x:\n  t:\n    - a\n    - b\nz: 1\n'],
      ['t:\n  - a', [], 't', 'b', 't:\n  - a\n  - b\n'],
      ['t:\n  - a: 1\n    b: 2\nz: 1\n', [], 't', 'c', 't:\n  - a: 1\n    b: 2\n  - c\nz: 1\n'],
      ['t:\n  - a\nz: 1\n', [], 't', 'b', 't:\n  - a\n  - b\nz: 1\n'],
      ['t:\n  - -5\n', [], 't', 'b', 't:\n  - -5\n  - b\n'],
      ['t:\nz: 1\n', [], 't', 'a', 't: [a]\nz: 1\n'],
      ['t :\nz: 1\n', [], 't', 'a', 't : [a]\nz: 1\n'],
      ['z: 1\n', [], 't', 'a b', 'z: 1\nt: [a b]\n'],
      ['t: x\n', [], 't', 'a', undefined], // not a list: no place for it
      // A list written elsewhere, under an anchor: appending after the alias would break the file.
      ['b: &b [a]\nt: *b\n', [], 't', 'x', undefined],
      ['b: &b []\nt: *b\n', [], 't', 'x', undefined],
      ['b: &b\n  - a\nt: *b\n', [], 't', 'x', undefined],
      ['{}', [], 't', 'a', undefined],
    ];
    for (const [before, path, key, value, after] of cases)
      assertEdit(before, after, (t) => appendToListEdit(t, nodeAtPath(t.file.root, path), key, value));
    assert.strictEqual(appendToListEdit(targetOf('- a\n'), undefined, 't', 'a'), undefined);
  });

  it('inserts right after a key’s colon', () => {
    assertEdit('a :\nb: 1\n', 'a : x\nb: 1\n', (t) => afterColonEdit(t, keyAt(t, ['a']), ' x'));
    assertEdit('"a":\n', '"a": x\n', (t) => afterColonEdit(t, keyAt(t, ['a']), ' x'));
  });

  it('inserts key lines at the end of a block mapping, at its keys’ indentation', () => {
    const lines = ['b: 2', 'c: 3'];
    const cases: [before: string, path: Path, after: string | undefined][] = [
      ['a: 1\n', [], 'a: 1\nb: 2\nc: 3\n'],
      ['a: 1', [], 'a: 1\nb: 2\nc: 3\n'],
      ['x:\n  a: 1\nz: 1\n', ['x'], 'x:\n  a: 1\n  b: 2\n  c: 3\nz: 1\n'],
      ['x:\n  a: 1\nz: 1', ['x'], 'x:\n  a: 1\n  b: 2\n  c: 3\nz: 1'],
      ['x:\n  a: |\n    t\n\nz: 1\n', ['x'], 'x:\n  a: |\n    t\n  b: 2\n  c: 3\n\nz: 1\n'],
      ['x:\n  a: 1 # why\nz: 1\n', ['x'], 'x:\n  a: 1 # why\n  b: 2\n  c: 3\nz: 1\n'],
      // A mapping with no keys of its own (only a merge): before its first line.
      ['k:\n  <<: {}\nz: 1\n', ['k'], 'k:\n  b: 2\n  c: 3\n  <<: {}\nz: 1\n'],
      ['<<: {}', [], 'b: 2\nc: 3\n<<: {}'],
      ['x: {a: 1}\n', ['x'], undefined],
      ['b: &b\n  a: 1\nx: *b\n', ['x'], undefined],
    ];
    for (const [before, path, after] of cases)
      assertEdit(before, after, (t) => insertKeyLinesEdit(t, nodeAt(t, path), lines));
  });

  it('adds a JSON property in the object’s layout', () => {
    const cases: [before: string, path: Path, after: string][] = [
      ['{}', [], '{ "k": 1 }'],
      ['{"a": 1}', [], '{"a": 1, "k": 1}'],
      ['{\n  "a": 1\n}', [], '{\n  "a": 1,\n  "k": 1\n}'],
      ['{"a": 1,\n "b": 2, "c": 3}', [], '{"a": 1,\n "b": 2, "c": 3, "k": 1}'],
      ['{\n  "x": {"a": 1},\n  "y": 2\n}', ['x'], '{\n  "x": {"a": 1, "k": 1},\n  "y": 2\n}'],
    ];
    for (const [before, path, after] of cases)
      assertEdit(before, after, (t) => insertJsonPropertyEdit(t, nodeAt(t, path), 'k', '1'));
  });

  it('writes inserted line breaks in the file’s line ending, leaving other edits as they are', () => {
    const edits = [
      { range: rangeOf(targetOf('a'), 0, 0), newText: 'x\ny\r\n' },
      { range: rangeOf(targetOf('a'), 0, 0), newText: 'z' },
    ];
    assert.deepStrictEqual(
      inLineEndingOf('a\r\nb', edits).map((e) => e.newText),
      ['x\r\ny\r\n', 'z'],
    );
    assert.deepStrictEqual(
      inLineEndingOf('a\nb', edits).map((e) => e.newText),
      ['x\ny\r\n', 'z'],
    );
  });

  it('makes one minimal edit between two texts', () => {
    const cases: [before: string, after: string, edit: string][] = [
      ['abc', 'abc', '3-3:'],
      ['abc', 'aXc', '1-2:X'],
      ['aaa', 'aa', '2-3:'],
      ['aa', 'aaa', '2-2:a'],
      ['', 'x', '0-0:x'],
      ['ab', 'b', '0-1:'],
      ['ab', 'a', '1-2:'],
      ['one\ntwo\n', 'one\nTWO\n', '4-7:TWO'],
      ['abcd', 'ad', '1-3:'],
    ];
    for (const [before, after, expected] of cases) {
      const doc = TextDocument.create('file:///t', 'yaml', 1, before);
      const edit = minimalEdit(doc, before, after);
      const span = `${doc.offsetAt(edit.range.start)}-${doc.offsetAt(edit.range.end)}:${edit.newText}`;
      assert.strictEqual(span, expected, `${before} -> ${after}`);
      assert.strictEqual(TextDocument.applyEdits(doc, [edit]), after);
    }
  });
});

describe('applying several fixes at once (shared/fixes/apply-edits.ts)', () => {
  const text = '0123456789';
  const target = targetOf(text);
  /** A candidate fix made of edits written `start-end:text`. */
  const fix = (name: string, ...edits: string[]) => ({
    name,
    plan: {
      title: name,
      edits: edits.map((e) => {
        const [, start, end, newText] = /^(\d+)-(\d+):(.*)$/.exec(e)!;
        return { range: rangeOf(target, Number(start), Number(end)), newText };
      }),
    },
  });

  it('applies the fixes that neither overlap nor touch an accepted one, in any order of position', () => {
    const cases: [fixes: ReturnType<typeof fix>[], applied: string[], after: string][] = [
      [[fix('A', '5-6:x'), fix('B', '0-1:y')], ['A', 'B'], 'y1234x6789'],
      [[fix('A', '5-6:x'), fix('B', '8-9:y'), fix('C', '0-1:z')], ['A', 'B', 'C'], 'z1234x67y9'],
      [[fix('A', '0-2:x'), fix('B', '2-3:y')], ['A'], 'x23456789'], // touches A's end
      [[fix('A', '3-4:x'), fix('B', '1-3:y')], ['A'], '012x456789'], // touches A's start
      [[fix('A', '3-5:x'), fix('B', '4-4:y')], ['A'], '012x56789'], // inside A
      [[fix('A', '1-2:x'), fix('B', '2-3:y', '7-8:z')], ['A'], '0x23456789'], // one of its edits clashes
      [[fix('A', '4-4:x'), fix('B', '4-4:x')], ['A', 'B'], '0123x456789'], // the same edit counts once
      [[fix('A', '6-7:x'), fix('B', '2-3:y'), fix('C', '4-4:z')], ['A', 'B', 'C'], '01y3z45x789'],
    ];
    for (const [fixes, names, after] of cases) {
      const result = applyFixes(text, fixes);
      const label = fixes.map((f) => `${f.name} ${f.plan.edits.length}`).join(', ');
      assert.deepStrictEqual(
        result.applied.map((f) => f.name),
        names,
        label,
      );
      assert.strictEqual(result.text, after, label);
    }
  });

  it('tells where each applied fix’s edits landed, and keeps a leading BOM', () => {
    const a = fix('A', '5-6:xyz');
    const b = fix('B', '0-2:');
    const result = applyFixes(`\ufeff${text}`, [a, b]);
    assert.strictEqual(result.text, '\ufeff234xyz6789');
    assert.deepStrictEqual(result.spans.get(a), [{ start: 3, end: 6 }]);
    assert.deepStrictEqual(result.spans.get(b), [{ start: 0, end: 0 }]);
  });
});

describe('edits into YAML that reads as null', () => {
  const apply = (text: string, edit: TextEdit | undefined) => {
    assert.ok(edit, JSON.stringify(text));
    return TextDocument.applyEdits(TextDocument.create('file:///c.yaml', 'yaml', 1, text), [edit]);
  };
  const shell = { section: 'tools', key: 'polytoken', value: 'shell' } as const;

  it('a declared tool takes the place of `~`, `null` or an anchor alone; after comments or nothing it is added', () => {
    for (const [text, expected] of [
      ['~\n', 'tools:\n  polytoken: [shell]\n'],
      ['# kept\nnull # and this\n', '# kept\ntools:\n  polytoken: [shell] # and this\n'],
      ['&base\n', 'tools:\n  polytoken: [shell]\n'],
      ['# only a comment\n', '# only a comment\ntools:\n  polytoken: [shell]\n'],
      ['', 'tools:\n  polytoken: [shell]\n'],
    ])
      assert.strictEqual(apply(text, declareToolEdit(text, shell)), expected, JSON.stringify(text));
  });

  it('writtenNull: where the null is written, past comments; nothing for comments only or a mapping', () => {
    const at = (text: string) => writtenNull({ file: parseYamlFile(text) });
    assert.deepStrictEqual(at('# c\n  ~ # x\n'), { start: 6, end: 7 });
    assert.deepStrictEqual(at('!!null null\n'), { start: 0, end: 11 });
    assert.strictEqual(at('# c\n'), undefined);
    assert.strictEqual(at('a: 1\n'), undefined);
  });
});
