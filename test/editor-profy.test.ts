/**
 * The Profy editor features as the engine answers them (the server only moves these): JSON
 * completion (the skeleton, keys, the Expert's `tools`, a subagent's allowlist, `name` and the
 * values a key lists), hovers on tool entries and globs, the globs' inlay hints, and F2 on a
 * subagent's name. test/lsp/* asks the real server the same; these run in-process, where the
 * mutation run (docs/testing.md) sees them.
 */
import * as assert from 'assert';
import type { CompletionItem, InlayHint, MarkupContent, TextEdit } from 'vscode-languageserver-types';
import { profySkeleton } from '../shared/dialects/profy/editor/completion';
import { completions, type CompletionOptions } from '../shared/features/completion';
import { definition } from '../shared/features/definition';
import { inlayHints } from '../shared/features/inlay-hints';
import { removedToolDiagnostics } from '../shared/features/removed-tools';
import { isRefusal, prepareRename, renameDefinition, type RenameOptions } from '../shared/features/rename';
import { documentSymbols } from '../shared/features/symbols';
import { SourceText } from '../shared/text/source';
import { configOf, CURSOR, editorAt } from './support/editor';
import { workLimit } from './support/slow';

const EXPERT = '/w/experts/book.expert.json';
const CONFIG = 'profy:\n  builtinSubagents: [general]\nmcp:\n  ledger: [post, void]\n';

const editor = editorAt({ path: EXPERT, config: configOf(CONFIG) });
const where = (config = CONFIG, path = EXPERT) => ({ path, config: configOf(config) });
/** The analysis of `marked` (one `‸` marks the cursor) at `path`, and the cursor's position. */
const at = (marked: string, config?: string, path?: string) => editor.at(marked, where(config, path));
const items = (marked: string, config?: string, options?: CompletionOptions): CompletionItem[] =>
  editor.items(marked, where(config), options);
const labels = (marked: string, config?: string) => items(marked, config).map((i) => i.label);
const edit = (item: CompletionItem | undefined) => item?.textEdit as TextEdit;
/** What the text becomes when the item labelled `label` is chosen (snippets as plain text). */
function chosen(marked: string, label: string): string {
  const { analysis, position, text } = at(marked);
  const item = completions(analysis, position, { snippets: false }).find((i) => i.label === label);
  assert.ok(item, `${label} offered`);
  const source = new SourceText(text);
  const { range, newText } = edit(item);
  return text.slice(0, source.offset(range.start)) + newText + text.slice(source.offset(range.end));
}
/** The text the item labelled `label` (else the first) replaces in `marked`. */
const covered = (marked: string, label?: string) => {
  const offered = items(marked);
  const item = label === undefined ? offered[0] : offered.find((i) => i.label === label);
  assert.ok(item, `${label} offered`);
  const text = marked.replace(CURSOR, '');
  const source = new SourceText(text);
  const { range } = edit(item);
  return text.slice(source.offset(range.start), source.offset(range.end));
};
const hoverText = (marked: string, config?: string) => editor.hovered(marked, where(config))?.text;

/** An Expert whose main toolset holds `read`, an MCP tool and the reserved `Task`; `entries` is a subagent's list. */
const expert = (entries: string) =>
  `{ "tools": ["read", "mcp__ledger__post", "Task"], "subagents": [{ "name": "s", "tools": [${entries}] }] }`;

