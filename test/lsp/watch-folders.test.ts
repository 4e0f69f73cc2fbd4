/**
 * The index follows folders, not only files, and file events come in batches, over stdio with the
 * real server: a `.polytoken/` renamed away and back, a `.picasso/` folder moved into the
 * workspace, with the client's watchers (one event for the folder alone, as VS Code sends) and
 * with the server's own (a client that cannot register watchers); 10,000 separate watch
 * notifications; a large folder added while requests keep coming.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Diagnostic, WorkspaceSymbol } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { WORKSPACE_REQUEST, type WorkspaceResult } from '../../shared/protocol';
import { NEOVIM_0_7_CAPABILITIES } from './clients/neovim';
import { startServer, type ClientOptions, type TestClient } from './harness';
import { makeTree, removeTree } from '../support/tree';

const definition = (name: string) => `---\nname: ${name}\ndescription: d\npolytoken:\n  tools: [grep]\n---\nBody.\n`;
const role = (name: string) =>
  `name: ${name}\ninvocation: "@${name}"\ndescription: d\nwhen_to_use: w\nmodel: m\ntools: [grep]\nmax_steps: 1\nmax_depth: 0\nmemory: none\n`;
const FILES = {
  '.polytoken/subagents/alpha.md': definition('alpha'),
  '.polytoken/subagents/beta.md': definition('beta'),
  'apps/cli/agents/writer.yaml': role('writer'),
};
const hasDuplicate = (ds: Diagnostic[]) => ds.some((d) => d.code === 'picasso/duplicate-role');
const Created = 1;
const Deleted = 3;

describe('folders moved or renamed', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  let outside: string;
  afterEach(async () => {
    await client.stop();
    removeTree(ws);
    removeTree(outside);
  });

  const symbols = async () =>
    (await client.request<WorkspaceSymbol[]>('workspace/symbol', { query: '' })).map((s) => s.name).sort();
  /** The workspace symbols once `check` holds (the events are applied a moment after they arrive). */
  const symbolsWhen = async (check: (names: string[]) => boolean, what: string) => {
    const deadline = Date.now() + 8000;
    for (;;) {
      const names = await symbols();
      if (check(names)) return names;
      if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${names.join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const notify = (changes: [string, number][]) =>
    client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: changes.map(([p, type]) => ({ uri: URI.file(path.join(ws, p)).toString(), type })),
    });

  async function start(options: ClientOptions): Promise<string> {
    ({ client, ws } = await startServer(FILES, options));
    outside = makeTree({ 'project/.picasso/agents/writer.md': `---\n${role('writer')}---\nRole.\n` });
    await client.indexed();
    const uri = await client.open(path.join(ws, 'apps/cli/agents/writer.yaml'), role('writer'));
    await client.diagnosticsFor(uri, (ds) => !hasDuplicate(ds));
    return uri;
  }

  /** The same moves, told by `tell` (the client's events, or nothing: the server watches). */
  async function moves(uri: string, tell: (changes: [string, number][]) => Promise<void>): Promise<void> {
    assert.deepStrictEqual(await symbols(), ['alpha', 'beta', 'writer']);
    fs.renameSync(path.join(ws, '.polytoken'), path.join(ws, '.polytoken-off'));
    await tell([
      ['.polytoken', Deleted],
      ['.polytoken-off', Created],
    ]);
    await symbolsWhen((n) => n.join() === 'writer', 'the definitions of the renamed folder to go');
    const view = await client.request<WorkspaceResult>(WORKSPACE_REQUEST, {});
    assert.ok(!view.definitions.some((d) => d.dialect === 'polytoken'), 'the workspace view follows');
    fs.renameSync(path.join(ws, '.polytoken-off'), path.join(ws, '.polytoken'));
    await tell([
      ['.polytoken-off', Deleted],
      ['.polytoken', Created],
    ]);
    await symbolsWhen((n) => n.join() === 'alpha,beta,writer', 'the definitions to come back');
    // A project's `.picasso/` moved in: its role clashes with the open one, which is checked again.
    fs.renameSync(path.join(outside, 'project/.picasso'), path.join(ws, '.picasso'));
    await tell([['.picasso', Created]]);
    const ds = await client.until(
      () => {
        const last = [...client.diagnostics].reverse().find((p) => p.uri === uri);
        return last && hasDuplicate(last.diagnostics) ? last.diagnostics : undefined;
      },
      8000,
      'picasso/duplicate-role on the open role',
    );
    assert.match(String(ds.find((d) => d.code === 'picasso/duplicate-role')!.message), /\.picasso\/agents\/writer\.md/);
    // And moved out again.
    fs.renameSync(path.join(ws, '.picasso'), path.join(outside, 'project/.picasso'));
    await tell([['.picasso', Deleted]]);
    await client.until(
      () => {
        const last = [...client.diagnostics].reverse().find((p) => p.uri === uri);
        return last && !hasDuplicate(last.diagnostics);
      },
      8000,
      'picasso/duplicate-role gone',
    );
  }

  it("with the client's watchers: one event for the folder alone", async () => {
    const uri = await start({});
    await moves(uri, notify);
  });

  it('with the server watching (a client that cannot register watchers)', async () => {
    const uri = await start({ capabilities: { ...NEOVIM_0_7_CAPABILITIES, window: { workDoneProgress: true } } });
    await moves(uri, async () => undefined);
  });
});

