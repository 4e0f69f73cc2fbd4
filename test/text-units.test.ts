/**
 * Small text helpers as units: "did you mean" suggestions and their budget, the size and binary
 * limits, the cap on syntax errors, offsets and lines, quick names, paths in the tree. The rules that use them are pinned by the golden fixtures; these pin the edges.
 */
import * as assert from 'assert';
import { nearestName, withSuggestionBudget } from '../shared/text/nearest';
import { MAX_FILE_CHARS, sizeOverLimit, tooLargeReason, unreadableReason } from '../shared/text/limits';
import { MAX_SYNTAX_ERRORS, SyntaxErrorSink } from '../shared/text/syntax-errors';
import { lineEndingOf, SourceText } from '../shared/text/source';
import { quickFrontmatterName, quickYamlName } from '../shared/text/quick-name';
import { parseJsonFile, parseYamlFile } from '../shared/text/document';
import { nodeAtOffset, nodeAtPath, pathOf, toPlain, type AstNode } from '../shared/text/tree';

describe('nearestName: the closest candidate within an edit distance', () => {
  it('picks the smallest distance, whatever the order of the candidates', () => {
    assert.strictEqual(nearestName('Grep', ['Glob', 'Grp', 'Bash']), 'Grp');
    assert.strictEqual(nearestName('Grep', ['Grp', 'Glob', 'Bash']), 'Grp');
    assert.strictEqual(nearestName('Edit', ['Edits', 'Exit', 'Edit']), 'Edit', 'an exact match wins');
  });

  it('breaks a tie by name, so the suggestion does not depend on the catalog order', () => {
    assert.strictEqual(nearestName('c-tool', ['b-tool', 'a-tool']), 'a-tool');
    assert.strictEqual(nearestName('c-tool', ['a-tool', 'b-tool']), 'a-tool');
    // A later, closer candidate still wins over an earlier tie winner.
    assert.strictEqual(nearestName('c-tool', ['b-tool', 'a-tool', 'c-tool']), 'c-tool');
  });

  it('suggests nothing past the distance, and counts a length difference of exactly the distance', () => {
    assert.strictEqual(nearestName('Read', ['Write', 'Bash']), undefined);
    assert.strictEqual(nearestName('ab', ['abcd']), 'abcd', 'two insertions, the default distance');
    assert.strictEqual(nearestName('ab', ['abcde']), undefined);
    assert.strictEqual(nearestName('ab', ['abc'], 0), undefined);
    assert.strictEqual(nearestName('ab', ['xb', 'ab'], 0), 'ab');
    assert.strictEqual(nearestName('abcdef', ['abcxyz'], 3), 'abcxyz');
    assert.strictEqual(nearestName('abcdef', ['abcxyz'], 2), undefined);
    assert.strictEqual(nearestName('x', []), undefined);
  });

  it('stops suggesting once the budget of comparisons is spent, and restores the budget after', () => {
    assert.strictEqual(
      withSuggestionBudget(2, () => nearestName('Grep', ['Grp', 'Gre'])),
      'Gre',
    );
    assert.strictEqual(
      withSuggestionBudget(1, () => nearestName('Grep', ['Grp', 'Gre'])),
      undefined,
    );
    assert.strictEqual(
      withSuggestionBudget(0, () => nearestName('Grep', ['Grep'])),
      undefined,
    );
    // Candidates skipped by length cost nothing.
    assert.strictEqual(
      withSuggestionBudget(1, () => nearestName('Grep', ['MultiEdit', 'Grp'])),
      'Grp',
    );
    // The budget is shared by the calls inside one run.
    const both = withSuggestionBudget(3, () => [
      nearestName('Grep', ['Grp', 'Gre']),
      nearestName('Rea', ['Read', 'Reap']),
    ]);
    assert.deepStrictEqual(both, ['Gre', undefined]);
    // Outside a run there is no limit, also after a run that threw.
    assert.throws(() =>
      withSuggestionBudget(0, () => {
        throw new Error('boom');
      }),
    );
    assert.strictEqual(nearestName('Grep', ['Grp', 'Gre']), 'Gre');
  });
});