describe('Profy editor: completion', () => {
  it('offers the Expert skeleton in an empty file, named after the file, over all of its white space', () => {
    const [skeleton, ...rest] = items('  \n');
    assert.deepStrictEqual(rest, []);
    assert.strictEqual(skeleton.label, 'expert');
    assert.strictEqual(skeleton.detail, 'Profy Expert skeleton');
    assert.strictEqual(skeleton.kind, 15 /* Snippet */);
    assert.strictEqual(skeleton.insertTextFormat, 2 /* Snippet */);
    assert.deepStrictEqual(edit(skeleton).range, { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } });
    assert.strictEqual(edit(skeleton).newText, profySkeleton('book'));
    assert.ok(edit(skeleton).newText.startsWith('{\n\t"name": "${1:book}",\n\t"description": "${2:'));
    // Without snippet support: plain JSON with every placeholder at its default.
    const plain = edit(items('', undefined, { snippets: false })[0]).newText;
    assert.deepStrictEqual(JSON.parse(plain), {
      name: 'book',
      description: 'for humans: the marketplace card',
      delegationBrief: 'for models: what it accepts and produces',
      tools: ['read', 'grep', 'glob'],
      subagents: [
        { name: 'name', description: 'when to dispatch here', system_prompt: 'instructions', tools: ['read'] },
      ],
    });
    assert.ok(plain.endsWith('\t\t}\n\t]\n}\n'), 'tab indentation, a final line break');
    assert.ok(!labels('{‸}').includes('expert'), 'only in an empty file');
  });

  it('offers the keys an object may still take, required ones first, each as `"key": value`', () => {
    const top = items('{ "name": "b", ‸ }');
    assert.deepStrictEqual(
      top.map((i) => i.label),
      ['description', 'delegatable', 'delegationBrief', 'delegationPolicy', 'tools', 'subagents'],
    );
    const description = top[0];
    assert.strictEqual(edit(description).newText, '"description": "${1:description}"');
    assert.strictEqual(description.insertTextFormat, 2 /* Snippet */);
    assert.strictEqual(description.filterText, '"description"');
    assert.strictEqual(description.detail, 'string');
    assert.strictEqual(edit(top[3]).newText, '"delegationPolicy": ${1|"none","all",[]|}');
    const sub = items('{ "subagents": [{ "name": "s", ‸ }] }');
    assert.deepStrictEqual(
      sub.map((i) => [i.label, i.detail, i.sortText]),
      [
        ['description', 'string · required', '00000description'],
        ['system_prompt', 'string · required', '00001system_prompt'],
        ['tools', 'list of tool names and globs', '00102tools'],
        ['model', 'string', '00103model'],
      ],
    );
  });

  it('completes a key over its quotes, keeps the key being written, and writes only the key before a colon', () => {
    assert.strictEqual(
      chosen('{ "name": "b", "de‸" }', 'description'),
      '{ "name": "b", "description": "description" }',
    );
    assert.strictEqual(chosen('{ "name": "b", "‸": 1 }', 'tools'), '{ "name": "b", "tools": 1 }');
    assert.strictEqual(chosen('{ "name": "b", "‸"  : 1 }', 'tools'), '{ "name": "b", "tools"  : 1 }');
    // A colon further on belongs to another key: this one gets its value.
    assert.strictEqual(
      chosen('{ "name": "b", "de‸", "tools": [] }', 'description'),
      '{ "name": "b", "description": "description", "tools": [] }',
    );
    const rewriting = items('{ "name": "b", "desc‸ription": "x" }');
    const own = rewriting.find((i) => i.label === 'description');
    assert.ok(own, 'the key being written is offered again');
    assert.strictEqual(edit(own).newText, '"description"');
    assert.strictEqual(own.insertTextFormat, 1 /* PlainText */);
    assert.ok(!rewriting.some((i) => i.label === 'name'), 'not a key the object holds');
    // Without quotes: the word is replaced.
    assert.strictEqual(chosen('{ "name": "b", de‸ }', 'description'), '{ "name": "b", "description": "description" }');
    assert.strictEqual(
      chosen('{ "subagents": [{ "na‸" }] }', 'name'),
      '{ "subagents": [{ "name": "name" }] }',
      'a subagent key',
    );
  });

  it('offers for the Expert `tools` the catalog without reserved names or what the list holds, quoted once', () => {
    const offered = items('{ "tools": ["read", "‸"] }');
    assert.deepStrictEqual(
      offered.map((i) => i.label),
      ['grep', 'glob', 'mcp__ledger__post', 'mcp__ledger__void'],
    );
    const grep = offered[0];
    assert.strictEqual(edit(grep).newText, '"grep"');
    assert.strictEqual(covered('{ "tools": ["read", "‸"] }'), '""');
    assert.strictEqual(grep.filterText, '"grep"');
    assert.strictEqual(grep.detail, 'Searches file contents for a pattern.');
    assert.match((grep.documentation as MarkupContent).value, /^\*\*grep\*\* — Profy tool \(built-in\)/);
    // The entry being edited is offered again and replaced with its quotes, the cursor inside or just after it.
    for (const marked of ['{ "tools": ["grep", "re‸ad"] }', '{ "tools": ["grep", "read"‸] }']) {
      assert.strictEqual(covered(marked, 'read'), '"read"', marked);
      assert.ok(!labels(marked).includes('grep'), marked);
    }
    // Before the opening quote is not inside: nothing is replaced.
    assert.strictEqual(covered('{ "tools": [‸"read"] }'), '');
    // Not in a string: the word under the cursor.
    assert.strictEqual(covered('{ "tools": ["grep", re‸ad] }', 'read'), 'read');
    assert.strictEqual(chosen('{ "tools": [gl‸] }', 'glob'), '{ "tools": ["glob"] }');
    // Only the Expert's own list.
    for (const other of ['{ "tools": [["‸"]] }', '{ "delegationPolicy": ["‸"] }', '{ "x": { "tools": ["‸"] } }'])
      assert.deepStrictEqual(labels(other), [], other);
  });

  it("offers for a subagent's `tools` the main toolset's grantable names, a glob per MCP server and `*`", () => {
    const offered = items(expert('"read", "‸"'));
    assert.deepStrictEqual(
      offered.map((i) => [i.label, i.kind, edit(i).newText, i.sortText, i.detail]),
      [
        ['mcp__ledger__post', 3, '"mcp__ledger__post"', '00010mcp__ledger__post', 'main agent tool'],
        [
          'mcp__ledger__*',
          21,
          '"mcp__ledger__*"',
          '00000mcp__ledger__*',
          'every tool of MCP server ledger in the main toolset',
        ],
        ['*', 21, '"*"', '00001*', 'every tool of the main toolset (reserved names excluded)'],
      ],
    );
    assert.deepStrictEqual(
      offered.map((i) => (i.documentation as MarkupContent).value),
      [
        '**mcp__ledger__post** — Profy tool (MCP tool of server `ledger`)',
        'Matches now 1 tool of the main toolset: `mcp__ledger__post`',
        'Matches now 2 tools of the main toolset: `mcp__ledger__post`, `read`',
      ],
    );
    assert.deepStrictEqual(offered.map((i) => i.filterText).slice(1), ['"mcp__ledger__*"', '"*"']);
    // A glob listed is not offered again, unless it is the entry being edited.
    assert.deepStrictEqual(labels(expert('"*", "mcp__ledger__*", "‸"')), ['read', 'mcp__ledger__post']);
    assert.ok(labels(expert('"mcp__ledger__‸*"')).includes('mcp__ledger__*'));
    // Without Expert `tools`, `profy.mainTools` is the toolset; without either, nothing is known.
    const subagent = '{ "subagents": [{ "name": "s", "tools": ["‸"] }] }';
    assert.deepStrictEqual(labels(subagent, 'profy:\n  mainTools: [read, grep]\n'), ['read', 'grep', '*']);
    assert.deepStrictEqual(labels(subagent), []);
    // Only a subagent's own list.
    for (const entries of [
      '{ "tools": ["read"], "other": [{ "tools": ["‸"] }] }',
      '{ "tools": ["read"], "subagents": [{ "model": ["‸"] }] }',
      '{ "tools": ["read"], "subagents": [{ "tools": [["‸"]] }] }',
    ])
      assert.deepStrictEqual(labels(entries), [], entries);
  });

  it("offers for `name` the file's stem, and for a key that lists values its JSON literals as they are", () => {
    const [stem, ...rest] = items('{ "name": ‸ }');
    assert.deepStrictEqual(rest, []);
    assert.deepStrictEqual(
      [stem.label, stem.kind, stem.detail, stem.preselect, edit(stem).newText, stem.filterText],
      ['book', 12, 'the file name', true, '"book"', '"book"'],
    );
    assert.strictEqual(covered('{ "name": "b‸" }'), '"b"');
    assert.deepStrictEqual(labels('{ "subagents": [{ "name": ‸ }] }'), [], "not a subagent's name");
    assert.deepStrictEqual(labels('{ "name": { "x": ‸ } }'), [], 'not a key inside `name`');
    assert.deepStrictEqual(labels('{ "description": ‸ }'), [], 'a key without values');
    const policy = items('{ "delegationPolicy": ‸ }');
    assert.deepStrictEqual(
      policy.map((i) => [i.label, edit(i).newText, i.kind, i.detail]),
      ['"none"', '"all"', '[]'].map((v) => [v, v, 12, '`"none"`, `"all"` or a list of Expert names']),
    );
    assert.strictEqual(chosen('{ "delegatable": tr‸ }', 'true'), '{ "delegatable": true }');
    assert.strictEqual(chosen('{ "delegationPolicy": "n‸" }', '"none"'), '{ "delegationPolicy": "none" }');
    assert.deepStrictEqual(labels('{ "name": "b" }‸'), [], 'after the Expert');
    assert.strictEqual(covered('{ "delegatable": tr‸'), 'tr', 'a word at the end of the text');
    // Past a string's closing quote the cursor is not in it: nothing is replaced.
    assert.strictEqual(covered(expert('"read" ‸'), 'mcp__ledger__post'), '');
  });

  it('reads the lists the cursor is in even when a later duplicate key is not a list', () => {
    for (const later of ['null', '5', '[]'])
      assert.deepStrictEqual(
        labels(`{ "tools": ["read"], "subagents": [{ "tools": ["‸"] }], "subagents": ${later} }`),
        ['read', '*'],
        later,
      );
    assert.deepStrictEqual(labels('{ "subagents": [{ "na‸" }], "subagents": 5 }'), [
      'name',
      'description',
      'system_prompt',
      'tools',
      'model',
    ]);
  });
});

