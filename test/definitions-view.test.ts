/**
 * The Subagents view's wording (client/definitions-model.ts), from real summaries and resolutions
 * of the engine, and its data store (client/definitions-store.ts): which nodes an answer refreshes.
 */
import * as assert from 'assert';
import { analyze } from '../shared/engine';
import { defaultLoadedConfig } from '../shared/config/config';
import { summarizeFile, workspaceRuntimes } from '../shared/features/workspace-summary';
import { resolveWithProvenance } from '../shared/features/resolve';
import { definitionDescription, hasProblems, problemsLine, statusLine, toolRows } from '../client/definitions-model';
import { DefinitionsStore } from '../client/definitions-store';
import type { WorkspaceDefinition } from '../shared/protocol';

const ROOT = '/ws';
function summaries(rel: string, text: string) {
  const path = `${ROOT}/${rel}`;
  const analysis = analyze({ text, path, config: defaultLoadedConfig(ROOT), root: ROOT });
  return {
    defs: summarizeFile(analysis, `file://${path}`, { folder: ROOT }),
    resolution: resolveWithProvenance(analysis, `file://${path}`)!,
  };
}

describe('the Subagents view', () => {
  it('describes a definition by its tools and shown problems, and filters on status or problems', () => {
    const { defs } = summaries(
      '.polytoken/subagents/reviewer.md',
      '---\nname: reviewer\ndescription: Reviews.\npolytoken:\n  tools: [file_read, file_raed, grep]\n---\nReview.\n',
    );
    const [d] = defs;
    assert.strictEqual(d.status, 'loads');
    assert.ok(!('reasons' in d), 'a definition that loads has no reasons');
    assert.strictEqual(d.group, 'ws');
    // file_raed is not in the catalog: counted apart.
    assert.strictEqual(d.unknown, 1);
    assert.strictEqual(definitionDescription(d), '3 tools + 1 unknown · 1 ⚠');
    assert.strictEqual(problemsLine(d), '1 warning');
    assert.strictEqual(hasProblems(d), true, 'a warning is a problem');
    assert.strictEqual(
      hasProblems({ ...d, problems: { errors: 0, warnings: 0, information: 0, hints: 2 } }),
      false,
      'hints are not',
    );
    assert.strictEqual(
      hasProblems({ ...d, status: 'shadowed', problems: { errors: 0, warnings: 0, information: 0, hints: 0 } }),
      true,
    );
    assert.strictEqual(
      definitionDescription({
        ...d,
        tools: 1,
        unknown: 0,
        problems: { errors: 2, warnings: 1, information: 1, hints: 0 },
      }),
      '1 tool · 2 ✕ 1 ⚠ 1 ℹ',
    );
    assert.strictEqual(
      problemsLine({ ...d, problems: { errors: 2, warnings: 1, information: 1, hints: 3 } }),
      '2 errors, 1 warning, 1 info',
    );
    assert.strictEqual(
      problemsLine({ ...d, problems: { errors: 0, warnings: 0, information: 0, hints: 3 } }),
      undefined,
    );
    assert.match(
      statusLine(d),
      /^\*\*Loads\*\*: the runtime grants it 3 tools \+ 1 unknown \(not in the catalog: likely no such tool\)\.$/,
    );
    assert.match(statusLine({ ...d, tools: 3, unknown: 0 }), /^\*\*Loads\*\*: the runtime grants it 3 tools\.$/);
    assert.match(
      statusLine({ ...d, status: 'shadowed', shadowedBy: 'a/.polytoken/subagents/reviewer.md' }),
      /replaces it \(a\/\.polytoken\/subagents\/reviewer\.md\)/,
    );
  });

  it('lists granted tools with their source, then the removed ones with what removed them', () => {
    const { resolution } = summaries(
      '.polytoken/subagents/triage.md',
      '---\nname: triage\ndescription: Sorts.\npolytoken:\n  tools: [file_read, grep, tag!ALL]\n  tools_deny: [grep]\n  undeferred_tools: [file_read]\n---\nSort.\n',
    );
    const rows = toolRows(resolution.definitions[0]);
    const fileRead = rows.find((r) => r.label === 'file_read');
    assert.deepStrictEqual(fileRead && { kind: fileRead.kind, description: fileRead.description }, {
      kind: 'granted',
      description: 'tools, tools: tag!ALL · undeferred',
    });
    const grep = rows.find((r) => r.label === 'grep');
    assert.deepStrictEqual(grep, {
      kind: 'removed',
      label: 'grep',
      description: 'removed by tools_deny',
      tooltip: 'grep — removed by tools_deny',
    });
    assert.ok(
      rows.findIndex((r) => r.kind === 'removed') > rows.findIndex((r) => r.label === 'exit_tool'),
      'removed rows come after the granted ones',
    );
  });

  it('lists a Profy subagent under its Expert, with its dropped entries', () => {
    const expert = {
      name: 'ledger',
      description: 'Books.',
      delegationBrief: 'Posts.',
      tools: ['read'],
      subagents: [{ name: 'poster', description: 'Posts.', system_prompt: 'Post.', tools: ['read', 'write'] }],
    };
    const { defs, resolution } = summaries('experts/ledger.expert.json', JSON.stringify(expert, null, 2));
    assert.deepStrictEqual(
      defs.map((d) => [d.group, d.name, d.status, d.tools]),
      [['ledger', 'poster', 'loads', 1]],
    );
    assert.deepStrictEqual(
      toolRows(resolution.definitions[0]).map((r) => `${r.kind} ${r.label}`),
      ['granted read', 'dropped write'],
    );
    assert.deepStrictEqual(toolRows({ ...resolution.definitions[0], tools: [], dropped: [] }), [
      { kind: 'note', label: 'No tools' },
    ]);
  });

  it("gives each subagent of an Expert its own problems and the Expert's, not its siblings'", () => {
    const expert = {
      name: 'ledger',
      description: 'Books.',
      tools: ['read', 'grep'],
      subagents: [
        { name: 'poster', description: 'Posts.', system_prompt: 'Post.', tools: ['read'] },
        { name: 'auditor', description: 'Audits.', tools: ['grep', 'nope'] },
      ],
    };
    const text = JSON.stringify(expert, null, 2);
    const path = `${ROOT}/experts/ledger.expert.json`;
    const analysis = analyze({ text, path, config: defaultLoadedConfig(ROOT), root: ROOT });
    const lineOf = (needle: string) => text.slice(0, text.indexOf(needle)).split('\n').length - 1;
    const inAuditor = analysis.diagnostics.filter((d) => d.range.start.line >= lineOf('"auditor"') - 1).length;
    const expertOwn = analysis.diagnostics.filter((d) => d.range.start.line < lineOf('"subagents"')).length;
    assert.ok(inAuditor >= 2, `the auditor entry has its own problems (${inAuditor})`);
    assert.ok(expertOwn >= 1, 'the Expert has a problem of its own (no delegationBrief)');
    const defs = summarizeFile(analysis, `file://${path}`, { folder: ROOT });
    const total = (d: WorkspaceDefinition) =>
      d.problems.errors + d.problems.warnings + d.problems.information + d.problems.hints;
    const [poster, auditor] = defs;
    assert.strictEqual(total(poster), expertOwn, "poster: only the Expert's problems");
    assert.strictEqual(total(auditor), expertOwn + inAuditor, 'auditor: its own and the Expert’s');
    assert.strictEqual(total(poster) + inAuditor, analysis.diagnostics.length, 'every problem counted somewhere');
  });

  it("counts an Expert's problem before its subagents on their line, or after them on a later line, for every subagent", () => {
    const subagents =
      '{ "name": "poster", "description": "Posts.", "system_prompt": "Post.", "tools": ["read"] },' +
      ' { "name": "auditor", "description": "Audits.", "system_prompt": "A.", "tools": ["read"] }';
    const head = '"name": "ledger", "description": "Books.", "delegationBrief": "b", "tools": ["read"]';
    const texts = [
      // The unknown key ends on the subagents' line, left of where the first one starts.
      `{ ${head}, "colour": 1, "subagents": [${subagents}] }`,
      // The unknown key ends on a later line than the last subagent, at a smaller column.
      `{\n  ${head},\n  "subagents": [\n    ${subagents}\n  ],\n  "colour": 1\n}\n`,
    ];
    for (const text of texts) {
      const path = `${ROOT}/experts/ledger.expert.json`;
      const analysis = analyze({ text, path, config: defaultLoadedConfig(ROOT), root: ROOT });
      assert.deepStrictEqual(
        analysis.diagnostics.map((d) => d.code),
        ['profy/unknown-key'],
      );
      const defs = summarizeFile(analysis, `file://${path}`, { folder: ROOT });
      assert.deepStrictEqual(
        defs.map((d) => [d.name, d.problems]),
        [
          ['poster', { errors: 0, warnings: 1, information: 0, hints: 0 }],
          ['auditor', { errors: 0, warnings: 1, information: 0, hints: 0 }],
        ],
        text,
      );
    }
  });
  it('shows a file that does not parse as the runtime verdict, named from the file, with its syntax problems only', () => {
    const cases: [string, string, string, string][] = [
      ['.polytoken/subagents/triage.md', '---\nname: [triage\n---\nBody {{ prompt }}\n', 'rejected', 'syntax/yaml'],
      ['.polytoken/subagents/empty.md', '', 'rejected', 'syntax/frontmatter'],
      ['apps/cli/agents/planner.yaml', 'name: planner\ninvocation: @planner\n', 'rejected', 'syntax/yaml'],
      ['ledger.expert.json', '{ "subagents": [ { "name": "a", ', 'dropped', 'syntax/json'],
    ];
    for (const [rel, text, status, rule] of cases) {
      const { defs } = summaries(rel, text);
      const stem = rel
        .split('/')
        .pop()!
        .replace(/\.(md|yaml|expert\.json)$/, '');
      assert.deepStrictEqual(
        defs.map((d) => [d.name, d.status, d.reasons, d.tools]),
        [[stem, status, [rule], 0]],
        rel,
      );
      assert.ok(defs[0].problems.errors > 0, rel);
      assert.strictEqual(hasProblems(defs[0]), true, rel);
    }
  });
});

