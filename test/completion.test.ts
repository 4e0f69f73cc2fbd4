/**
 * Completion as the engine answers it (the server only moves these items): a tool list never
 * offers what it already holds, except the entry being edited, which may be rewritten in place.
 * test/lsp/features.test.ts asks the same of the real server; these run in-process, where the
 * mutation run (docs/testing.md) sees them.
 */
import * as assert from 'assert';
import { parseConfig } from '../shared/config/config';
import { analyze } from '../shared/engine';
import { completions } from '../shared/features/completion';
import { hover } from '../shared/features/hover';
import { SourceText } from '../shared/text/source';

const CONFIG = `mcp:
  github: [create_issue, list_issues]
`;

/** The labels offered at the `|` of `marked`, a file at `path` under /w with CONFIG. */
function labelsAt(path: string, marked: string): string[] {
  const at = marked.indexOf('|');
  assert.ok(at >= 0, 'no cursor marker');
  const text = marked.slice(0, at) + marked.slice(at + 1);
  const config = parseConfig(CONFIG, '/w/.subagents.yaml', '/w');
  const analysis = analyze({ text, path, config, root: '/w' });
  return completions(analysis, new SourceText(text).position(at)).map((i) => i.label);
}

const EXPERT = '/w/experts/book.expert.json';

describe('completion: a tool list offers what it does not hold yet', () => {
  it('Profy Expert tools: the catalog without the entries listed, without reserved names', () => {
    const labels = labelsAt(EXPERT, '{ "name": "book", "tools": ["read", "mcp__github__create_issue", "|"] }');
    for (const l of ['grep', 'glob', 'mcp__github__list_issues']) assert.ok(labels.includes(l), `${l} in ${labels}`);
    for (const l of ['read', 'mcp__github__create_issue', 'delegate']) assert.ok(!labels.includes(l), `${l} offered`);
  });

  it('Profy Expert tools: the entry being edited is offered again (it replaces itself)', () => {
    const labels = labelsAt(EXPERT, '{ "name": "book", "tools": ["grep", "re|ad"] }');
    assert.ok(labels.includes('read'), `read in ${labels}`);
    assert.ok(!labels.includes('grep'), `grep offered in ${labels}`);
  });

  it('Profy subagent allowlist: the main toolset without what the subagent lists', () => {
    const labels = labelsAt(
      EXPERT,
      '{ "name": "book", "tools": ["read", "grep", "glob"], "subagents": [ { "name": "scan", "tools": ["glob", "|"] } ] }',
    );
    for (const l of ['read', 'grep', '*']) assert.ok(labels.includes(l), `${l} in ${labels}`);
    assert.ok(!labels.includes('glob'), `glob offered in ${labels}`);
  });

  it('Polytoken tools: shorthands and catalog, not what is listed', () => {
    const labels = labelsAt(
      '/w/.polytoken/subagents/triage.md',
      '---\nname: triage\npolytoken:\n  tools: [file_read, mcp__github, |]\n---\nBody.\n',
    );
    for (const l of ['grep', 'tag!ALL', 'mcp__github__create_issue'])
      assert.ok(labels.includes(l), `${l} in ${labels}`);
    for (const l of ['file_read', 'mcp__github', 'exit_tool']) assert.ok(!labels.includes(l), `${l} offered`);
  });

  it('Picasso tools: the catalog without what is listed or denied', () => {
    const labels = labelsAt(
      '/w/apps/cli/agents/auditor.yaml',
      'name: auditor\ntools:\n  - read_file\n  - |\ndeny: [delete_file]\n',
    );
    for (const l of ['grep', 'query_memory']) assert.ok(labels.includes(l), `${l} in ${labels}`);
    for (const l of ['read_file', 'delete_file']) assert.ok(!labels.includes(l), `${l} offered`);
  });
});

describe('completion: directive names in a YAML comment', () => {
  it('replaces the name typed after `#` (and what follows it of the word) with the directive and a space', () => {
    const marked = 'name: auditor\n# subag|en\ntools: [grep]\n';
    const at = marked.indexOf('|');
    const text = marked.slice(0, at) + marked.slice(at + 1);
    const config = parseConfig(CONFIG, '/w/.subagents.yaml', '/w');
    const analysis = analyze({ text, path: '/w/apps/cli/agents/auditor.yaml', config, root: '/w' });
    const range = { start: { line: 1, character: 2 }, end: { line: 1, character: 9 } };
    assert.deepStrictEqual(
      completions(analysis, new SourceText(text).position(at)).map((i) => [i.label, i.textEdit]),
      [
        ['subagents-disable-next-line', { range, newText: 'subagents-disable-next-line ' }],
        ['subagents-disable', { range, newText: 'subagents-disable ' }],
      ],
    );
  });

  it('offers the rule ids a directive does not list yet, before or after the cursor; the id being typed stays offered', () => {
    const ids = (comment: string) =>
      labelsAt('/w/apps/cli/agents/auditor.yaml', `name: auditor\n${comment}\ntools: [grep]\n`);
    const all = ids('# subagents-disable |');
    for (const id of ['picasso/unknown-key', 'picasso/unknown-tool', 'picasso/name-mismatch'])
      assert.ok(all.includes(id), `${id} in ${all}`);
    const rest = ids('# subagents-disable picasso/unknown-key, picasso/unknown-t|, picasso/name-mismatch # why');
    assert.ok(rest.includes('picasso/unknown-tool'), 'the id being typed');
    for (const id of ['picasso/unknown-key', 'picasso/name-mismatch']) assert.ok(!rest.includes(id), `${id} listed`);
    assert.strictEqual(rest.length, all.length - 2);
    // The cursor at either end of a whole id: that id is the word replaced, so it stays offered.
    for (const comment of ['# subagents-disable |picasso/unknown-key', '# subagents-disable picasso/unknown-key|'])
      assert.ok(ids(comment).includes('picasso/unknown-key'), comment);
  });
});