describe('Profy editor: hovers', () => {
  const READ = '**read** — Profy tool (built-in)\n\nReads a file.\n\nBuilt into: Profy';
  const GERP =
    '**gerp** — not in the Profy catalog\n\nDid you mean `grep`?\n\nAdd it under `tools.profy` (or `mcp`) in `.subagents.yaml` if the runtime provides it.';

  it('describes an entry of the Expert `tools` as the catalog knows it, or the name it is near', () => {
    assert.strictEqual(hoverText('{ "tools": ["re‸ad"] }'), READ);
    assert.strictEqual(hoverText('{ "tools": ["gerp‸"] }'), GERP);
  });

  it("says whether a subagent's literal entry is in the main toolset, when that is known", () => {
    assert.strictEqual(hoverText(expert('"re‸ad"')), `${READ}\n\nIn the main agent toolset: granted.`);
    assert.strictEqual(
      hoverText(expert('"gerp‸"')),
      `${GERP}\n\nNot in the main agent toolset: the runtime drops it silently.`,
    );
    assert.match(hoverText(expert('"gl‸ob"'))!, /\n\nNot in the main agent toolset: the runtime drops it silently\.$/);
    // A reserved name says why it is reserved, and nothing about the toolset.
    assert.strictEqual(
      hoverText(expert('"Ta‸sk"')),
      '**Task** — Profy tool (built-in)\n\nReserved: the top-level dispatcher; subagents cannot start nested subagents. Never granted to a subagent.\n\nReserved: Profy never grants it to a subagent, also not through a glob.\n\nBuilt into: Profy',
    );
    assert.strictEqual(hoverText('{ "subagents": [{ "tools": ["re‸ad"] }] }'), READ, 'an unknown toolset');
  });

  it('says what a glob matches in the main toolset, the reserved names it also matches, or that it is unknown', () => {
    const title = (glob: string) =>
      `**\`${glob}\`** — Profy glob (\`*\` any run of characters, \`?\` one character)\n\n`;
    assert.strictEqual(
      hoverText(expert('"mcp__ledger__‸*"')),
      `${title('mcp__ledger__*')}Matches now 1 tool of the main toolset: \`mcp__ledger__post\``,
    );
    assert.strictEqual(
      hoverText(expert('"‸*"')),
      `${title('*')}Matches now 2 tools of the main toolset: \`mcp__ledger__post\`, \`read\`\n\nReserved names it also matches are never granted: \`Task\``,
    );
    assert.strictEqual(
      hoverText(expert('"*re‸ad*"')),
      `${title('*read*')}Matches now 1 tool of the main toolset: \`read\``,
    );
    assert.strictEqual(
      hoverText(expert('"zz‸*"')),
      `${title('zz*')}Matches now 0 tools of the main toolset: *(nothing)*`,
    );
    assert.strictEqual(
      hoverText('{ "subagents": [{ "tools": ["r‸*"] }] }'),
      `${title('r*')}The main agent toolset is unknown (no Expert \`tools\`, no \`profy.mainTools\`), so what it matches is unknown.`,
    );
  });

  it('answers nothing for an entry of another list', () => {
    for (const marked of [
      '{ "delegationPolicy": ["re‸ad"] }',
      '{ "tools": [["re‸ad"]] }',
      '{ "x": ["re‸ad"] }',
      '{ "tools": ["read"], "other": [{ "tools": ["re‸ad"] }] }',
      '{ "tools": ["read"], "subagents": [{ "extra": ["re‸ad"] }] }',
      '{ "tools": ["read"], "subagents": [{ "tools": [["re‸ad"]] }] }',
    ])
      assert.strictEqual(hoverText(marked), undefined, marked);
  });
});