describe('limits: what is too large or binary to check', () => {
  it('names the size in MB with one decimal and the limit in whole MB', () => {
    assert.strictEqual(sizeOverLimit(12.34 * 1024 * 1024, 5 * 1024 * 1024), '12.3 MB, above the 5 MB limit');
    assert.strictEqual(sizeOverLimit(1536 * 1024, 1024 * 1024), '1.5 MB, above the 1 MB limit');
    assert.strictEqual(
      tooLargeReason(6 * 1024 * 1024),
      'The file is 6.0 MB, above the 5 MB limit, so it is not checked; a definition this large is almost certainly not one.',
    );
  });

  it('refuses a text one character over the limit, or one holding a NUL, and nothing else', () => {
    assert.strictEqual(unreadableReason('a'.repeat(MAX_FILE_CHARS)), undefined);
    assert.match(unreadableReason('a'.repeat(MAX_FILE_CHARS + 1)) ?? '', /^The file is 5\.0 MB, above the 5 MB limit/);
    assert.match(unreadableReason('name: a\u0000b') ?? '', /NUL bytes/);
    assert.strictEqual(unreadableReason('name: a\u0001b\n'), undefined);
    assert.strictEqual(unreadableReason(''), undefined);
  });
});

describe('syntax errors: the first 50 by position, then one that counts the rest', () => {
  const error = (start: number) => ({ start, end: start + 1, message: `at ${start}` });

  it('keeps every error up to the limit, in position order, with no summary', () => {
    const sink = new SyntaxErrorSink('YAML');
    for (let i = MAX_SYNTAX_ERRORS; i > 0; i--) sink.add(error(i));
    const out = sink.result();
    assert.strictEqual(out.length, MAX_SYNTAX_ERRORS);
    assert.deepStrictEqual(
      out.map((e) => e.start),
      Array.from({ length: MAX_SYNTAX_ERRORS }, (_, i) => i + 1),
    );
  });

  it('one over the limit: the last by position is dropped and counted, at the last kept position', () => {
    const sink = new SyntaxErrorSink('JSON');
    for (let i = MAX_SYNTAX_ERRORS + 1; i > 0; i--) sink.add(error(i));
    const out = sink.result();
    assert.strictEqual(out.length, MAX_SYNTAX_ERRORS + 1);
    assert.strictEqual(out[MAX_SYNTAX_ERRORS - 1].start, MAX_SYNTAX_ERRORS);
    assert.deepStrictEqual(out[MAX_SYNTAX_ERRORS], {
      start: MAX_SYNTAX_ERRORS,
      end: MAX_SYNTAX_ERRORS + 1,
      message: '1 more JSON syntax errors follow; fix the ones above first.',
    });
  });

  it('counts every dropped error across batches, and keeps the earliest whatever the arrival order', () => {
    const sink = new SyntaxErrorSink('YAML');
    const total = 1000;
    for (let i = 0; i < total; i++) sink.add(error((i * 7919) % total)); // a permutation of 0..999
    const out = sink.result();
    assert.deepStrictEqual(
      out.slice(0, MAX_SYNTAX_ERRORS).map((e) => e.start),
      Array.from({ length: MAX_SYNTAX_ERRORS }, (_, i) => i),
    );
    assert.strictEqual(
      out[MAX_SYNTAX_ERRORS].message,
      `${total - MAX_SYNTAX_ERRORS} more YAML syntax errors follow; fix the ones above first.`,
    );
    // Asking twice changes nothing (and the first answer is not the sink's own list).
    const first = [...out];
    assert.deepStrictEqual(sink.result(), first);
    assert.deepStrictEqual(out, first);
  });
});

