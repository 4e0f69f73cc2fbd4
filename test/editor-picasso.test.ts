/**
 * The Picasso editor features as the engine answers them (the server only moves these): the
 * `invocation` handle and `name` completions, the tool lists, hovers on a tool entry and on
 * `memory`, the faded removed tools, and F2 on a role's name or invocation.
 * test/lsp/* asks the real server the same; these run in-process, where the mutation run
 * (docs/testing.md) sees them.
 */
import * as assert from 'assert';
import type { CompletionItem, MarkupContent, TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import { parseConfig } from '../shared/config/config';
import { analyze } from '../shared/engine';
import { completions } from '../shared/features/completion';
import { hover } from '../shared/features/hover';
import { removedToolDiagnostics } from '../shared/features/removed-tools';
import { isRefusal, prepareRename, renameDefinition, type RenameOptions } from '../shared/features/rename';
import { SourceText } from '../shared/text/source';
import type { Analysis } from '../shared/types';
import { newTextOf as newText, renameOptions } from './support/editor';

const CURSOR = '‸';
const ROLE = '/w/apps/cli/agents/planner.yaml';

/** The analysis of `marked` (one `‸` marks the cursor) at `path`, and the cursor's position. */
function at(marked: string, path = ROLE) {
  const offset = marked.indexOf(CURSOR);
  const text = offset < 0 ? marked : marked.slice(0, offset) + marked.slice(offset + 1);
  const analysis: Analysis = analyze({ text, path, config: parseConfig('', '/w/.subagents.yaml', '/w'), root: '/w' });
  return { analysis, text, position: new SourceText(text).position(Math.max(offset, 0)) };
}

const items = (marked: string, path?: string): CompletionItem[] => {
  const { analysis, position } = at(marked, path);
  return completions(analysis, position);
};
const labels = (marked: string, path?: string) => items(marked, path).map((i) => i.label);
const hoverText = (marked: string) => {
  const { analysis, position } = at(marked);
  return (hover(analysis, position)?.contents as MarkupContent | undefined)?.value ?? '';
};

const role = (lines: string) => `name: planner\ninvocation: "@planner"\nmodel: m\nmax_steps: 5\nmax_depth: 0\n${lines}`;

describe('Picasso editor: completion', () => {
  it('offers `invocation` as `@` and the name written so far, or the file stem', () => {
    const snippet = (marked: string, path?: string) =>
      newText(items(marked, path).find((i) => i.label === 'invocation'));
    assert.match(snippet('name: scout\n‸'), /^invocation: "@\$\{1:scout\}"/);
    assert.match(snippet('model: m\n‸'), /^invocation: "@\$\{1:planner\}"/, 'the stem when no name is written');
    // While the text does not parse, the name is read off its line.
    assert.match(snippet('name: "scout\n‸'), /"@\$\{1:scout\}"/);
    // Not a name: a list, or nothing on the line.
    assert.match(snippet('name: [scout]\n‸'), /"@\$\{1:planner\}"/);
    assert.match(snippet('name: # later\n‸'), /"@\$\{1:planner\}"/);
    assert.match(snippet('name:\nmodel: m\n‸'), /"@\$\{1:planner\}"/, 'not the next line');
    // Only at the top level.
    assert.ok(!labels('hooks:\n  ‸').includes('invocation'));
  });

  it('reads the name for `invocation` from `name` as parsed, else from the `name:` line that starts the text', () => {
    const snippet = (marked: string) => newText(items(marked).find((i) => i.label === 'invocation'));
    assert.match(snippet('name: "Scout Agent"\n‸'), /"@\$\{1:Scout Agent\}"/);
    // Not a string: the word written after `name:` (two spaces), not a key that ends in `name`.
    assert.match(snippet('nickname: zed\nname:  42\n‸'), /"@\$\{1:42\}"/);
    // Every other key is offered plain.
    const model = newText(items('name: scout\n‸').find((i) => i.label === 'model'));
    assert.ok(model.startsWith('model:') && !model.includes('@'), model);
  });

  it('offers the `@` handle first for `invocation`, quoted unless the cursor is inside quotes', () => {
    const plain = items('name: scout\ninvocation: ‸');
    assert.strictEqual(plain[0].label, '@scout');
    assert.strictEqual(plain[0].preselect, true);
    assert.strictEqual(newText(plain[0]), '"@scout"');
    assert.strictEqual(plain[0].detail, '`@` followed by `name`');
    assert.deepStrictEqual(labels('invocation:\n  x: ‸'), [], 'not a key under `invocation`');
    const quoted = items('name: scout\ninvocation: "‸"');
    assert.strictEqual(quoted[0].label, '@scout');
    assert.strictEqual(newText(quoted[0]), '@scout');
    assert.ok(!labels('name: scout\nmodel: ‸').includes('@scout'), 'only for `invocation`');
  });

  it('offers the file stem for `name` only when Picasso would take it as a name', () => {
    assert.deepStrictEqual(labels('name: ‸', '/w/apps/cli/agents/DocWriter.yaml'), []);
    assert.ok(labels('name: ‸').includes('planner'));
    assert.ok(labels('memory: ‸', '/w/apps/cli/agents/DocWriter.yaml').includes('read-only'), 'other keys still offer');
  });

  it('offers for `tools` and `deny` the catalog without what either list holds', () => {
    const tools = labels('tools: [read_file, ‸]\ndeny: [grep]\n');
    assert.ok(tools.includes('edit_file'), tools.join());
    assert.ok(!tools.includes('read_file') && !tools.includes('grep'), tools.join());
    const deny = labels('tools: [read_file]\ndeny: [‸]\n');
    assert.ok(deny.includes('grep') && !deny.includes('read_file'), deny.join());
    assert.ok(!labels('hooks:\n  tools: [‸]\n').includes('edit_file'), 'not a nested list of the same name');
    assert.ok(!labels('tools:\n  x:\n    - ‸\n').includes('edit_file'), 'not a list inside `tools`');
    assert.ok(!labels('output_schema: [‸]\n').includes('edit_file'), 'not another top-level list');
  });

  it('completes the list just before a comment, also after a `#` in a quoted entry on the line', () => {
    for (const marked of ['tools: [read_file, ‸# more\n  ]\n', 'tools: ["x#y", ‸# more\n  ]\n']) {
      const tools = labels(marked);
      assert.ok(tools.includes('edit_file'), `${JSON.stringify(marked)}: ${tools.join()}`);
    }
  });

  it('a flow list holding a nested list or mapping: the entries after it are still taken as written', () => {
    for (const marked of ['name: planner\ntools: [[x], grep, ‸]\n', 'name: planner\ntools: [{x: y}, grep, ‸]\n']) {
      const tools = labels(marked);
      assert.ok(tools.includes('glob'), `${JSON.stringify(marked)}: ${tools.join()}`);
      assert.ok(!tools.includes('grep'), `${JSON.stringify(marked)}: ${tools.join()}`);
    }
  });

  it('a key counts as written only at its own level, and the key being typed over is offered again', () => {
    // `model` under another key is not the role's.
    assert.ok(labels('name: planner\nextra:\n  model: m\n‸\n').includes('model'));
    // The cursor is in `model`, written again below: it may be rewritten in place.
    assert.ok(labels('name: planner\nmo‸del: m\nmodel: x\n').includes('model'));
  });
});

describe('Picasso editor: hovers', () => {
  it('says which memory scopes refuse a tool, and what this role does with it', () => {
    const text = hoverText(role('memory: read-only\ntools: [read_file, write_‸memory]\ndeny: [grep]\n'));
    assert.match(text, /Refused by `memory: none`\./);
    assert.match(text, /Refused by `memory: read-only`\./);
    assert.match(text, /Refused by this role's `memory: read-only`: the role is refused at load\./);
    assert.doesNotMatch(text, /Also in `deny`/);
    const denied = hoverText(role('tools: [read_file, gr‸ep]\ndeny: [grep]\n'));
    assert.match(denied, /Also in `deny`: the role is refused at load\./);
    assert.doesNotMatch(denied, /Refused by/);
    const query = hoverText(role('tools: [query_‸memory]\n'));
    assert.match(query, /Refused by `memory: none`\./);
    assert.doesNotMatch(query, /read-only|this role's/);
  });

  it('on a `deny` entry: the scopes that refuse it, and nothing this role does with its `tools`', () => {
    const text = hoverText(role('memory: read-only\ntools: [read_file]\ndeny: [write_‸memory]\n'));
    assert.match(text, /Refused by `memory: read-only`\./);
    assert.doesNotMatch(text, /this role's|Also in `deny`/);
  });

  it('says nothing of tools for an entry of another list, or of a list inside `tools`', () => {
    for (const marked of [role('output_schema: [gre‸p]\n'), role('tools:\n  - [gre‸p]\n')])
      assert.strictEqual(hoverText(marked), '', marked);
    assert.match(hoverText(role('tools: [gre‸p]\n')), /^\*\*grep\*\* — Picasso tool/);
  });

  it('names the tool a misspelt entry is near, in `deny` as in `tools`', () => {
    assert.match(hoverText(role('tools: [read_file]\ndeny: [gre‸q]\n')), /`grep`/);
    assert.match(hoverText(role('tools: [read_fil‸]\n')), /`read_file`/);
  });

  it('says what a memory scope refuses before the key documentation, or that it is not one', () => {
    const none = hoverText(role('memory: no‸ne\n'));
    assert.match(none, /^`memory: none` refuses `query_memory` and `write_memory`\.\n\n---\n\n/);
    const session = hoverText(role('memory: sess‸ion\n'));
    assert.match(session, /^`memory: session` refuses no tool and gives the run a session-scoped namespace\./);
    for (const scope of ['bogus', 'constructor'])
      assert.match(hoverText(role(`memory: ${scope}‸\n`)), new RegExp(`^\`${scope}\` is not a memory scope: use`));
    assert.doesNotMatch(hoverText(role('model: m‸x\n')), /memory scope/);
  });

  it('on a key: its type, presence and default (when it has one), summary, Picasso note and reference link', () => {
    const link = 'https://github.com/subagents-tooling/subagents/blob/main/docs/keys/picasso.md';
    assert.strictEqual(
      hoverText('name: planner\nde‸ny: [grep]\n'),
      '**deny** — list of tool names\n\n*optional · default: []*\n\n' +
        'Tools removed from the child’s tool surface (`tools` stays the allowlist).\n\n' +
        'Picasso: Must be disjoint from `tools`: a shared name refuses the role file at load.\n\n' +
        `[Picasso key reference](${link}#deny)`,
    );
    assert.strictEqual(
      hoverText('name: planner\nmo‸del: m\n'),
      `**model** — string\n\n*required*\n\nThe default model route the role runs on.\n\n[Picasso key reference](${link}#model)`,
    );
  });
});

describe('Picasso editor: removed tools are faded', () => {
  it('marks a `tools` entry that `deny` or the memory scope takes away, and nothing else', () => {
    const { analysis, text } = at(role('memory: read-only\ntools: [read_file, grep, write_memory]\ndeny: [grep]\n'));
    const faded = removedToolDiagnostics(analysis).map((d) => [
      d.message,
      text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character),
    ]);
    assert.deepStrictEqual(faded, [
      ['`grep` is granted here, then removed by `deny`.', 'grep'],
      ['`write_memory` is granted here, then removed by `memory: read-only`.', 'write_memory'],
    ]);
  });
});

describe('Picasso editor: F2 renames the role', () => {
  const TEXT = role('tools: [read_file]\n');
  const cursorOn = (needle: string, text = TEXT) => {
    const i = text.indexOf(needle) + 1;
    return text.slice(0, i) + CURSOR + text.slice(i);
  };
  const rename = (typed: string, over?: Partial<RenameOptions>, marked = cursorOn('planner')) => {
    const { analysis, position } = at(marked);
    return renameDefinition(analysis, 'file:///w/apps/cli/agents/planner.yaml', position, typed, renameOptions(over));
  };
  const newTexts = (edit: WorkspaceEdit) =>
    (edit.documentChanges ?? []).flatMap((c) =>
      'edits' in c ? (c as TextDocumentEdit).edits.map((e) => ('newText' in e ? e.newText : '')) : [],
    );

  it('starts on `name` or `invocation` (the name without quotes), and nowhere else', () => {
    const prepared = (marked: string) => {
      const { analysis, position } = at(marked);
      return prepareRename(analysis, position);
    };
    assert.deepStrictEqual(prepared(cursorOn('planner')), {
      range: { start: { line: 0, character: 6 }, end: { line: 0, character: 13 } },
      placeholder: 'planner',
    });
    assert.deepStrictEqual(prepared(cursorOn('@planner')), {
      range: { start: { line: 1, character: 13 }, end: { line: 1, character: 21 } },
      placeholder: 'planner',
    });
    const off = prepared(cursorOn('model'));
    assert.ok(isRefusal(off) && /cursor on the definition’s `name`/.test(off.error), JSON.stringify(off));
    const nameless = prepared('model: m‸\n');
    assert.ok(isRefusal(nameless), JSON.stringify(nameless));
    // The name's own span, both ends included; not its key.
    const onLine = (marked: string) => prepared(TEXT.replace('name: planner', marked));
    assert.ok(isRefusal(onLine('na‸me: planner')));
    for (const marked of ['name: ‸planner', 'name: planner‸'])
      assert.deepStrictEqual(onLine(marked), prepared(cursorOn('planner')), marked);
  });

  it('renames name, invocation and file together; `@` typed on the invocation is the handle', () => {
    for (const typed of ['scout', '@scout']) {
      const result = rename(typed);
      assert.ok(result && !isRefusal(result), JSON.stringify(result));
      const changes = result.edit.documentChanges ?? [];
      assert.deepStrictEqual(newTexts(result.edit).sort(), ['"@scout"', 'scout'].sort(), typed);
      assert.ok(
        changes.some((c) => 'kind' in c && c.kind === 'rename' && c.newUri.endsWith('/apps/cli/agents/scout.yaml')),
        JSON.stringify(changes),
      );
      assert.deepStrictEqual(result.notes, []);
    }
    const withoutFiles = rename('scout', { renameFiles: false });
    assert.ok(withoutFiles && !isRefusal(withoutFiles));
    assert.match(withoutFiles.notes.join(), /Rename planner\.yaml to scout\.yaml yourself/);
  });

  it('refuses a name Picasso would not take, a file that exists, and a name taken in the folder', () => {
    const error = (result: ReturnType<typeof rename>) => (isRefusal(result) ? result.error : JSON.stringify(result));
    assert.match(error(rename('Scout')), /^`Scout` is not a snake_case name/);
    assert.match(error(rename('@Scout')), /^`Scout` is not a snake_case name/);
    assert.match(
      error(rename('scout', { exists: (p) => p === '/w/apps/cli/agents/scout.yaml' })),
      /^scout\.yaml already exists in this folder; choose another name\.$/,
    );
    const other = { path: '/w/.picasso/agents/scout.md', kind: 'picasso' as const, names: [{ name: 'scout' }] };
    assert.match(
      error(rename('scout', { definitions: [other], scope: '/w' })),
      /^The role in \.picasso\/agents\/scout\.md is already named `scout`; choose another name\.$/,
    );
    // Another folder: free.
    const elsewhere = rename('scout', { definitions: [other], scope: '/elsewhere' });
    assert.ok(elsewhere && !isRefusal(elsewhere));
    // In the folder: another runtime, the role itself, another name or none: free.
    for (const definitions of [
      [{ ...other, kind: 'polytoken' as const }],
      [{ ...other, path: ROLE, names: [{ name: 'scout' }] }],
      [{ ...other, names: [{ name: 'scouts' }] }],
      [{ ...other, names: [] }],
    ]) {
      const result = rename('scout', { definitions, scope: '/w' });
      assert.ok(result && !isRefusal(result), JSON.stringify(definitions));
    }
    const same = rename('planner', { exists: () => true });
    assert.ok(same && !isRefusal(same), 'its own file is no obstacle');
  });
});
