/**
 * The parts of the Profy dialect one level below the rules: glob expansion and its budget, the
 * main toolset and the three passes of an allowlist entry, the Expert model (drop reasons,
 * dropped entries, duplicates), the names a file registers and the new-Expert starter.
 */
import * as assert from 'assert';
import type { AstNode } from '../shared/text/tree';
import { expandGlob } from '../shared/dialects/profy/glob';
import { allowlistCandidates, allowlistEntry, mainToolset, type Toolset } from '../shared/dialects/profy/tools';
import { allowlistEntryAt, kindWord, sanitizedName } from '../shared/dialects/profy/model';
import { newDefinition } from '../shared/dialects/profy/new-definition';
import type { Skeleton } from '../shared/features/skeleton';
import { namesFromText } from '../shared/workspace/names';
import { def, expert, of, run, sub } from './support/profy';

const str = (value: string): AstNode => ({ kind: 'string', value, start: 0, end: value.length + 2 });
const toolset = (tools: string[]): Toolset => mainToolset(undefined, tools);

describe('profy: glob expansion', () => {
  const tools = ['read_file', 'mcp__a__x', 'grep', 'read', 'mcp__a__y', 'mcp__b__z'];

  it('a prefix glob returns its matches in the toolset order, the tool equal to the prefix included', () => {
    assert.deepStrictEqual(expandGlob('read*', tools), ['read_file', 'read']);
    assert.deepStrictEqual(expandGlob('mcp__a__?', tools), ['mcp__a__x', 'mcp__a__y']);
  });

  it('a prefix glob spends one attempt per tool with that prefix, and gives up past the budget', () => {
    const budget = { left: 2 };
    assert.deepStrictEqual(expandGlob('mcp__a*', tools, budget), ['mcp__a__x', 'mcp__a__y']);
    assert.strictEqual(budget.left, 0);
    // `?` ends the literal prefix: `m` alone, three candidates.
    const short = { left: 3 };
    assert.deepStrictEqual(expandGlob('m?p__b*', tools, short), ['mcp__b__z']);
    assert.strictEqual(short.left, 0);
    assert.strictEqual(expandGlob('mcp__a*', tools, { left: 1 }), undefined);
  });

  it('matches the pieces between stars in their order, each after the one before, never overlapping', () => {
    const names = ['aba', 'abba', 'abxba', 'baab', 'ab', 'ba'];
    assert.deepStrictEqual(expandGlob('*ab*ba*', names), ['abba', 'abxba']);
    assert.deepStrictEqual(expandGlob('a*b*a', names), ['aba', 'abba', 'abxba']);
  });

  it('a glob without a literal prefix spends one attempt per tool', () => {
    const budget = { left: tools.length };
    assert.deepStrictEqual(expandGlob('*_file', tools, budget), ['read_file']);
    assert.strictEqual(budget.left, 0);
    assert.strictEqual(expandGlob('*_file', tools, { left: tools.length - 1 }), undefined);
  });
});

describe('profy: the main toolset and an entry through the three passes', () => {
  it('a configured toolset keeps its strings once each, in order; none configured is unknown and empty', () => {
    const configured = mainToolset(undefined, ['read', 3, 'grep', 'read', null]);
    assert.deepStrictEqual([configured.known, configured.tools, configured.source], [true, ['read', 'grep'], 'config']);
    const unknown = mainToolset(undefined, undefined);
    assert.deepStrictEqual([unknown.known, unknown.tools, unknown.source], [false, [], 'unknown']);
  });

  it('a literal entry is looked up, never matched: it grants its tool with no budget left', () => {
    const entry = allowlistEntry(str('read'), toolset(['read', 'grep']), { left: 0 });
    assert.deepStrictEqual(
      [entry.kind, entry.granted, entry.unchecked, entry.unresolved],
      ['literal', ['read'], false, false],
    );
  });

  it('a glob past the budget is unchecked: neither granted nor unresolved', () => {
    const entry = allowlistEntry(str('gr*'), toolset(['read', 'grep']), { left: 0 });
    assert.deepStrictEqual([entry.kind, entry.granted, entry.unchecked, entry.unresolved], ['glob', [], true, false]);
  });

  it('against an unknown toolset an entry is unchecked, except an empty one, which can never resolve', () => {
    const unknown = mainToolset(undefined, undefined);
    assert.strictEqual(allowlistEntry(str('read'), unknown).unchecked, true);
    assert.strictEqual(allowlistEntry(str('re*'), unknown).unchecked, true);
    assert.strictEqual(allowlistEntry(str(''), unknown).unchecked, false);
    const { definitions } = run(JSON.stringify({ delegatable: false, subagents: [sub('s', [''])] }));
    assert.deepStrictEqual(def(definitions, 's').reasons, ['profy/no-tools']);
  });

  it('allowlist candidates: each grantable tool, one glob per MCP server, then `*`', () => {
    const tools = ['read', 'Task', 'mcp__ledger__post', 'xmcp__a__b', 'mcp__ledger__list', 'mcp__b', 'mcp__x__y'];
    const grantable = tools.filter((t) => t !== 'Task');
    assert.deepStrictEqual(allowlistCandidates(toolset(tools)), [
      ...grantable.map((t) => ({ text: t, kind: 'literal', granted: [t] })),
      { text: 'mcp__ledger__*', kind: 'glob', granted: ['mcp__ledger__post', 'mcp__ledger__list'] },
      { text: 'mcp__x__*', kind: 'glob', granted: ['mcp__x__y'] },
      { text: '*', kind: 'glob', granted: grantable },
    ]);
    assert.deepStrictEqual(allowlistCandidates(mainToolset(undefined, undefined)), []);
  });
});

