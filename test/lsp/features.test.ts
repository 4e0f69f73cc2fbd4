import * as assert from 'assert';
import * as path from 'path';
import type { CompletionItem, CompletionList, Hover, MarkupContent } from 'vscode-languageserver-types';
import { cursor, startServer, type TestClient } from './harness';

const CONFIG = `mcp:
  github: [create_issue, list_issues]
tools:
  polytoken:
    - { name: shell, description: Runs a command., tags: [exec] }
`;

const poly = (body: string) => `---\nname: triage\ndescription: Sorts issues.\n${body}---\nYou triage issues.\n`;

describe('LSP completion and hover', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  const polyFile = () => path.join(ws, '.polytoken/subagents/triage.md');
  const picassoFile = () => path.join(ws, '.picasso/agents/auditor.md');
  const profyFile = () => path.join(ws, 'experts/book.expert.json');

  before(async () => {
    ({ client, ws } = await startServer({ '.subagents.yaml': CONFIG }));
  });
  after(async () => client.stop());

  async function complete(file: string, marked: string): Promise<string[]> {
    const { text, position } = cursor(marked);
    const uri = await client.open(file, text);
    const result = await client.request<CompletionList | CompletionItem[] | null>('textDocument/completion', {
      textDocument: { uri },
      position,
    });
    await client.close(uri);
    const items = Array.isArray(result) ? result : (result?.items ?? []);
    return items.map((i) => i.label);
  }

  async function hoverText(file: string, marked: string): Promise<string> {
    const { text, position } = cursor(marked);
    const uri = await client.open(file, text);
    const h = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position });
    await client.close(uri);
    return h ? (h.contents as MarkupContent).value : '';
  }

  it('Polytoken tools (flow list): shorthands and catalog, not exit_tool, not what is listed', async () => {
    const labels = await complete(polyFile(), poly('polytoken:\n  tools: [file_read, |]\n'));
    for (const l of ['tag!ALL', 'tag!ALL_MCP', 'tag!exec', 'mcp__github', 'grep', 'shell', 'mcp__github__create_issue'])
      assert.ok(labels.includes(l), `${l} in ${labels}`);
    for (const l of ['exit_tool', 'switch_facet', 'file_read']) assert.ok(!labels.includes(l), `${l} not offered`);
  });

  it('Polytoken tools_deny: literal names only, nothing undeniable', async () => {
    const labels = await complete(polyFile(), poly('polytoken:\n  tools: [grep]\n  tools_deny: [|]\n'));
    for (const l of ['grep', 'message_subagent', 'mcp__github__create_issue'])
      assert.ok(labels.includes(l), `${l} in ${labels}`);
    // switch_facet is never granted, so denying it does nothing.
    for (const l of [
      'tag!ALL',
      'tag!ALL_MCP',
      'mcp__github',
      'exit_tool',
      'job_status',
      'tool_search',
      'skill',
      'switch_facet',
    ])
      assert.ok(!labels.includes(l), `${l} not offered`);
  });

  it('Polytoken undeferred_tools (block list): no switch_facet, no shorthands', async () => {
    const labels = await complete(polyFile(), poly('polytoken:\n  tools: [grep]\n  undeferred_tools:\n    - |\n'));
    assert.ok(labels.includes('grep'));
    assert.ok(!labels.includes('switch_facet'));
    assert.ok(!labels.includes('tag!ALL'));
  });

  it('keys on an empty line under polytoken, without the ones already there', async () => {
    const labels = await complete(polyFile(), poly('polytoken:\n  tools: [grep]\n  |\n'));
    for (const l of ['inherit_tools', 'exit_tool_schema', 'tools_deny', 'model'])
      assert.ok(labels.includes(l), `${l} in ${labels}`);
    assert.ok(!labels.includes('tools'));
    assert.ok(!labels.includes('name'));
  });

  it('key completion carries a snippet body and documentation', async () => {
    const { text, position } = cursor(poly('polytoken:\n  tools: [grep]\n  tools_d|\n'));
    const uri = await client.open(polyFile(), text);
    const result = await client.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position });
    await client.close(uri);
    const item = result.items.find((i) => i.label === 'tools_deny')!;
    assert.ok(item, 'tools_deny offered');
    assert.strictEqual((item.textEdit as { newText: string }).newText, 'tools_deny: [$1]');
    assert.strictEqual(item.insertTextFormat, 2);
    assert.match((item.documentation as MarkupContent).value, /literal/i);
  });

  it('still completes in broken YAML (unclosed flow list, stray text)', async () => {
    const labels = await complete(polyFile(), poly('polytoken:\n  tools: [file_read, gr|\n  model: : x\n'));
    assert.ok(labels.includes('grep'), `${labels}`);
    assert.ok(labels.includes('tag!ALL'));
  });

  it('status enum values inside exit_tool_schema', async () => {
    const labels = await complete(
      polyFile(),
      poly(
        'polytoken:\n  exit_tool_schema:\n    type: object\n    properties:\n      status:\n        type: string\n        enum: [ok, |]\n',
      ),
    );
    for (const l of ['success', 'failure', 'cancelled', 'done']) assert.ok(labels.includes(l), `${l} in ${labels}`);
    assert.ok(!labels.includes('ok'));
  });

  it('Picasso memory values, invocation and tools', async () => {
    const role = (rest: string) => `name: auditor\n${rest}`;
    assert.deepStrictEqual((await complete(picassoFile(), role('memory: |\n'))).sort(), [
      'none',
      'read-only',
      'session',
    ]);
    assert.deepStrictEqual(await complete(picassoFile(), role('invocation: |\n')), ['@auditor']);
    const tools = await complete(picassoFile(), role('tools:\n  - read_file\n  - |\ndeny: [delete_file]\n'));
    assert.ok(tools.includes('grep') && tools.includes('query_memory'));
    assert.ok(!tools.includes('read_file') && !tools.includes('delete_file'), `${tools}`);
  });

  it('Profy subagent tools: the main toolset minus reserved names, plus globs', async () => {
    const text = `{
  "name": "book",
  "description": "d",
  "tools": ["read", "grep", "mcp__ledger__post_entry", "delegate"],
  "subagents": [
    { "name": "scan", "description": "d", "system_prompt": "p", "tools": ["read", |] }
  ]
}`;
    const labels = await complete(profyFile(), text);
    for (const l of ['grep', 'mcp__ledger__post_entry', 'mcp__ledger__*', '*'])
      assert.ok(labels.includes(l), `${l} in ${labels}`);
    for (const l of ['read', 'delegate', 'glob']) assert.ok(!labels.includes(l), `${l} not offered`);
  });

  it('Profy keys of a subagent', async () => {
    const text = `{ "name": "book", "subagents": [ { "name": "scan", | } ] }`;
    const labels = await complete(profyFile(), text);
    assert.ok(labels.includes('system_prompt') && labels.includes('tools') && labels.includes('model'), `${labels}`);
    assert.ok(!labels.includes('name') && !labels.includes('delegationBrief'));
  });

  it('name offers the file name (YAML and JSON); an empty line in a block list offers `- name`', async () => {
    assert.deepStrictEqual(await complete(polyFile(), '---\nname: |\n---\n'), ['triage']);
    assert.deepStrictEqual(await complete(profyFile(), '{ "name": | }'), ['book']);
    const { text, position } = cursor('name: auditor\ntools:\n  - read_file\n  |\n');
    const uri = await client.open(picassoFile(), text);
    const result = await client.request<CompletionList>('textDocument/completion', { textDocument: { uri }, position });
    await client.close(uri);
    const grep = result.items.find((i) => i.label === 'grep')!;
    assert.strictEqual((grep.textEdit as { newText: string }).newText, '- grep');
    assert.ok(!result.items.some((i) => i.label === 'read_file'));
  });

  it('hover: a key, a tool, a shorthand with its expansion, a status value', async () => {
    const key = await hoverText(polyFile(), poly('polytoken:\n  tools_d|eny: [grep]\n'));
    assert.match(key, /tools_deny/);
    assert.match(key, /literal/i);
    const tool = await hoverText(polyFile(), poly('polytoken:\n  tools: [file_r|ead]\n'));
    assert.match(tool, /Reads a file/);
    assert.match(tool, /Built into: Polytoken/);
    const all = await hoverText(polyFile(), poly('polytoken:\n  tools: [tag!A|LL_MCP]\n'));
    assert.match(all, /Expands now to 2 tools/);
    assert.match(all, /mcp__github__create_issue/);
    const status = await hoverText(
      polyFile(),
      poly('polytoken:\n  exit_tool_schema:\n    properties:\n      status:\n        enum: [we|ird]\n'),
    );
    assert.match(status, /unrecognized/);
    const undeniable = await hoverText(polyFile(), poly('polytoken:\n  tools_deny: [job_st|atus]\n'));
    assert.match(undeniable, /tools_deny/);
  });

  it('hover still works in YAML that does not parse', async () => {
    const broken = poly('polytoken:\n  tools: [file_read, tag!AL|L_MCP\n  tools_deny: : [\n');
    assert.match(await hoverText(polyFile(), broken), /Expands now to 2 tools/);
    const key = poly('polytoken:\n  inherit_to|ols: yes\n  tools: [a\n  x: : y\n');
    assert.match(await hoverText(polyFile(), key), /calling facet/);
  });

  it('hover on a Profy glob shows what it matches now', async () => {
    const text = `{ "name": "b", "tools": ["read", "mcp__l__a", "mcp__l__b", "Task"], "subagents": [ { "name": "s", "tools": ["mcp__l__|*", "*"] } ] }`;
    const h = await hoverText(profyFile(), text);
    assert.match(h, /Matches now 2 tools/);
    const star = await hoverText(profyFile(), text.replace('"mcp__l__|*", "*"', '"mcp__l__*", "|*"'));
    assert.match(star, /Reserved names it also matches are never granted: `Task`/);
  });

  it('the body template: hover on `prompt` and `raw`, completion of `prompt` in `{{ }}` and block tags in `{% %}`', async () => {
    const body = (b: string) => `---\nname: triage\ndescription: Sorts issues.\n---\n${b}`;
    assert.match(
      await hoverText(polyFile(), body('Triage {{ pro|mpt }} now.\n')),
      /^\*\*prompt\*\* \u2014 Polytoken template\n\nThe task the calling model gave/,
    );
    assert.match(await hoverText(polyFile(), body('{% ra|w %}{{ x }}{% endraw %}\n')), /literal text/);
    assert.strictEqual(await hoverText(polyFile(), body('Read the pro|mpt carefully.\n')), '', 'prose is not template');
    assert.deepStrictEqual(await complete(polyFile(), body('Triage {{ pr| }} now.\n')), ['prompt']);
    const tags = await complete(polyFile(), body('{% | %}\n'));
    assert.ok(tags.includes('if') && tags.includes('raw') && !tags.includes('prompt'), tags.join(', '));
    assert.deepStrictEqual(await complete(polyFile(), body('Triage pr| now.\n')), [], 'nothing in prose');
  });
});
