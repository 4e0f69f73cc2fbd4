/** `workspace/executeCommand` and the code lens's command id, over stdio with the real server. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { CodeLens } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { NEOVIM_0_7_CAPABILITIES } from './clients/neovim';
import { startServer, type ClientOptions, type TestClient } from './harness';

const DEFINITION =
  '---\nname: reviewer\ndescription: Reviews a change.\npolytoken:\n  tools: [file_read, grep, glob]\n  tools_deny: [glob]\n---\nReview it.\n';
const FILE = '.polytoken/subagents/reviewer.md';

interface ShowMessage {
  type: number;
  message: string;
}

describe('the resolve command on the server', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  const messages: ShowMessage[] = [];
  const shownDocuments: { uri: string; takeFocus?: boolean }[] = [];
  let showDocumentSucceeds = true;

  async function start(options: ClientOptions): Promise<void> {
    ({ client, ws } = await startServer({}, options));
    messages.length = 0;
    shownDocuments.length = 0;
    client.connection.onNotification('window/showMessage', (m: ShowMessage) => {
      messages.push(m);
    });
    client.connection.onRequest('window/showDocument', (p: { uri: string; takeFocus?: boolean }) => {
      shownDocuments.push(p);
      return { success: showDocumentSucceeds };
    });
  }
  async function openDefinition(): Promise<string> {
    const uri = await client.open(path.join(ws, FILE), DEFINITION);
    await client.diagnosticsFor(uri);
    return uri;
  }
  const renderingPath = (message: string): string => /\nFull resolution: (.+)$/.exec(message)![1];

  afterEach(async () => client?.stop());

  describe('a client without window/showDocument (Neovim 0.7)', () => {
    beforeEach(() => start({ capabilities: NEOVIM_0_7_CAPABILITIES }));

    it('advertises subagents.server.resolve and puts it on the code lenses', async () => {
      assert.deepStrictEqual(client.initializeResult!.capabilities.executeCommandProvider, {
        commands: ['subagents.server.resolve'],
      });
      const uri = await openDefinition();
      const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
      assert.deepStrictEqual(
        lenses.map((l) => l.command),
        [{ title: 'loads \u00b7 3 tools', command: 'subagents.server.resolve', arguments: [uri] }],
      );
    });

    it('answers the resolution and shows it as a message naming the Markdown file', async () => {
      const uri = await openDefinition();
      const result = await client.request<any>('workspace/executeCommand', {
        command: 'subagents.server.resolve',
        arguments: [uri],
      });
      assert.deepStrictEqual(
        result,
        await client.request('subagents/resolve', { uri }),
        'the same object as subagents/resolve',
      );
      await client.until(() => messages.length > 0, 5000, 'window/showMessage');
      assert.strictEqual(messages[0].type, 3);
      assert.match(
        messages[0].message,
        /^subagents: \.polytoken\/subagents\/reviewer\.md \(polytoken\)\n {2}reviewer: loads · 3 tools: exit_tool, file_read, grep\nFull resolution: /,
      );
      const file = renderingPath(messages[0].message);
      assert.ok(file.startsWith(os.tmpdir() + path.sep), file);
      const markdown = fs.readFileSync(file, 'utf8');
      assert.match(markdown, /^# Resolved: \.polytoken\/subagents\/reviewer\.md\n\nDialect: \*\*polytoken\*\*\n/);
      assert.ok(!markdown.includes('live'), 'a one-off rendering does not claim to update');
      assert.match(markdown, /\| `grep` \| tools \|/);
      await client.stop();
      assert.ok(!fs.existsSync(file), 'the renderings are removed at shutdown');
    });

    it('marks the unknown tools in the message', async () => {
      const uri = await client.open(path.join(ws, FILE), DEFINITION.replace('grep, glob', 'grpe, glob'));
      await client.diagnosticsFor(uri);
      await client.request('workspace/executeCommand', { command: 'subagents.server.resolve', arguments: [uri] });
      await client.until(() => messages.length > 0, 5000, 'window/showMessage');
      assert.strictEqual(
        messages[0].message.split('\n')[1],
        '  reviewer: loads · 2 tools + 1 unknown: exit_tool, file_read, grpe (unknown)',
      );
    });

    it('a document that is not open, or no argument: null and a warning', async () => {
      const other = URI.file(path.join(ws, '.polytoken/subagents/other.md')).toString();
      assert.strictEqual(
        await client.request('workspace/executeCommand', { command: 'subagents.server.resolve', arguments: [other] }),
        null,
      );
      assert.strictEqual(
        await client.request('workspace/executeCommand', { command: 'subagents.server.resolve' }),
        null,
      );
      await client.until(() => messages.length === 2, 5000, 'two warnings');
      assert.deepStrictEqual(
        messages.map((m) => m.type),
        [2, 2],
      );
      assert.match(messages[0].message, /other\.md is not an open subagent definition/);
      assert.match(messages[1].message, /needs the URI of an open definition/);
    });
  });

  describe('a client with window/showDocument', () => {
    beforeEach(() => start({ capabilities: { window: { showDocument: { support: true } } } }));

    it('opens the Markdown rendering with window/showDocument, and sends no message', async () => {
      showDocumentSucceeds = true;
      const uri = await openDefinition();
      await client.request('workspace/executeCommand', { command: 'subagents.server.resolve', arguments: [{ uri }] });
      assert.strictEqual(shownDocuments.length, 1);
      assert.strictEqual(shownDocuments[0].takeFocus, true);
      const file = URI.parse(shownDocuments[0].uri).fsPath;
      assert.ok(file.endsWith(`${path.sep}reviewer.md.resolved.md`), file);
      assert.match(fs.readFileSync(file, 'utf8'), /\| `glob` \| tools_deny \|/);
      assert.deepStrictEqual(messages, []);
    });

    it('falls back to the message when the client could not show it', async () => {
      showDocumentSucceeds = false;
      const uri = await openDefinition();
      await client.request('workspace/executeCommand', { command: 'subagents.server.resolve', arguments: [uri] });
      await client.until(() => messages.length > 0, 5000, 'window/showMessage');
      assert.strictEqual(shownDocuments.length, 1);
      assert.match(messages[0].message, /Full resolution: .*reviewer\.md\.resolved\.md$/);
    });
  });

  it('the VS Code extension says it implements subagents.resolve: its lenses keep that id', async () => {
    await start({ initializationOptions: { clientCommands: ['subagents.resolve'] } });
    const uri = await openDefinition();
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.deepStrictEqual(
      lenses.map((l) => l.command!.command),
      ['subagents.resolve'],
    );
    // The server's own id stays distinct: vscode-languageclient registers it next to the extension's.
    assert.deepStrictEqual(client.initializeResult!.capabilities.executeCommandProvider.commands, [
      'subagents.server.resolve',
    ]);
  });
});