describe('profy: the Expert model', () => {
  it('each entry that grants nothing is listed with why: not a string, no match, only reserved, not in the toolset', () => {
    const { definitions } = run(expert([sub('s', [{}, [], 3, null, true, 'zz*', 'delegat?', 'write', 'read'])]));
    const s = def(definitions, 's');
    assert.deepStrictEqual(s.tools, ['read']);
    assert.deepStrictEqual(s.dropped, [
      { entry: '{}', reason: 'not a string' },
      { entry: '[]', reason: 'not a string' },
      { entry: '3', reason: 'not a string' },
      { entry: 'null', reason: 'not a string' },
      { entry: 'true', reason: 'not a string' },
      { entry: 'zz*', reason: 'the glob matches no tool of the main toolset' },
      { entry: 'delegat?', reason: 'the glob matches only reserved tools' },
      { entry: 'write', reason: 'not in the main toolset' },
    ]);
  });

  it('each drop rule is a reason of its own, and a subagent that stops early keeps empty resolution fields', () => {
    const { definitions, model } = run(
      expert([
        { description: 'd', system_prompt: 'p', tools: ['read'] },
        sub('', ['read']),
        sub('t', 'read'),
        sub('Task', ['read']),
        sub('a b', ['read']),
        'text',
      ]),
    );
    const shown = definitions.map((d) => [d.name, d.reasons, d.tools]);
    assert.deepStrictEqual(shown, [
      ['#0', ['profy/missing-field'], ['read']],
      ['#1', ['profy/missing-field'], ['read']],
      ['t', ['profy/tools-not-array'], []],
      ['Task', ['profy/reserved-name'], ['read']],
      ['a b', ['profy/invalid-name'], ['read']],
      ['#5', ['profy/not-an-object'], []],
    ]);
    assert.deepStrictEqual(
      model!.subagents.slice(0, 2).map((s) => s.fieldProblems.map((p) => [p.field, p.why, p.node?.kind])),
      [[['name', 'missing', undefined]], [['name', 'empty', 'string']]],
    );
  });

  it('duplicates: a reserved or malformed name is left to its own rule; every later copy points at the first', () => {
    const subagents = [sub('a b', ['read']), sub('a b', ['read']), sub('Task', ['read']), sub('Task', ['read'])];
    const copies = [sub('s', ['read']), sub('s', ['grep']), sub('s', ['glob'])];
    const text = expert([...subagents, ...copies]);
    const { definitions, diagnostics } = run(text);
    assert.deepStrictEqual(
      definitions.map((d) => d.reasons),
      [
        ['profy/invalid-name'],
        ['profy/invalid-name'],
        ['profy/reserved-name'],
        ['profy/reserved-name'],
        [],
        ['profy/duplicate-name'],
        ['profy/duplicate-name'],
      ],
    );
    const firstLine = definitions[4].range!.start.line;
    const duplicates = of(diagnostics, 'profy/duplicate-name');
    assert.deepStrictEqual(
      duplicates.map((d) => d.data),
      [
        { rule: 'profy/duplicate-name', firstLine },
        { rule: 'profy/duplicate-name', firstLine },
      ],
    );
    for (const d of duplicates)
      assert.match(String(d.message), new RegExp(`earlier subagent \\(line ${firstLine + 1}\\)`));
    const builtin = run(expert([sub('general', ['read'])]), 'profy:\n  builtinSubagents: [general]\n');
    assert.deepStrictEqual(of(builtin.diagnostics, 'profy/duplicate-name')[0].data, {
      rule: 'profy/duplicate-name',
      builtin: 'general',
    });
  });

  it('sanitizedName: each run of white space and forbidden characters becomes one `_`, none at the ends', () => {
    const cases: [string, string][] = [
      ['a  b', 'a_b'],
      ['a _b', 'a_b'],
      [' <a>&"b\' ', 'a_b'],
      ['a\u3000b\u0085c', 'a_b_c'],
      ['  ', ''],
    ];
    assert.deepStrictEqual(
      cases.map(([name]) => [name, sanitizedName(name)]),
      cases,
    );
  });

  it('kindWord names every kind of node for messages', () => {
    const kinds = ['object', 'array', 'string', 'number', 'boolean', 'null', 'unknown'] as const;
    assert.deepStrictEqual(
      kinds.map((kind) => kindWord({ kind, start: 0, end: 0 })),
      ['an object', 'a list', 'a string', 'a number', 'a boolean', 'null', 'an unreadable value'],
    );
    const { diagnostics } = run(expert([sub('s', true)]));
    assert.match(String(of(diagnostics, 'profy/tools-not-array')[0].message), /^`tools` is a boolean, not a list/);
  });

  it('allowlistEntryAt finds the entry of a node, and nothing for a node that is no entry', () => {
    const { model } = run(expert([sub('s', ['read']), sub('t', ['grep', 'glob'])]));
    const glob = model!.subagents[1].entries[1];
    assert.strictEqual(allowlistEntryAt(model!, glob.node), glob);
    assert.strictEqual(allowlistEntryAt(model!, model!.subagents[1].node), undefined);
  });
});

