/**
 * What the server sends depends on what the client said it can do: code actions for three
 * capability sets (one recorded from a real Neovim 0.7.2), and the completion trigger characters.
 */
import * as assert from 'assert';
import * as path from 'path';
import type { CodeAction, CompletionList } from 'vscode-languageserver-types';
import { NEOVIM_0_7_CAPABILITIES } from './clients/neovim';
import { cursor, startServer, type ClientOptions, type TestClient } from './harness';

const MISNAMED = '---\nname: reviewr\ndescription: Reviews a change.\npolytoken:\n  tools: [grep]\n---\nReview it.\n';

describe('code actions follow the client capabilities', function () {
  this.timeout(60000);

  /** The code actions offered for polytoken/name-mismatch in a misnamed definition. */
  async function nameMismatchActions(
    options: ClientOptions,
  ): Promise<{ actions: CodeAction[]; uri: string; version: number }> {
    const { client, ws } = await startServer({}, options);
    try {
      const uri = await client.open(path.join(ws, '.polytoken/subagents/reviewer.md'), MISNAMED);
      const ds = await client.diagnosticsFor(uri, (d) => d.some((x) => x.code === 'polytoken/name-mismatch'));
      const diagnostic = ds.find((x) => x.code === 'polytoken/name-mismatch')!;
      const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic] },
      });
      return { actions, uri, version: client.version(uri) };
    } finally {
      await client.stop();
    }
  }
  const titles = (actions: CodeAction[]) => actions.map((a) => a.title);

  it('Neovim 0.7.2 (resourceOperations without documentChanges): no file rename, and no documentChanges at all', async () => {
    assert.ok(
      NEOVIM_0_7_CAPABILITIES.workspace.workspaceEdit.resourceOperations.includes('rename'),
      'the recorded set does list rename',
    );
    const { actions, uri } = await nameMismatchActions({ capabilities: NEOVIM_0_7_CAPABILITIES });
    assert.deepStrictEqual(titles(actions), [
      'Set name to `reviewer`',
      'Disable polytoken/name-mismatch for this line',
    ]);
    for (const a of actions) {
      assert.strictEqual(a.edit?.documentChanges, undefined, a.title);
      assert.ok(a.edit?.changes?.[uri]?.length, a.title);
    }
  });

  it('documentChanges with the rename operation: the rename is offered, and text edits carry the document version', async () => {
    const { actions, uri, version } = await nameMismatchActions({});
    const rename = actions.find((a) => a.title === 'Rename the file to `reviewr.md`');
    assert.ok(rename, JSON.stringify(titles(actions)));
    const op = rename.edit!.documentChanges![0] as { kind: string; oldUri: string; newUri: string };
    assert.deepStrictEqual({ kind: op.kind, oldUri: op.oldUri }, { kind: 'rename', oldUri: uri });
    assert.ok(op.newUri.endsWith('/.polytoken/subagents/reviewr.md'), op.newUri);
    const setName = actions.find((a) => a.title === 'Set name to `reviewer`')!;
    assert.strictEqual(setName.edit!.changes, undefined);
    assert.deepStrictEqual((setName.edit!.documentChanges![0] as { textDocument: unknown }).textDocument, {
      uri,
      version,
    });
  });

  it('documentChanges without resource operations: no rename', async () => {
    const { actions } = await nameMismatchActions({
      capabilities: { workspace: { workspaceEdit: { documentChanges: true } } },
    });
    assert.deepStrictEqual(titles(actions), [
      'Set name to `reviewer`',
      'Disable polytoken/name-mismatch for this line',
    ]);
    assert.ok(actions.every((a) => a.edit?.documentChanges?.length === 1 && !a.edit.changes));
  });
});

