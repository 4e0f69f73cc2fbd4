/**
 * File watching on the server, for clients that cannot register `workspace/didChangeWatchedFiles`
 * (here Neovim 0.7.2's recorded capabilities): changes made on disk, outside the editor, reach
 * the diagnostics and the index. Plus the watcher's own bounds (server/watch.ts).
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Diagnostic, WorkspaceSymbol } from 'vscode-languageserver-types';
import { FileChangeType, type FileEvent } from 'vscode-languageserver';
import { defaultLoadedConfig, type LoadedConfig } from '../../shared/config/config';
import { polytokenSettings } from '../../shared/dialects/polytoken/settings';
import { FolderWatcher, foldersToWatch, MAX_WATCHED_FOLDERS } from '../../server/watch';
import { NEOVIM_0_7_CAPABILITIES } from './clients/neovim';
import { startServer, type ClientOptions, type TestClient } from './harness';
import { makeTree, removeTree } from '../support/tree';
import { Waiter } from '../support/wait';
import { URI } from 'vscode-uri';

const definition = (name: string, tools = '[grep, deploy]') =>
  `---\nname: ${name}\ndescription: d\npolytoken:\n  tools: ${tools}\n---\nBody.\n`;
const has = (rule: string) => (ds: Diagnostic[]) => ds.some((d) => d.code === rule);
const hasNot = (rule: string) => (ds: Diagnostic[]) => !ds.some((d) => d.code === rule);
const WATCHING_LOG = /the client cannot watch files; the server watches \d+ folders/;

describe('server-side file watching (a client without watcher registration)', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  const start = async (
    files: Record<string, string>,
    options: ClientOptions = { capabilities: NEOVIM_0_7_CAPABILITIES },
  ) => {
    ({ client, ws } = await startServer(files, options));
    await client.until(
      () => client.logs.some((l) => WATCHING_LOG.test(l)) || client.progress.length > 0,
      8000,
      'start-up',
    );
  };
  afterEach(async () => {
    await client.stop();
    removeTree(ws);
  });

  it('.subagents.yaml changed, then deleted, on disk: the open definition is re-checked each time', async () => {
    await start({ '.subagents.yaml': 'tools:\n  polytoken: [shell]\n' });
    assert.ok(
      client.logs.some((l) => WATCHING_LOG.test(l)),
      client.logs.join('\n'),
    );
    const uri = await client.open(path.join(ws, '.polytoken/subagents/a.md'), definition('a'));
    await client.diagnosticsFor(uri, has('polytoken/unknown-tool'));
    fs.writeFileSync(path.join(ws, '.subagents.yaml'), 'tools:\n  polytoken: [shell, deploy]\n');
    await client.diagnosticsFor(uri, hasNot('polytoken/unknown-tool'));
    fs.rmSync(path.join(ws, '.subagents.yaml'));
    await client.diagnosticsFor(uri, has('polytoken/unknown-tool'));
  });

  it('a .subagents.yaml created in a folder between the definition and the workspace folder applies', async () => {
    await start({ 'team/.polytoken/subagents/a.md': definition('a') });
    const uri = await client.open(path.join(ws, 'team/.polytoken/subagents/a.md'), definition('a'));
    await client.diagnosticsFor(uri, has('polytoken/unknown-tool'));
    fs.writeFileSync(path.join(ws, 'team/.subagents.yaml'), 'tools:\n  polytoken: [deploy]\n');
    await client.diagnosticsFor(uri, hasNot('polytoken/unknown-tool'));
  });

  it('a `subagentDirs` folder created later with a definition of the same name: shadowing is reported', async () => {
    await start({
      '.subagents.yaml': 'polytoken:\n  subagentDirs: [vendor/a, vendor/b]\n',
      'vendor/a/triage.md': definition('triage', '[grep]'),
    });
    const uri = await client.open(path.join(ws, 'vendor/a/triage.md'), definition('triage', '[grep]'));
    await client.diagnosticsFor(uri, (ds) => ds.length === 0);
    fs.mkdirSync(path.join(ws, 'vendor/b'));
    fs.writeFileSync(path.join(ws, 'vendor/b/triage.md'), definition('triage', '[grep]'));
    const ds = await client.diagnosticsFor(uri, has('polytoken/shadowed'));
    assert.match(String(ds.find((d) => d.code === 'polytoken/shadowed')!.message), /vendor\/b\/triage\.md/);
  });

  it('the global folder, outside the workspace: a definition added there reaches the index', async () => {
    const global = makeTree({}, 'subagents-global-');
    try {
      await start(
        {},
        {
          capabilities: NEOVIM_0_7_CAPABILITIES,
          initializationOptions: { settings: { polytoken: { globalDir: global } } },
        },
      );
      await client.indexed();
      const uri = await client.open(path.join(ws, '.polytoken/subagents/a.md'), definition('a', '[grep]'));
      await client.diagnosticsFor(uri);
      fs.writeFileSync(path.join(global, 'from-global.md'), definition('from-global', '[grep]'));
      const found = await waitFor(async () => {
        const symbols = await client.request<WorkspaceSymbol[]>('workspace/symbol', { query: 'from-global' });
        return symbols.length ? symbols : undefined;
      });
      assert.deepStrictEqual(
        found.map((s) => s.name),
        ['from-global'],
      );
    } finally {
      removeTree(global);
    }
  });

  it('a client that registers watchers (dynamic registration): the server does not watch', async () => {
    await start({}, {});
    await client.indexed();
    assert.ok(client.registrations.some((r) => r.method === 'workspace/didChangeWatchedFiles'));
    assert.ok(!client.logs.some((l) => WATCHING_LOG.test(l)), client.logs.join('\n'));
  });
});

/** Polls an async check (for answers that come from requests, not notifications). */
async function waitFor<T>(check: () => Promise<T | undefined>, ms = 8000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('FolderWatcher', function () {
  this.timeout(20000);
  let dir: string;
  let watcher: FolderWatcher | undefined;
  afterEach(() => {
    watcher?.dispose();
    removeTree(dir);
  });

  const host = (
    folders: string[],
    open: string[],
    config: (p: string) => LoadedConfig,
    onChanges: (c: FileEvent[]) => void = () => undefined,
    log: (m: string) => void = () => undefined,
  ) => ({
    folders: () => folders,
    openPaths: () => open,
    folderOf: (p: string) => folders.find((f) => p.startsWith(f + '/')),
    configFor: config,
    onChanges,
    log,
  });

  it("wants each folder, its project folder, the configurations with their discovery folders, and each open file's folders up to its workspace folder", () => {
    dir = makeTree({});
    const loaded: LoadedConfig = {
      ...defaultLoadedConfig('/ws'),
      path: '/ws/.subagents.yaml',
      globalDir: '/home/u/.config/polytoken/subagents',
    };
    polytokenSettings(loaded.config).subagentDirs = ['vendor/a', '../shared'];
    const wanted = foldersToWatch(
      host(['/ws'], ['/ws/team/.polytoken/subagents/a.md', '/elsewhere/x.md'], (p) =>
        p.startsWith('/ws/') ? loaded : defaultLoadedConfig('/elsewhere'),
      ),
    );
    assert.deepStrictEqual(wanted, [
      '/ws',
      '/ws/.polytoken/subagents',
      '/home/u/.config/polytoken/subagents',
      '/ws/vendor/a',
      '/shared',
      '/ws/team/.polytoken/subagents',
      '/ws/team/.polytoken',
      '/ws/team',
      '/elsewhere',
    ]);
  });

  it("an opened file's folders are watched at once, and no longer once it is closed", () => {
    dir = makeTree({ 'ws/team/.polytoken/subagents/a.md': '', 'ws/.polytoken/subagents/b.md': '' });
    const ws = path.join(dir, 'ws');
    const open: string[] = [];
    watcher = new FolderWatcher(host([ws], open, () => defaultLoadedConfig(ws)));
    watcher.refreshNow();
    const before = watcher.watched().sort();
    assert.deepStrictEqual(before, [ws, path.join(ws, '.polytoken/subagents')]);
    const a = path.join(ws, 'team/.polytoken/subagents/a.md');
    open.push(a);
    watcher.opened(a);
    assert.deepStrictEqual(watcher.watched().sort(), [
      ...before,
      path.join(ws, 'team'),
      path.join(ws, 'team/.polytoken'),
      path.join(ws, 'team/.polytoken/subagents'),
    ]);
    open.pop();
    watcher.refreshNow();
    assert.deepStrictEqual(watcher.watched().sort(), before);
  });

  it(`watches at most ${MAX_WATCHED_FOLDERS} folders, and says so once`, () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < MAX_WATCHED_FOLDERS + 10; i++) files[`d${i}/a.md`] = '';
    dir = makeTree(files);
    const logs: string[] = [];
    const open = Object.keys(files).map((f) => path.join(dir, f));
    watcher = new FolderWatcher(
      host(
        [dir],
        open,
        (p) => defaultLoadedConfig(path.dirname(p)),
        undefined,
        (m) => logs.push(m),
      ),
    );
    watcher.refreshNow();
    watcher.refreshNow();
    assert.strictEqual(watcher.watched().length, MAX_WATCHED_FOLDERS);
    assert.strictEqual(logs.length, 1);
    assert.match(
      logs[0],
      new RegExp(`watching ${MAX_WATCHED_FOLDERS} folders, not all ${MAX_WATCHED_FOLDERS + 10 + 2}`),
    );
  });

  it('the files of folders watched from the start are not reported; a file written later is', async () => {
    dir = makeTree({ 'ws/.subagents.yaml': '', 'ws/.polytoken/subagents/b.md': 'b' });
    const ws = path.join(dir, 'ws');
    const events: FileEvent[] = [];
    const waiter = new Waiter();
    const onChanges = (c: FileEvent[]) => {
      events.push(...c);
      waiter.wake();
    };
    watcher = new FolderWatcher(host([ws], [], () => defaultLoadedConfig(ws), onChanges));
    watcher.refreshNow();
    watcher.refreshNow(); // again: nothing appeared since the first
    const c = path.join(ws, '.polytoken/subagents/c.md');
    fs.writeFileSync(c, 'c');
    await waiter.until(() => events.length > 0, 5000, 'an event');
    assert.deepStrictEqual(events, [{ uri: URI.file(c).toString(), type: FileChangeType.Changed }]);
  });

  it('a wanted folder that appears later: the files it already holds are reported; a deleted file as deleted', async () => {
    dir = makeTree({ 'ws/.subagents.yaml': '' });
    const ws = path.join(dir, 'ws');
    const loaded: LoadedConfig = { ...defaultLoadedConfig(ws), path: path.join(ws, '.subagents.yaml') };
    polytokenSettings(loaded.config).subagentDirs = ['vendor/b'];
    const events: FileEvent[] = [];
    const waiter = new Waiter();
    watcher = new FolderWatcher(
      host(
        [ws],
        [],
        () => loaded,
        (c) => {
          for (const e of c) events.push(e);
          waiter.wake();
        },
      ),
    );
    watcher.refreshNow();
    assert.ok(!watcher.watched().includes(path.join(ws, 'vendor/b')));
    fs.mkdirSync(path.join(ws, 'vendor/b'), { recursive: true });
    fs.writeFileSync(path.join(ws, 'vendor/b/x.md'), 'x');
    fs.writeFileSync(path.join(ws, 'vendor/b/notes.txt'), 'not a definition');
    await waiter.until(() => events.some((e) => e.uri.endsWith('/vendor/b/x.md')), 5000, 'x.md reported');
    assert.ok(watcher.watched().includes(path.join(ws, 'vendor/b')));
    assert.ok(!events.some((e) => e.uri.endsWith('.txt')), 'only the files the index reads');
    fs.rmSync(path.join(ws, '.subagents.yaml'));
    await waiter.until(
      () => events.some((e) => e.uri.endsWith('/.subagents.yaml') && e.type === FileChangeType.Deleted),
      5000,
      'deletion reported',
    );
  });
});