describe('source text: offsets, lines and line endings', () => {
  it('takes the line ending of the first line break', () => {
    assert.strictEqual(lineEndingOf('a\r\nb\nc'), '\r\n');
    assert.strictEqual(lineEndingOf('a\nb\r\nc'), '\n');
    assert.strictEqual(lineEndingOf('abc'), '\n');
    assert.strictEqual(lineEndingOf('\nb\r\n'), '\n');
    assert.strictEqual(lineEndingOf('\r\nb'), '\r\n', 'a text that starts with CRLF');
  });

  it('drops a leading BOM, so positions agree with the editor', () => {
    const source = new SourceText('\ufeffname: a\n');
    assert.strictEqual(source.text, 'name: a\n');
    assert.deepStrictEqual(source.position(0), { line: 0, character: 0 });
    assert.strictEqual(new SourceText('x\ufeff').text, 'x\ufeff', 'only a leading one');
  });

  it('gives each line its range without the line break, LF or CRLF, and an empty range past a reversed end', () => {
    const source = new SourceText('ab\r\ncd\n\nlast');
    assert.strictEqual(source.lineCount, 4);
    const range = (line: number) => source.lineRange(line);
    assert.deepStrictEqual(range(0), { start: { line: 0, character: 0 }, end: { line: 0, character: 2 } });
    assert.deepStrictEqual(range(1), { start: { line: 1, character: 0 }, end: { line: 1, character: 2 } });
    assert.deepStrictEqual(range(2), { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } });
    assert.deepStrictEqual(range(3), { start: { line: 3, character: 0 }, end: { line: 3, character: 4 } });
    assert.deepStrictEqual(source.firstLine(), range(0));
    assert.deepStrictEqual(source.range(5, 2), { start: source.position(5), end: source.position(5) });
    assert.strictEqual(source.offset({ line: 1, character: 1 }), 5);
    // A lone CR ends a line too: the range stops before it, not on the next line.
    assert.deepStrictEqual(new SourceText('a\rb').lineRange(0), {
      start: { line: 0, character: 0 },
      end: { line: 0, character: 1 },
    });
  });
});

describe('quick names: a top-level name read off plain lines, or nothing', () => {
  const at = (text: string, name: string, quoted = false) => {
    const start = text.indexOf(quoted ? `${text[text.indexOf(name) - 1]}${name}` : name);
    return { name, start, end: start + name.length + (quoted ? 2 : 0) };
  };

  it('reads a plain, double- or single-quoted name with its span (quotes included)', () => {
    for (const text of [
      'name: helper\n',
      'model: m\nname: helper\ntools: []\n',
      'name:   helper   # why\n',
      'name: helper', // no final line break
      '   \nname: helper\n', // a line of spaces first
    ])
      assert.deepStrictEqual(quickYamlName(text), at(text, 'helper'), JSON.stringify(text));
    for (const text of ['name: "a b"\n', "name: 'a b'\n", 'name: "true"\n'])
      assert.deepStrictEqual(quickYamlName(text), at(text, text.slice(7, -2), true), JSON.stringify(text));
    const md = '---\r\ndescription: d\r\nname: fm\r\n---\r\nbody\n';
    assert.deepStrictEqual(quickFrontmatterName(md), at(md, 'fm'));
    assert.deepStrictEqual(quickYamlName('# note\n\nname: a.b-c_d\n'), at('# note\n\nname: a.b-c_d\n', 'a.b-c_d'));
  });

  it('leaves to the parser anything it cannot be sure of', () => {
    const unsure = [
      'name: true\n', // a YAML word, not a string
      'name: Off\n',
      'name: 1abc\n', // not an identifier
      'name:\thelper\n', // a tab
      'name: a\rdescription: d\n', // a lone CR
      '  name: a\n', // indented first: perhaps no mapping at top level
      'name: a\n  more\n', // the value goes on
      'name: "a\\"b"\n', // an escape
      'description: "open\nname: a\n', // a quote left open
      "description: 'open\nname: a\n",
      'description: "it\'s\nname: a\n', // one quote of each kind, both left open
      'description: "\\"\nname: a\n', // an escaped quote: the string goes on
      'description: "a\\tb"\nname: a\n', // an escape other than \" and \\
      '  x: 1\nname: a\n', // indented first, a key after it
      '"key": 1\nname: a\n', // a key that is not a plain word
      'description: [a,\nname: a\n', // a flow sequence left open
      'description: {a: 1\nname: a\n', // a flow mapping left open
      '- name: a\n', // a sequence, not a mapping
      'name: [a]\n',
    ];
    for (const text of unsure) assert.strictEqual(quickYamlName(text), undefined, JSON.stringify(text));
    assert.strictEqual(quickFrontmatterName('---\nname: a\n'), undefined, 'no closed frontmatter');
    assert.strictEqual(quickFrontmatterName('name: a\n'), undefined);
  });

  it('reads past lines whose quotes and brackets close, and indented lines after a key', () => {
    const text = 'description: "a [b] {c}"\ntools: [Read, \'Grep\']\nnested:\n  deep: 1\nname: ok\n';
    assert.deepStrictEqual(quickYamlName(text), at(text, 'ok'));
    const escaped = 'description: "say \\"hi\\" \\\\"\nname: ok\n';
    assert.deepStrictEqual(quickYamlName(escaped), at(escaped, 'ok'));
    assert.strictEqual(quickYamlName('description: a\n'), undefined, 'no name at all');
  });
});

