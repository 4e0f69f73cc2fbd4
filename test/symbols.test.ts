/**
 * Folding ranges, document symbols and workspace symbols as the engine answers them, in-process
 * (test/lsp/structure asks the real server the same; the mutation run sees only these).
 */
import * as assert from 'assert';
import { SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver-types';
import { analyze } from '../shared/engine';
import { documentSymbols, foldingRanges, workspaceSymbols } from '../shared/features/symbols';
import type { IndexedFile } from '../shared/workspace/names';
import { configOf } from './support/editor';

const config = configOf('');
const analysisOf = (text: string, path: string) => analyze({ text, path, config, root: '/w' });
const folds = (text: string, path: string) =>
  foldingRanges(analysisOf(text, path)).map((r: FoldingRange) => [r.startLine, r.endLine, r.kind ?? '']);

const POLYTOKEN = '/w/.polytoken/subagents/review-bot.md';
const PICASSO = '/w/apps/cli/agents/planner.yaml';
const EXPERT = '/w/experts/book.expert.json';

describe('folding ranges', () => {
  it('Markdown: the frontmatter as a region, and each multi-line list or mapping to its last non-blank line', () => {
    const text = '---\nname: review-bot\ndescription: d\ntools:\n  - Read\n  - Grep\n\n---\nbody\n';
    assert.deepStrictEqual(folds(text, POLYTOKEN), [
      [0, 7, 'region'],
      [3, 5, ''],
    ]);
  });

  it('YAML: a list of mappings folds as one value, its entries not on their own', () => {
    const text = 'name: planner\nextra:\n  - a: 1\n    b: 2\n  - c: 3\n    d: 4\n';
    assert.deepStrictEqual(folds(text, PICASSO), [[1, 5, '']]);
  });

  it('YAML: one-line collections do not fold; nested mappings fold each', () => {
    const text = 'name: planner\ntools: [Read, Grep]\nextra:\n  inner:\n    a: 1\n    b: 2\n  flat: {x: 1}\n';
    assert.deepStrictEqual(folds(text, PICASSO), [
      [2, 6, ''],
      [3, 5, ''],
    ]);
  });

  it('JSON: a collection folds up to the line before its closing bracket, list entries included', () => {
    const text = [
      '{', // 0
      '  "name": "e",', // 1
      '  "subagents": [', // 2
      '    {', // 3
      '      "name": "a"', // 4
      '    },', // 5
      '    { "name": "b" }', // 6
      '  ],', // 7
      '  "x": [', // 8
      '    [', // 9
      '      1,', // 10
      '      2', // 11
      '    ],', // 12
      '    [3]', // 13
      '  ]', // 14
      '}', // 15
    ].join('\n');
    assert.deepStrictEqual(folds(text, EXPERT), [
      [2, 6, ''],
      [3, 4, ''],
      [8, 13, ''],
      [9, 11, ''],
    ]);
  });

  it('stops 21 levels down: a deeper nesting folds no further', () => {
    const depth = 25;
    let text = 'name: planner\n';
    for (let level = 0; level < depth; level++) text += `${'  '.repeat(level)}k${level}:\n`;
    text += `${'  '.repeat(depth)}leaf: 1\n`;
    const ranges = folds(text, PICASSO);
    // The root's keys are visited at depth 0, so levels 0 to 20 fold and level 21 on do not.
    assert.deepStrictEqual(
      ranges.map((r) => r[0]),
      Array.from({ length: 21 }, (_, level) => level + 1),
    );
  });

  it('nothing for a file no dialect reads', () => {
    assert.deepStrictEqual(foldingRanges(undefined), []);
  });
});

describe('document symbols', () => {
  const shape = (symbols: DocumentSymbol[] | undefined): unknown =>
    (symbols ?? []).map((s) =>
      s.children ? [s.name, s.kind, s.detail ?? '', shape(s.children)] : [s.name, s.kind, s.detail ?? ''],
    );

  it('the definition, its keys with a preview of their values, and mappings three levels down', () => {
    const long = 'x'.repeat(61);
    const text = `name: planner\ndescription: ${long}\nsixty: ${'y'.repeat(60)}\nmax_turns: 3\nflag: true\ntools: [Read, Grep]\na:\n  b:\n    c:\n      d:\n        e: 1\nnothing: null\n`;
    const [top] = documentSymbols(analysisOf(text, PICASSO));
    assert.strictEqual(top.name, 'planner');
    assert.deepStrictEqual(shape(top.children), [
      ['name', SymbolKind.String, 'planner'],
      ['description', SymbolKind.String, 'x'.repeat(57) + '\u2026'],
      ['sixty', SymbolKind.String, 'y'.repeat(60)],
      ['max_turns', SymbolKind.Number, '3'],
      ['flag', SymbolKind.Boolean, 'true'],
      ['tools', SymbolKind.Array, '2 entries'],
      [
        'a',
        SymbolKind.Object,
        '',
        [['b', SymbolKind.Object, '', [['c', SymbolKind.Object, '', [['d', SymbolKind.Object, '']]]]]],
      ],
      ['nothing', SymbolKind.Null, ''],
    ]);
  });

  it('a multi-line string previews its first line; the frontmatter is the Markdown definition', () => {
    const text = '---\nname: review-bot\ndescription: |\n  first\n  second\n---\nbody\n';
    const [top] = documentSymbols(analysisOf(text, POLYTOKEN));
    assert.deepStrictEqual(top.range, { start: { line: 0, character: 0 }, end: { line: 6, character: 0 } });
    // The closing fence belongs to it.
    assert.deepStrictEqual(top.selectionRange, { start: { line: 1, character: 6 }, end: { line: 1, character: 16 } });
    assert.strictEqual(top.children?.find((c) => c.name === 'description')?.detail, 'first');
  });

  it('nothing for a file no dialect reads, or whose root is not a mapping', () => {
    assert.deepStrictEqual(documentSymbols(undefined), []);
    assert.deepStrictEqual(documentSymbols(analysisOf('- a\n- b\n', PICASSO)), []);
  });
});

describe('workspace symbols', () => {
  const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };
  const file = (uri: string, ...names: string[]): IndexedFile => ({
    uri,
    kind: 'picasso',
    names: names.map((name) => ({ name, range, symbolKind: SymbolKind.Class })),
  });

  it('exact match first, then prefixes, then the rest containing the query, each by name; case-insensitive', () => {
    const files = [file('file:///a', 'Scout', 'rescue', 'scouting', 'other'), file('file:///b', 'scout2', 'ascot')];
    assert.deepStrictEqual(
      workspaceSymbols(files, 'SCOUT').map((s) => s.name),
      ['Scout', 'scout2', 'scouting'],
    );
    assert.deepStrictEqual(
      workspaceSymbols(files, 'sc').map((s) => s.name),
      ['Scout', 'scout2', 'scouting', 'ascot', 'rescue'],
    );
    const [first] = workspaceSymbols(files, 'ascot');
    assert.deepStrictEqual(first, {
      name: 'ascot',
      kind: SymbolKind.Class,
      containerName: 'picasso',
      location: { uri: 'file:///b', range },
    });
  });

  it('an empty query lists every name, at most 1,000', () => {
    const names = Array.from({ length: 1005 }, (_, i) => `n${String(i).padStart(4, '0')}`);
    const all = workspaceSymbols([file('file:///many', ...names.slice().reverse())], '');
    assert.strictEqual(all.length, 1000);
    assert.deepStrictEqual(
      all.slice(0, 2).map((s) => s.name),
      ['n0000', 'n0001'],
    );
    assert.strictEqual(all[999].name, 'n0999');
  });
});