describe('completion: what a key of .subagents.yaml writes', () => {
  /** The text each key offered at `|` writes (snippet placeholders as written), by label. */
  const inserts = (marked: string) => {
    const at = marked.indexOf('|');
    const text = marked.slice(0, at) + marked.slice(at + 1);
    const analysis = analyze({
      text,
      path: '/w/.subagents.yaml',
      config: parseConfig(CONFIG, '/w/.subagents.yaml', '/w'),
      root: '/w',
    });
    const items = completions(analysis, new SourceText(text).position(at));
    return Object.fromEntries(
      items.map((i) => [i.label, i.textEdit && 'newText' in i.textEdit ? i.textEdit.newText : i.insertText]),
    );
  };

  it('the shape of its value: an indented block for a mapping, `[]` for a list, a place for a scalar', () => {
    const top = inserts('|');
    assert.strictEqual(top.polytoken, 'polytoken:\n  $0');
    assert.strictEqual(top.ignore, 'ignore: [$1]');
    assert.strictEqual(inserts('polytoken:\n  |\n').globalDir, 'globalDir: $1');
    // With its colon written already, only the key.
    assert.strictEqual(inserts('ign|: []\n').ignore, 'ignore');
  });
});

describe('hover in .subagents.yaml: an MCP tool', () => {
  const hoverAt = (text: string, offset: number) => {
    const config = parseConfig(text, '/w/.subagents.yaml', '/w');
    const h = hover(
      analyze({ text, path: '/w/.subagents.yaml', config, root: '/w' }),
      new SourceText(text).position(offset),
    );
    return h && typeof h.contents === 'object' && 'value' in h.contents ? h.contents.value : '';
  };

  it("names a server's tool as every runtime knows it; another list of two levels, or `mcp` as a list, is not one", () => {
    const text = 'mcp:\n  github: [create_issue]\npolytoken:\n  subagentDirs: [create_issue]\n';
    assert.strictEqual(
      hoverAt(text, text.indexOf('create_issue') + 2),
      '`mcp__github__create_issue`: a tool of MCP server `github`, known to every runtime by this full name.',
    );
    assert.doesNotMatch(hoverAt(text, text.lastIndexOf('create_issue') + 2), /`mcp__/);
    assert.doesNotMatch(hoverAt('mcp: [lone]\n', 8), /`mcp__/);
  });
});

describe('completion: keys of a list entry in .subagents.yaml', () => {
  const keys = (marked: string) => labelsAt('/w/.subagents.yaml', marked);

  it("offers the keys the entry has not written: its dash line's key counts, another entry's do not", () => {
    assert.deepStrictEqual(keys('tools:\n  polytoken:\n    - name: deploy\n      |\n'), ['description', 'tags']);
    // The next entry's first key is its own.
    assert.deepStrictEqual(keys('tools:\n  polytoken:\n    - description: d\n      |\n    - name: b\n'), [
      'name',
      'tags',
    ]);
    // A later entry: the first entry's keys are not written here (nor in the tree at the entry's index).
    assert.deepStrictEqual(
      keys('tools:\n  polytoken:\n    - name: a\n      tags: [x]\n    - description: d\n      |\n'),
      ['name', 'tags'],
    );
    assert.deepStrictEqual(
      keys(
        'tools:\n  polytoken:\n    - name: a\n    # between\n    - name: b\n      tags: [x]\n    - description: d\n      |\n',
      ),
      ['name', 'tags'],
    );
    // Dashes at the key's own column.
    assert.deepStrictEqual(keys('tools:\n  polytoken:\n  - name: a\n    tags: [x]\n  - description: d\n    |\n'), [
      'name',
      'tags',
    ]);
    // The third entry, written in full above the cursor's key.
    assert.deepStrictEqual(
      keys('tools:\n  polytoken:\n    - name: a\n    - name: b\n    - name: c\n      tags: [y]\n      |\n'),
      ['description'],
    );
  });
});