describe('Profy editor: inlay hints and lists', () => {
  const hintsOf = (text: string, config?: string) => {
    const { analysis } = at(text, config);
    const source = new SourceText(text);
    const all = { start: source.position(0), end: source.position(text.length) };
    return inlayHints(analysis, all).map((h: InlayHint) => [
      text.slice(0, source.offset(h.position)).split('\n').pop(),
      h.label,
      (h.tooltip as MarkupContent).value,
    ]);
  };

  it('counts after each glob of every subagent what it matches now, with the list in the tooltip', () => {
    const text = `{
  "tools": ["read", "grep", "mcp__ledger__post", "task"],
  "subagents": [
    { "name": "a", "tools": ["read", "mcp__ledger__*"] },
    { "name": "b", "tools": ["*", "zz?"] }
  ]
}`;
    assert.deepStrictEqual(hintsOf(text), [
      [
        '    { "name": "a", "tools": ["read", "mcp__ledger__*"',
        '→ 1 tool',
        '**`mcp__ledger__*`**\n\nMatches now 1 tool of the main toolset: `mcp__ledger__post`',
      ],
      [
        '    { "name": "b", "tools": ["*"',
        '→ 3 tools',
        '**`*`**\n\nMatches now 3 tools of the main toolset: `grep`, `mcp__ledger__post`, `read`\n\nReserved names it also matches are never granted: `task`',
      ],
      [
        '    { "name": "b", "tools": ["*", "zz?"',
        '→ no tool',
        '**`zz?`**\n\nMatches now 0 tools of the main toolset: *(nothing)*',
      ],
    ]);
  });

  it('shows an unknown count while the main toolset is unknown', () => {
    assert.deepStrictEqual(hintsOf('{ "subagents": [{ "name": "a", "tools": ["r*", "read"] }] }'), [
      [
        '{ "subagents": [{ "name": "a", "tools": ["r*"',
        '→ ? tools',
        '**`r*`**\n\nThe main agent toolset is unknown (no Expert `tools`, no `profy.mainTools`), so what it matches is unknown.',
      ],
    ]);
  });

  it('shows an unknown count, not "no tool", for a glob past what the checker matches in one file', function () {
    this.timeout(workLimit(20000));
    // 2,001 globs against 2,500 tools: the last passes the 5,000,000 comparisons one file may spend.
    const tools = Array.from({ length: 2500 }, (_, i) => `t${i}`);
    const globs = ['*7', ...Array.from({ length: 1999 }, () => '*z'), '*'];
    const text = JSON.stringify({ tools, subagents: [{ name: 's', tools: globs }] });
    const hints = hintsOf(text);
    const unchecked =
      'Not matched here: this Expert’s globs need more comparisons than the checker makes (`profy/unknown-toolset`); Profy still resolves it when it builds the subagents.';
    assert.deepStrictEqual(
      [hints[0][1], hints[1][1], hints[2000]],
      ['→ 250 tools', '→ no tool', [text.slice(0, -4), '→ ? tools', `**\`*\`**\n\n${unchecked}`]],
    );
    assert.strictEqual(
      hoverText(text.slice(0, -5) + CURSOR + text.slice(-5)),
      `**\`*\`** — Profy glob (\`*\` any run of characters, \`?\` one character)\n\n${unchecked}`,
    );
  });

  it('fades nothing: a reserved entry is never granted in the first place', () => {
    assert.deepStrictEqual(removedToolDiagnostics(at(expert('"Task", "read"')).analysis), []);
  });

  it('takes a tool to its entry: a name in a mapping, an MCP tool, else its server', () => {
    const config = 'tools:\n  profy: [lint, { name: fmt }]\nmcp:\n  ledger: [7, post]\n';
    const host = { configPath: '/w/.subagents.yaml', readText: () => config, pathToUri: (p: string) => `file://${p}` };
    const source = new SourceText(config);
    const at_ = (word: string, from = 0) => {
      const start = config.indexOf(word, from);
      return [{ uri: 'file:///w/.subagents.yaml', range: source.range(start, start + word.length) }];
    };
    const target = (tool: string) => {
      const { analysis, position } = at(`{ "tools": ["${tool.slice(0, 2)}‸${tool.slice(2)}"] }`, config);
      return definition(analysis, position, host);
    };
    assert.deepStrictEqual(target('fmt'), at_('fmt'));
    assert.deepStrictEqual(target('mcp__ledger__post'), at_('post'));
    // A tool the server does not list, or one that is a number there: the server.
    assert.deepStrictEqual(target('mcp__ledger__void'), at_('ledger'));
    assert.deepStrictEqual(target('mcp__ledger__7'), at_('ledger'));
  });

  it('takes both tool lists to their `.subagents.yaml` entry, and lists subagents by name or number', () => {
    const config = 'tools:\n  profy: [lint]\n';
    const host = { configPath: '/w/.subagents.yaml', readText: () => config, pathToUri: (p: string) => `file://${p}` };
    const target = [
      {
        uri: 'file:///w/.subagents.yaml',
        range: { start: { line: 1, character: 10 }, end: { line: 1, character: 14 } },
      },
    ];
    for (const marked of ['{ "tools": ["li‸nt"] }', '{ "tools": ["lint"], "subagents": [{ "tools": ["li‸nt"] }] }']) {
      const { analysis, position } = at(marked, config);
      assert.deepStrictEqual(definition(analysis, position, host), target, marked);
    }
    const { analysis, position } = at('{ "delegationPolicy": ["li‸nt"] }', config);
    assert.strictEqual(definition(analysis, position, host), undefined);
    const symbols = documentSymbols(at('{ "name": "e", "subagents": [{ "name": "a" }, { "tools": [] }] }').analysis);
    const subagents = symbols[0].children?.find((s) => s.name === 'subagents')?.children ?? [];
    assert.deepStrictEqual(
      subagents.map((s) => [s.name, s.detail]),
      [
        ['a', 'subagent'],
        ['subagent 2', 'subagent'],
      ],
    );
  });

  it('document symbols: the Expert selects its `name`, else the whole object; an empty key is shown as `""`', () => {
    const range = (line: number, from: number, to: number) => ({
      start: { line, character: from },
      end: { line, character: to },
    });
    const [named] = documentSymbols(at('{ "name": "e", "": 1 }').analysis);
    assert.deepStrictEqual([named.name, named.range, named.selectionRange], ['e', range(0, 0, 22), range(0, 10, 13)]);
    assert.deepStrictEqual(
      named.children?.map((c) => [c.name, c.selectionRange]),
      [
        ['name', range(0, 2, 8)],
        ['""', range(0, 15, 17)],
      ],
    );
    // Unnamed, it is named after the file; the first line (empty here) lies outside the object.
    const [unnamed] = documentSymbols(at('\n{ "tools": [] }\n').analysis);
    assert.deepStrictEqual(
      [unnamed.name, unnamed.range, unnamed.selectionRange],
      ['book', range(1, 0, 15), range(1, 0, 15)],
    );
  });
});

