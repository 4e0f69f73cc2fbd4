/**
 * One file, one identity (server/uri.ts), over stdio with the real server: a file opened under
 * two spellings of its URI is one file, and a document of another scheme (`git:`) is analysed
 * from its own text without ever standing in for the file on disk at the same path.
 */
import * as assert from 'assert';
import * as path from 'path';
import type { Diagnostic, WorkspaceSymbol } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import type { Resolution } from '../../shared/types';
import {
  documentIdentity,
  isVirtualPath,
  pathToUri,
  registerVirtualScheme,
  uriToPath,
  virtualRoot,
} from '../../server/uri';
import { startServer, type TestClient } from './harness';
import { removeTree } from '../support/tree';

const definition = (name: string, tools = '[grep]') =>
  `---\nname: ${name}\ndescription: d\npolytoken:\n  tools: ${tools}\n---\nBody.\n`;
const FILE = '.polytoken/subagents/a.md';

describe('document identity', () => {
  it('every spelling of a file: URI is one key; other schemes are their own, revision (query) included', () => {
    const key = (uri: string) => documentIdentity(uri)?.key;
    const plain = key('file:///ws/.polytoken/subagents/a.md');
    assert.strictEqual(plain, 'file:///ws/.polytoken/subagents/a.md');
    for (const spelling of [
      'file:///ws/.polytoken/subagents/%61.md',
      'file:///ws//.polytoken/subagents/a.md',
      'file:///ws/./.polytoken/x/../subagents/a.md',
      'file:///ws/.polytoken/subagents/a.md?query#fragment',
    ])
      assert.strictEqual(key(spelling), plain, spelling);
    const git = documentIdentity('git:/ws/.polytoken/subagents/a.md?%7B%22ref%22%3A%22HEAD%22%7D')!;
    assert.strictEqual(git.onDisk, false);
    assert.strictEqual(git.path, '/ws/.polytoken/subagents/a.md', 'the path decides the dialect');
    assert.notStrictEqual(git.key, plain);
    assert.notStrictEqual(git.key, key('git:/ws/.polytoken/subagents/a.md?%7B%22ref%22%3A%22~%22%7D'));
    assert.strictEqual(documentIdentity('file:///ws/a.md')!.onDisk, true);
  });

  it("a virtual workspace's files (a scheme the client reads): paths with their file system first, and back", () => {
    // Schemes of this test only: the registry lives as long as the process.
    const before = documentIdentity('testvfs://github/owner/repo/a.md')!;
    assert.deepStrictEqual([before.onDisk, before.path], [false, '/owner/repo/a.md'], 'not registered yet');
    for (const refused of ['file', 'x', '1abc', 'a b', 'ab/c']) registerVirtualScheme(refused);
    registerVirtualScheme('TestVFS');
    registerVirtualScheme('testmemfs');
    assert.strictEqual(uriToPath('x://auth/a.md'), undefined, 'a one-letter scheme is not one');
    assert.strictEqual(uriToPath('1abc://auth/a.md'), undefined);

    const file = documentIdentity('testvfs://github/owner/repo/./x/../a.md')!;
    assert.deepStrictEqual(file, {
      key: 'testvfs://github/owner/repo/a.md',
      path: '/testvfs:github/owner/repo/a.md',
      onDisk: true,
    });
    assert.strictEqual(documentIdentity('TESTVFS://github/owner/repo/a.md')!.path, '/TESTVFS:github/owner/repo/a.md');
    // A trailing slash goes; the root of the file system is its first segment alone.
    assert.strictEqual(uriToPath('testvfs://github/owner/repo/'), '/testvfs:github/owner/repo');
    assert.strictEqual(uriToPath('testmemfs:/'), '/testmemfs:');
    assert.strictEqual(uriToPath('testmemfs:'), '/testmemfs:');
    // A query or a fragment names another thing than the file (a revision, a view).
    for (const other of ['testvfs://github/owner/repo/a.md?ref=HEAD', 'testvfs://github/owner/repo/a.md#top'])
      assert.strictEqual(documentIdentity(other)!.onDisk, false, other);

    for (const [path, root] of [
      ['/testvfs:github/owner/repo/a.md', '/testvfs:github'],
      ['/TestVFS:github', '/TestVFS:github'],
      ['/testmemfs:/a.md', '/testmemfs:'],
    ]) {
      assert.strictEqual(isVirtualPath(path), true, path);
      assert.strictEqual(virtualRoot(path), root, path);
    }
    // A disk path, a scheme nobody registered, and `file` (which never names a virtual file system).
    for (const path of ['/ws/a.md', '/git:x/a.md', '/file:/a.md', '/testvfsx/a.md'])
      assert.strictEqual(isVirtualPath(path), false, path);
    assert.strictEqual(virtualRoot('/ws/a.md'), undefined);
    assert.strictEqual(virtualRoot('/testvfsx/a.md'), undefined);

    assert.strictEqual(pathToUri('/testvfs:github/owner/repo/a.md'), 'testvfs://github/owner/repo/a.md');
    assert.strictEqual(pathToUri('/TESTVFS:github/a.md'), 'testvfs://github/a.md', 'the scheme in lower case');
    assert.strictEqual(pathToUri('/testmemfs:'), 'testmemfs:/');
    assert.strictEqual(pathToUri('/ws/a b.md'), 'file:///ws/a%20b.md');
    // Each virtual path goes to its URI and back.
    for (const path of ['/testvfs:github/owner/repo/a.md', '/testmemfs:/x/y.yaml'])
      assert.strictEqual(uriToPath(pathToUri(path)), path);
  });
});