describe('tree: the path of a node', () => {
  it('gives each item of a list its index, asked in any order and again', () => {
    for (const parsed of [
      parseJsonFile('{"a": [{"b": [1, 2, 3]}, 4, 5]}'),
      parseYamlFile('a:\n  - b: [1, 2, 3]\n  - 4\n  - 5\n'),
    ]) {
      const list = nodeAtPath(parsed.root, ['a']);
      const inner = nodeAtPath(parsed.root, ['a', 0, 'b']);
      assert.deepStrictEqual(pathOf(list!.items![2]), ['a', 2]);
      assert.deepStrictEqual(pathOf(inner!.items![1]), ['a', 0, 'b', 1]);
      assert.deepStrictEqual(pathOf(list!.items![1]), ['a', 1]);
      assert.deepStrictEqual(pathOf(inner!.items![2]), ['a', 0, 'b', 2]);
      assert.deepStrictEqual(pathOf(list!.items![2]), ['a', 2]);
      assert.deepStrictEqual(pathOf(parsed.root!), []);
    }
  });
});

describe('tree: plain values and the node at an offset', () => {
  it('keeps the first of two equal keys, and `__proto__` as an own key, not the prototype', () => {
    // The parsers drop a repeated key; a tree made by hand keeps both.
    const root = parseJsonFile('{"a": 1, "__proto__": {"polluted": true}, "b": 2}').root!;
    root.properties![2].key = 'a';
    const plain = toPlain(root) as Record<string, unknown>;
    assert.deepStrictEqual(Object.keys(plain), ['a', '__proto__']);
    assert.strictEqual(plain.a, 1);
    assert.strictEqual(Object.getPrototypeOf(plain), Object.prototype);
    assert.deepStrictEqual(Object.getOwnPropertyDescriptor(plain, '__proto__'), {
      value: { polluted: true },
      enumerable: true,
      writable: true,
      configurable: true,
    });
    assert.strictEqual(({} as Record<string, unknown>).polluted, undefined);
  });

  it('finds a key from its first to its last character, a value after it, and nothing outside the root', () => {
    const text = '{"aa": 1, "bb": [2, 3]}';
    const root = parseJsonFile(text).root!;
    const at = (offset: number): AstNode | undefined => nodeAtOffset(root, offset);
    const key = root.properties![1].keyNode;
    assert.strictEqual(at(key.start), key);
    assert.strictEqual(at(key.end), key);
    assert.strictEqual(at(0), root, 'the brace is the root, not its first key');
    const three = nodeAtPath(root, ['bb', 1])!;
    assert.strictEqual(at(three.start), three, 'a value of a later property');
    assert.strictEqual(at(three.end), three);
    assert.strictEqual(at(text.length), root, 'the root holds its own end');
    assert.strictEqual(at(text.length + 1), undefined);
    const inner = parseJsonFile(`  ${text}`).root!;
    assert.strictEqual(nodeAtOffset(inner, 1), undefined, 'before the root');
    assert.strictEqual(nodeAtOffset(undefined, 0), undefined);
  });
});