describe('Profy editor: F2 renames a subagent within its Expert', () => {
  const TEXT = `{
  "name": "ledger",
  "tools": ["read"],
  "subagents": [
    { "name": "poster", "description": "d", "system_prompt": "p", "tools": ["read"] },
    { "name": "checker", "description": "d", "system_prompt": "p", "tools": ["read"] },
    { "name": "", "description": "d", "system_prompt": "p", "tools": ["read"] }
  ]
}`;
  /** TEXT with the cursor `shift` characters from the start of the first `needle`. */
  const cursorAt = (needle: string, shift = 0) => {
    const i = TEXT.indexOf(needle) + shift;
    return TEXT.slice(0, i) + CURSOR + TEXT.slice(i);
  };
  const options: RenameOptions = {
    renameFiles: true,
    documentChanges: false,
    pathToUri: (p) => `file://${p}`,
    exists: () => true,
    definitions: [],
  };
  const URI = 'file:///w/experts/book.expert.json';
  const rename = (typed: string, marked = cursorAt('"poster"', 1), config = CONFIG) => {
    const { analysis, position } = at(marked, config);
    return renameDefinition(analysis, URI, position, typed, options);
  };
  const prepared = (marked: string) => {
    const { analysis, position } = at(marked);
    return prepareRename(analysis, position);
  };
  const error = (result: unknown) => (isRefusal(result) ? result.error : JSON.stringify(result));

  it("starts on a subagent's `name`, its quotes included, and nowhere else", () => {
    const checker = { start: { line: 5, character: 15 }, end: { line: 5, character: 22 } };
    for (const shift of [0, 1, 9])
      assert.deepStrictEqual(
        prepared(cursorAt('"checker"', shift)),
        { range: checker, placeholder: 'checker' },
        `${shift}`,
      );
    const elsewhere = 'Put the cursor on a subagent’s `name` to rename it.';
    for (const marked of [cursorAt('"checker"', -1), cursorAt('"checker"', 10), cursorAt('""'), cursorAt('"read"', 1)])
      assert.strictEqual(error(prepared(marked)), elsewhere, marked);
    assert.strictEqual(
      error(prepared(cursorAt('"ledger"', 1))),
      'An Expert is not renamed here: other Experts name it in their `delegationPolicy`, in files this editor may not have. Rename its subagents with F2 on their `name`.',
    );
  });

  it('rewrites the name as a JSON string, and nothing else (no file)', () => {
    const editsOf = (result: ReturnType<typeof rename>) => {
      assert.ok(result && !isRefusal(result), JSON.stringify(result));
      assert.deepStrictEqual(result.notes, []);
      return result.edit.changes?.[URI];
    };
    const poster = { start: { line: 4, character: 14 }, end: { line: 4, character: 22 } };
    assert.deepStrictEqual(editsOf(rename('writer')), [{ range: poster, newText: '"writer"' }]);
    assert.deepStrictEqual(editsOf(rename('a\\b')), [{ range: poster, newText: '"a\\\\b"' }]);
    assert.deepStrictEqual(editsOf(rename('poster')), [], 'its own name: no edit');
    assert.deepStrictEqual(editsOf(rename('general', undefined, '')), [{ range: poster, newText: '"general"' }]);
  });

  it('refuses a name Profy would drop the subagent for', () => {
    const refusals: [string, string][] = [
      ['', 'A subagent needs a name: Profy drops one whose `name` is empty.'],
      ['my writer', '`my writer` holds a space, which Profy does not accept in a name: it would drop the subagent.'],
      ['a<b c<d', '`a<b c<d` holds `<`, a space, which Profy does not accept in a name: it would drop the subagent.'],
      ['task', '`task` is a reserved name: Profy would drop the subagent.'],
      [
        'general',
        '`general` is a builtin subagent of the platform (`profy.builtinSubagents`): Profy would drop this one as a duplicate.',
      ],
      [
        'checker',
        'Subagent #1 of this Expert is already named `checker`: Profy keeps the first of two and drops the other.',
      ],
    ];
    for (const [typed, why] of refusals) assert.strictEqual(error(rename(typed)), why, typed);
  });
});