describe('one file opened under two URIs, and documents of other schemes', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  beforeEach(async () => {
    ({ client, ws } = await startServer({ [FILE]: definition('a') }));
    await client.indexed();
  });
  afterEach(async () => {
    await client.stop();
    removeTree(ws);
  });

  const symbols = async (query: string) =>
    (await client.request<WorkspaceSymbol[]>('workspace/symbol', { query })).map((s) => s.name).sort();
  const openAs = async (uri: string, text: string) => {
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text },
    });
  };
  /** The workspace symbols once they are `expected` (or after 5 s): the index follows a close a moment later. */
  const symbolsBecome = async (expected: string[]) => {
    const deadline = Date.now() + 5000;
    let now: string[] = [];
    while ((now = await symbols('')).join() !== expected.join() && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    return now;
  };
  const published = (uri: string) => client.diagnostics.filter((p) => p.uri === uri).length;
  const lastFor = (uri: string): Diagnostic[] | undefined =>
    [...client.diagnostics].reverse().find((p) => p.uri === uri)?.diagnostics;

  it('`a.md` and `%61.md` with different names: published once each, no loop, the latest text in the index', async () => {
    const plain = await client.open(path.join(ws, FILE), definition('a'));
    await client.diagnosticsFor(plain);
    const encoded = URI.file(ws).toString() + '/.polytoken/subagents/%61.md';
    await openAs(encoded, definition('b'));
    await client.until(() => published(encoded) > 0, 8000, 'diagnostics of the second spelling');
    // A feedback loop republished both thousands of times a second; a settled server sends nothing more.
    await new Promise((r) => setTimeout(r, 1000));
    assert.ok(published(plain) + published(encoded) <= 4, `${published(plain)} + ${published(encoded)} publications`);
    // Each spelling has the diagnostics of its own text: `b` is not the file's name.
    assert.ok(!lastFor(plain)!.some((d) => d.code === 'polytoken/name-mismatch'));
    assert.ok(lastFor(encoded)!.some((d) => d.code === 'polytoken/name-mismatch'));
    // One entry for the file, from the most recently opened or changed text.
    assert.deepStrictEqual(await symbols(''), ['b']);
    // Each spelling resolves from its own text; the latest stands in only for a spelling not open.
    const resolvedAs = async (uri: string) =>
      (await client.request<Resolution | null>('subagents/resolve', { uri }))?.definitions.map((d) => d.name);
    assert.deepStrictEqual(await resolvedAs(plain), ['a']);
    assert.deepStrictEqual(await resolvedAs(encoded), ['b']);
    assert.deepStrictEqual(await resolvedAs(URI.file(ws).toString() + '/.polytoken/subagents/%61%2e%6d%64'), ['b']);
    await client.change(plain, definition('c'));
    await client.diagnosticsFor(plain);
    assert.deepStrictEqual(await symbols(''), ['c']);
    // The latest spelling closed: the other one's text is the file's; both closed: the disk's.
    await client.close(plain);
    assert.deepStrictEqual(await symbolsBecome(['b']), ['b']);
    await client.close(encoded);
    assert.deepStrictEqual(await symbolsBecome(['a']), ['a']);
  });

  it('a `git:` document of the same path: analysed from its own text, never standing in for the working tree', async () => {
    const disk = path.join(ws, FILE);
    const git = `git:${URI.file(disk).path}?${encodeURIComponent(JSON.stringify({ path: disk, ref: 'HEAD' }))}`;
    await openAs(git, definition('a', '[grep, glob, old_tool]'));
    await client.until(() => lastFor(git), 8000, 'diagnostics of the git document');
    assert.ok(
      lastFor(git)!.some((d) => d.code === 'polytoken/unknown-tool' && String(d.message).includes('old_tool')),
      'its own text',
    );
    // subagents/resolve answers from the git document's text, not from the file on disk.
    const resolved = await client.request<Resolution | null>('subagents/resolve', { uri: git });
    assert.ok(resolved, 'the open git document resolves');
    assert.strictEqual(resolved!.file, git);
    assert.ok(resolved!.definitions[0].tools.includes('glob'), resolved!.definitions[0].tools.join());
    const onDisk = await client.request<Resolution | null>('subagents/resolve', { uri: URI.file(disk).toString() });
    assert.ok(!onDisk!.definitions[0].tools.includes('glob'), 'the working tree is resolved from its own text');
    // It never entered the index, and the working tree's file is not "open".
    assert.deepStrictEqual(await symbols(''), ['a']);
    await client.close(git);
    await client.until(() => lastFor(git)?.length === 0, 8000, 'diagnostics cleared');
    assert.strictEqual(
      await client.request('subagents/resolve', { uri: git }),
      null,
      'a closed git document is not answered from the working tree',
    );
  });

  it("a `git:` `.subagents.yaml` never applies to the working tree's definitions", async () => {
    const uri = await client.open(path.join(ws, FILE), definition('a', '[grep, deploy]'));
    await client.diagnosticsFor(uri, (ds) => ds.some((d) => d.code === 'polytoken/unknown-tool'));
    const config = 'tools:\n  polytoken: [deploy]\n';
    const configPath = path.join(ws, '.subagents.yaml');
    const git = `git:${URI.file(configPath).path}?${encodeURIComponent(JSON.stringify({ path: configPath, ref: 'HEAD' }))}`;
    await openAs(git, config);
    await new Promise((r) => setTimeout(r, 700)); // past the 300 ms an open configuration waits before it applies
    await client.change(uri, definition('a', '[grep, deploy]'));
    assert.ok((await client.diagnosticsFor(uri)).some((d) => d.code === 'polytoken/unknown-tool'));
    // The same text as the working tree's own configuration does apply (the test can fail).
    const own = await client.open(configPath, config);
    await new Promise((r) => setTimeout(r, 700));
    await client.change(uri, definition('a', '[grep, deploy]'));
    assert.ok(!(await client.diagnosticsFor(uri)).some((d) => d.code === 'polytoken/unknown-tool'));
    await client.close(own);
  });
});
