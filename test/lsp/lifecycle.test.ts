/**
 * The end of a session, with the real server process: after `shutdown` every request is refused
 * with InvalidRequest and `exit` ends the process; a client that goes away without `shutdown`
 * (its end of stdin closes) ends the server too, and the temporary folder of the resolve
 * renderings (commands.ts) goes with it.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { ErrorCodes, ResponseError } from 'vscode-jsonrpc';
import { NEOVIM_0_7_CAPABILITIES } from './clients/neovim';
import { startServer, type TestClient } from './harness';
import { removeTree } from '../support/tree';

const DEFINITION = '---\nname: reviewer\ndescription: Reviews.\npolytoken:\n  tools: [file_read, grep]\n---\nReview.\n';
const FILE = '.polytoken/subagents/reviewer.md';

/** The process's exit code, once it has exited. */
const exited = (client: TestClient): Promise<number | null> =>
  client.child.exitCode !== null
    ? Promise.resolve(client.child.exitCode)
    : new Promise((resolve) => client.child.once('exit', (code) => resolve(code)));

describe('the end of a session', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  afterEach(async () => {
    await client.stop();
    removeTree(ws);
  });

  /** Opens the definition and has the server write its rendering; returns the rendering's path. */
  async function rendering(): Promise<string> {
    const messages: string[] = [];
    client.connection.onNotification('window/showMessage', (m: { message: string }) => {
      messages.push(m.message);
    });
    const uri = await client.open(path.join(ws, FILE), DEFINITION);
    await client.diagnosticsFor(uri);
    await client.request('workspace/executeCommand', { command: 'subagents.server.resolve', arguments: [uri] });
    const message = await client.until(() => messages.find((m) => m.includes('Full resolution: ')), 5000, 'message');
    const file = /Full resolution: (.+)$/.exec(message)![1];
    assert.ok(fs.existsSync(file), file);
    return file;
  }

  it('after shutdown: every request is refused with InvalidRequest, and exit ends the process with 0', async () => {
    ({ client, ws } = await startServer({ [FILE]: DEFINITION }));
    const uri = await client.open(path.join(ws, FILE), DEFINITION);
    await client.diagnosticsFor(uri);
    const hover = { textDocument: { uri }, position: { line: 1, character: 2 } };
    assert.ok(await client.request('textDocument/hover', hover), 'answered before shutdown');
    assert.strictEqual(await client.request('shutdown', undefined), null);
    for (const [method, params] of [
      ['textDocument/hover', hover],
      ['subagents/resolve', { uri }],
      ['workspace/symbol', { query: '' }],
      ['shutdown', undefined],
    ] as const) {
      const error = await client.request(method, params).then(
        () => undefined,
        (e: unknown) => e,
      );
      assert.ok(error instanceof ResponseError, `${method}: ${String(error)}`);
      assert.strictEqual(error.code, ErrorCodes.InvalidRequest, method);
    }
    const code = exited(client);
    await client.connection.sendNotification('exit');
    assert.strictEqual(await code, 0);
  });

  it('the client goes away without shutdown: the server ends and removes its temporary folder', async () => {
    ({ client, ws } = await startServer({}, { capabilities: NEOVIM_0_7_CAPABILITIES }));
    const file = await rendering();
    const code = exited(client);
    client.child.stdin!.end();
    assert.strictEqual(await code, 1, 'an exit without shutdown');
    assert.ok(!fs.existsSync(path.dirname(path.dirname(file))), 'the renderings are removed');
  });

  it('the server is terminated (SIGTERM): its temporary folder is removed too', async () => {
    ({ client, ws } = await startServer({}, { capabilities: NEOVIM_0_7_CAPABILITIES }));
    const file = await rendering();
    const code = exited(client);
    client.child.kill('SIGTERM');
    assert.strictEqual(await code, 143);
    assert.ok(!fs.existsSync(path.dirname(path.dirname(file))), 'the renderings are removed');
  });
});