describe('watch events in bulk, and indexing in slices', function () {
  this.timeout(120000);
  let client: TestClient;
  let ws: string;
  let big: string | undefined;
  afterEach(async () => {
    await client.stop();
    removeTree(ws);
    if (big) removeTree(big);
    big = undefined;
  });

  it('10,000 separate watch notifications: a few republications of the open document, and a hover answered', async () => {
    ({ client, ws } = await startServer({ '.polytoken/subagents/shared.md': definition('shared') }));
    await client.indexed();
    const file = path.join(ws, '.polytoken/subagents/shared.md');
    const uri = await client.open(file, definition('shared'));
    await client.diagnosticsFor(uri);
    // 2,000 new definitions of the open document's name, in other projects; 5 events each.
    const added: string[] = [];
    for (let i = 0; i < 2000; i++) {
      const f = path.join(ws, `p${i}/.polytoken/subagents/shared.md`);
      fs.mkdirSync(path.dirname(f), { recursive: true });
      fs.writeFileSync(f, definition('shared'));
      added.push(URI.file(f).toString());
    }
    const before = client.diagnostics.filter((p) => p.uri === uri).length;
    // One event per notification. The first 2,000 (each a new definition of the open document's
    // name) come between the requests of an editor at work, so the server is idle in between: a
    // server that re-checks per notification republishes each time. The other 8,000 come at once.
    const started = Date.now();
    for (let i = 0; i < 10000; i++) {
      void client.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: added[i % added.length], type: i < added.length ? Created : 2 }],
      });
      if (i < added.length) await client.request('textDocument/foldingRange', { textDocument: { uri } });
    }
    const hover = await client.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 2 },
    });
    assert.ok(hover, 'hover answered after the notifications');
    // Every new definition reaches the index (a closed indexed definition resolves)...
    const deadline = Date.now() + 20000;
    for (const u of [added[0], added[added.length - 1]])
      while (!(await client.request('subagents/resolve', { uri: u })) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
    assert.ok(await client.request('subagents/resolve', { uri: added[added.length - 1] }));
    const took = Date.now() - started;
    await new Promise((r) => setTimeout(r, 500));
    // ...and the open document was checked again once per batch, not once per notification. A
    // batch closes at the latest 250 ms after its first event, so the bound grows with the time
    // the notifications took (on a slow machine too), never with their number.
    const republished = client.diagnostics.filter((p) => p.uri === uri).length - before;
    assert.ok(republished >= 1 && republished <= 2 + took / 100, `${republished} republications in ${took} ms`);
  });

  it('a large folder added at run time: a request is answered before its indexing ends', async () => {
    ({ client, ws } = await startServer({ '.polytoken/subagents/a.md': definition('a') }));
    await client.indexed();
    const uri = await client.open(path.join(ws, '.polytoken/subagents/a.md'), definition('a'));
    await client.diagnosticsFor(uri);
    const files: Record<string, string> = {};
    for (let i = 0; i < 3000; i++) files[`d${i % 300}/e${i}/.polytoken/subagents/x${i}.md`] = definition(`x${i}`);
    big = makeTree(files);
    const ends = () => client.progress.filter((p) => (p as { value?: { kind?: string } }).value?.kind === 'end').length;
    const endsBefore = ends();
    await client.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: [{ uri: URI.file(big).toString(), name: 'big' }], removed: [] },
    });
    await client.request('textDocument/hover', { textDocument: { uri }, position: { line: 1, character: 2 } });
    assert.strictEqual(ends(), endsBefore, 'the hover was answered while the folder was being indexed');
    await client.until(() => ends() > endsBefore, 60000, 'indexing to end');
    const found = await client.request<WorkspaceSymbol[]>('workspace/symbol', { query: 'x2999' });
    assert.deepStrictEqual(
      found.map((s) => s.name),
      ['x2999'],
    );
  });
});