describe('completion trigger characters', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;

  before(async () => {
    ({ client, ws } = await startServer({ '.subagents.yaml': 'mcp:\n  github: [create_issue, list_issues]\n' }));
  });
  after(async () => client.stop());

  async function labelsAt(file: string, marked: string): Promise<string[]> {
    const { text, position } = cursor(marked);
    const uri = await client.open(path.join(ws, file), text);
    try {
      await client.diagnosticsFor(uri);
      const list = await client.request<CompletionList | null>('textDocument/completion', {
        textDocument: { uri },
        position,
      });
      return (list?.items ?? []).map((i) => i.label);
    } finally {
      await client.close(uri);
    }
  }
  const poly = (toolsLine: string) =>
    `---\nname: a\ndescription: d\npolytoken:\n${toolsLine}\n---\nBody text, with commas - and dashes.\n`;
  const POLY = '.polytoken/subagents/a.md';

  it('no space and no dash: they would fire on every word and list dash of the Markdown body', () => {
    const triggers: string[] = client.initializeResult!.capabilities.completionProvider.triggerCharacters;
    assert.deepStrictEqual([...triggers].sort(), ['!', '"', ',', '@', '[', '_']);
  });

  it('after `tools: [file_read, ` (where a space used to trigger) completion still offers the other tools', async () => {
    const labels = await labelsAt(POLY, poly('  tools: [file_read, |'));
    for (const l of ['glob', 'grep', 'tag!ALL']) assert.ok(labels.includes(l), `${l} in ${labels.join(' ')}`);
    assert.ok(!labels.includes('file_read'), 'already listed');
  });

  // Each character the server keeps: typed where it starts something, completion has the right items.
  const helpful: [string, string, string, string[]][] = [
    ['[', POLY, poly('  tools: [|'), ['grep', 'file_read']],
    [',', POLY, poly('  tools: [grep,|'), ['glob', 'file_read']],
    ['!', POLY, poly('  tools: [tag!|]'), ['tag!ALL', 'tag!ALL_MCP']],
    ['_', POLY, poly('  tools: [mcp_|]'), ['mcp__github']],
    ['"', 'experts/x.expert.json', '{"name":"x","description":"d","tools":["|"]}', ['read', 'grep']],
    ['@', 'apps/cli/agents/b.yaml', 'name: b\ninvocation: "@|"\n', ['@b']],
  ];
  for (const [char, file, marked, expected] of helpful) {
    it(`'${char}' starts a completion with ${expected.join(', ')}`, async () => {
      const at = marked.indexOf('|');
      assert.strictEqual(marked[at - 1], char, 'the cursor follows the trigger character');
      const labels = await labelsAt(file, marked);
      for (const l of expected) assert.ok(labels.includes(l), `${l} in ${labels.join(' ')}`);
    });
  }

  it('a trigger character in the Markdown body gets nothing', async () => {
    const labels = await labelsAt(POLY, poly('  tools: [grep]').replace('text,', 'text,|'));
    assert.deepStrictEqual(labels, []);
  });
});

describe('the capabilities the server declares', function () {
  this.timeout(60000);

  /** What every client is told, whatever it can do. */
  const ALWAYS = {
    textDocumentSync: { openClose: true, change: 2, save: { includeText: false } },
    completionProvider: { triggerCharacters: ['[', ',', '"', '@', '!', '_'], resolveProvider: false },
    hoverProvider: true,
    codeActionProvider: { codeActionKinds: ['quickfix', 'source.fixAll.subagents'] },
    documentSymbolProvider: true,
    workspaceSymbolProvider: true,
    foldingRangeProvider: true,
    definitionProvider: true,
    documentLinkProvider: { resolveProvider: false },
    codeLensProvider: { resolveProvider: false },
    executeCommandProvider: { commands: ['subagents.server.resolve'] },
    workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
  };

  async function declared(options: ClientOptions): Promise<{ capabilities: unknown; serverInfo: unknown }> {
    const { client } = await startServer({}, options);
    try {
      const result = client.initializeResult as unknown as { capabilities: unknown; serverInfo: unknown };
      return { capabilities: result.capabilities, serverInfo: result.serverInfo };
    } finally {
      await client.stop();
    }
  }

  it('to a client that says nothing: plain rename, no inlay hints, diagnostics pushed', async () => {
    const { capabilities, serverInfo } = await declared({ minimal: true });
    assert.deepStrictEqual(capabilities, { ...ALWAYS, renameProvider: true });
    assert.deepStrictEqual(serverInfo, { name: 'subagents-language-server', version: '0.1.0' });
  });

  it('to a client with prepareRename, inlay hints and pull diagnostics: each of them', async () => {
    const { capabilities } = await declared({
      capabilities: {
        textDocument: { rename: { prepareSupport: true }, inlayHint: {}, diagnostic: {} },
      },
    });
    assert.deepStrictEqual(capabilities, {
      ...ALWAYS,
      renameProvider: { prepareProvider: true },
      inlayHintProvider: true,
      diagnosticProvider: { identifier: 'subagents', interFileDependencies: true, workspaceDiagnostics: true },
    });
  });
});