describe('profy: resolution notes and silenced rules', () => {
  it('unknown toolset: a note on each subagent whose allowlist could be checked, none otherwise', () => {
    const text = JSON.stringify({ delegatable: false, subagents: [sub('s', ['read']), sub('t', 'read'), 'text'] });
    const notes = run(text).definitions.map((d) => (d as { notes?: string[] }).notes);
    assert.strictEqual(notes[0]?.length, 1);
    assert.match(notes[0]![0], /^The main agent's toolset is unknown .*cannot be told\.$/);
    assert.deepStrictEqual(notes.slice(1), [undefined, undefined]);
    const known = run(expert([sub('s', ['read'])])).definitions[0];
    assert.ok(!('notes' in known), 'no note when the toolset is known');
  });

  it('a drop rule turned off is listed as silenced; none listed when every reason shows', () => {
    const text = expert([sub('s', []), sub('t', ['nope'])]);
    const off = run(text, 'rules:\n  profy/no-tools: "off"\n').definitions;
    assert.deepStrictEqual(
      off.map((d) => [d.status, d.silenced]),
      [
        ['dropped', ['profy/no-tools']],
        ['dropped', ['profy/no-tools']],
      ],
    );
    assert.ok(run(text).definitions.every((d) => !('silenced' in d)));
  });
});

describe('profy: names and the new-Expert starter', () => {
  it("a file registers the Expert's name, then each subagent with a non-empty string name", () => {
    const text = expert([sub('scan', ['read']), sub(''), sub(3), 'text', sub('audit')]);
    const names = namesFromText('profy', text, '/work/ws/bookkeeper.expert.json');
    assert.deepStrictEqual(
      names?.map((n) => [n.name, n.container]),
      [
        ['bookkeeper', undefined],
        ['scan', 'bookkeeper'],
        ['audit', 'bookkeeper'],
      ],
    );
  });

  it('a new Expert: one subagent within the main toolset, loading, with a note on where a subagent belongs', () => {
    // Typed apart: under mutation the module's arrow function may return nothing.
    const skeleton: Skeleton | undefined = newDefinition('scan', 'Finds clauses.');
    assert.ok(skeleton);
    assert.strictEqual(skeleton.path, 'scan.expert.json');
    assert.ok(skeleton.text.endsWith('}\n'));
    assert.deepStrictEqual(JSON.parse(skeleton.text).tools, ['read', 'grep', 'glob']);
    assert.match(skeleton.note!, /entry of an Expert's `subagents`/);
    const { diagnostics, definitions } = run(skeleton.text);
    assert.deepStrictEqual(diagnostics, []);
    assert.deepStrictEqual(
      definitions.map((d) => [d.name, d.status, d.tools]),
      [['scan', 'loads', ['grep', 'read']]],
    );
  });
});