describe('the Subagents view: its data store', () => {
  const def = (uri: string, name: string, over: Partial<WorkspaceDefinition> = {}): WorkspaceDefinition => ({
    uri,
    name,
    dialect: 'polytoken',
    group: 'api',
    status: 'loads',
    tools: 2,
    problems: { errors: 0, warnings: 0, information: 0, hints: 0 },
    range: { start: { line: 1, character: 6 }, end: { line: 1, character: 6 + name.length } },
    index: 0,
    ...over,
  });
  const A = 'file:///ws/api/.polytoken/subagents/a.md';
  const B = 'file:///ws/api/.polytoken/subagents/b.md';
  const E = 'file:///ws/experts/ledger.expert.json';
  const initial = [
    def(B, 'b'),
    def(A, 'a'),
    def(E, 'poster', { dialect: 'profy', group: 'ledger' }),
    def(E, 'task', { dialect: 'profy', group: 'ledger', status: 'dropped', index: 1 }),
  ];
  const names = (nodes: { definition: WorkspaceDefinition }[]) => nodes.map((n) => n.definition.name);
  const ids = (nodes: Iterable<{ id: string }>) => [...nodes].map((n) => n.id).sort();

  it('groups by runtime (in a fixed order) and group, definitions by name', () => {
    const store = new DefinitionsStore();
    assert.strictEqual(store.apply('all', initial).structure, true);
    assert.deepStrictEqual(
      store.runtimeNodes().map((r) => r.runtime),
      ['polytoken', 'profy'],
    );
    const [polytoken, profy] = store.runtimeNodes();
    assert.deepStrictEqual(names(store.membersOf(store.groupsOf(polytoken)[0])), ['a', 'b']);
    assert.deepStrictEqual(names(store.membersOf(store.groupsOf(profy)[0])), ['poster', 'task']);
  });

  it("lists the runtimes in the server's order, as the engine's modules describe them", () => {
    assert.deepStrictEqual(
      workspaceRuntimes().map((r) => [r.id, r.title, r.groupKind]),
      [
        ['polytoken', 'Polytoken', 'project'],
        ['picasso', 'Picasso', 'folder'],
        ['profy', 'Profy', 'definition'],
      ],
    );
    const store = new DefinitionsStore();
    store.setRuntimes(workspaceRuntimes());
    store.apply('all', [
      ...initial,
      def('file:///ws/apps/cli/agents/r.yaml', 'r', { dialect: 'picasso', group: 'apps' }),
    ]);
    // Not by id (picasso would come first): the server's display order.
    assert.deepStrictEqual(
      store.runtimeNodes().map((r) => r.runtime),
      ['polytoken', 'picasso', 'profy'],
    );
    assert.strictEqual(store.runtimeInfo.get('picasso')?.tooltip, 'Picasso roles, by folder');
  });

  it('says which nodes a changed file touches: the definition alone, or its group and runtime when counts change', () => {
    const store = new DefinitionsStore();
    store.apply('all', initial);
    const a = store.nodeFor(A, 'a')!;
    // More tools: only the definition shows something new; the node object is the same.
    let change = store.apply(new Set([A]), [def(A, 'a', { tools: 3 })]);
    assert.deepStrictEqual(ids(change.refresh), [a.id]);
    assert.strictEqual(change.structure, false);
    assert.strictEqual(store.nodeFor(A, 'a'), a);
    assert.strictEqual(a.definition.tools, 3);
    // Rejected now: the counts above it change too.
    change = store.apply(new Set([A]), [def(A, 'a', { tools: 3, status: 'rejected' })]);
    assert.deepStrictEqual(ids(change.refresh), [a.id, a.parent.id, a.parent.parent.id].sort());
    // Nothing new: nothing to refresh.
    assert.strictEqual(store.apply(new Set([A]), [def(A, 'a', { tools: 3, status: 'rejected' })]).refresh.size, 0);
  });

  it('adds and removes definitions; a group that empties or appears changes the structure', () => {
    const store = new DefinitionsStore();
    store.apply('all', initial);
    const task = store.nodeFor(E, 'task')!;
    let change = store.apply(new Set([E]), [def(E, 'poster', { dialect: 'profy', group: 'ledger' })]);
    assert.strictEqual(change.structure, false);
    assert.deepStrictEqual(ids(change.refresh), [task.parent.id, task.parent.parent.id].sort());
    assert.strictEqual(store.nodeFor(E, 'task'), undefined);
    // The file is gone: the Expert's group empties.
    change = store.apply(new Set([E]), []);
    assert.strictEqual(change.structure, true);
    assert.deepStrictEqual(
      store.runtimeNodes().map((r) => r.runtime),
      ['polytoken', 'profy'],
      'an empty runtime stays, the view hides it',
    );
    assert.deepStrictEqual(store.groupsOf(store.runtimeNodes()[1]), []);
    // A new project.
    change = store.apply(new Set(['file:///ws/web/.polytoken/subagents/c.md']), [
      def('file:///ws/web/.polytoken/subagents/c.md', 'c', { group: 'web' }),
    ]);
    assert.strictEqual(change.structure, true);
    assert.strictEqual(store.size, 3);
  });
});
