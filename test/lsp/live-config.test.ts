import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { DEFAULT_CAPABILITIES, startServer, type TestClient } from './harness';

const DEF = `---
name: triage
description: Sorts issues.
polytoken:
  tools: [grep, mcp__linear__create_ticket]
---
Body.
`;

const CONFIG = 'mcp:\n  github: [create_issue]\n';
const unknownLinear = (ds: Diagnostic[]) =>
  ds.some((d) => d.code === 'polytoken/unknown-tool' && /mcp__linear__create_ticket/.test(String(d.message)));
const uriOf = (p: string) => URI.file(p).toString();

interface PatternsParams {
  patterns: { baseUri: string; pattern: string }[];
}

describe('LSP live configuration', function () {
  this.timeout(60000);

  describe('unsaved .subagents.yaml edits', () => {
    let client: TestClient;
    let ws: string;
    before(async () => {
      ({ client, ws } = await startServer({ '.subagents.yaml': CONFIG, '.polytoken/subagents/triage.md': DEF }));
      await client.indexed();
    });
    after(async () => client.stop());

    it('re-check open definitions as the configuration is typed, and closing it unsaved puts the disk back', async () => {
      const def = await client.open(path.join(ws, '.polytoken/subagents/triage.md'), DEF);
      await client.diagnosticsFor(def, unknownLinear);
      const configPath = path.join(ws, '.subagents.yaml');
      const config = await client.open(configPath, CONFIG);
      await client.change(config, `${CONFIG}  linear: [create_ticket]\n`);
      // The definition's version did not change: only its diagnostics did.
      await client.diagnosticsFor(def, (ds) => !unknownLinear(ds));
      assert.strictEqual(fs.readFileSync(configPath, 'utf8'), CONFIG, 'nothing was saved');
      await client.close(config);
      await client.diagnosticsFor(def, unknownLinear);
      await client.close(def);
    });

    it('a configuration that does not exist on disk yet applies while it is open', async () => {
      const nested = path.join(ws, 'team');
      const def = await client.open(path.join(nested, '.polytoken/subagents/triage.md'), DEF);
      await client.diagnosticsFor(def, unknownLinear);
      const config = await client.open(path.join(nested, '.subagents.yaml'), '');
      await client.change(config, 'mcp:\n  linear: [create_ticket]\n');
      await client.diagnosticsFor(def, (ds) => !unknownLinear(ds));
      await client.close(config);
      await client.diagnosticsFor(def, unknownLinear);
      await client.close(def);
    });
  });

  describe('subagents/documentPatterns', () => {
    let client: TestClient;
    let ws: string;
    const received: PatternsParams[] = [];
    before(async () => {
      ({ client, ws } = await startServer(
        {
          '.subagents.yaml':
            'files:\n  polytoken: ["agents/*.md"]\n  profy: ["specs/**/*.json"]\npolytoken:\n  subagentDirs: [vendor, ../outside]\n',
          'agents/a.md': DEF,
          'sub/.subagents.yaml': 'files:\n  picasso: ["roles/*.yaml"]\n',
          'sub/x.md': 'plain',
        },
        { initializationOptions: { documentPatterns: true } },
      ));
      client.connection.onNotification('subagents/documentPatterns', (p: PatternsParams) => void received.push(p));
      await client.indexed();
    });
    after(async () => client.stop());

    it('sends the `files:` globs and the `subagentDirs` inside the workspace, relative to their folders', async () => {
      await client.until(() => received.length > 0, 8000, 'the patterns');
      assert.deepStrictEqual(received[received.length - 1].patterns, [
        { baseUri: uriOf(ws), pattern: 'agents/*.md' },
        { baseUri: uriOf(ws), pattern: 'specs/**/*.json' },
        { baseUri: uriOf(path.join(ws, 'sub')), pattern: 'roles/*.yaml' },
        { baseUri: uriOf(path.join(ws, 'vendor')), pattern: '*.md' },
      ]);
    });

    it('sends them again when an unsaved edit changes `files:`; an edit of anything else rebuilds nothing', async () => {
      const def = await client.open(path.join(ws, 'agents/a.md'), DEF);
      await client.diagnosticsFor(def);
      const publications = () => client.diagnostics.filter((p) => p.uri === def).length;
      const rebuilds = () =>
        client.progress.filter((p) => (p as { value?: { kind?: string } }).value?.kind === 'begin').length;
      const config = await client.open(path.join(ws, 'sub/.subagents.yaml'), 'files:\n  picasso: ["roles/*.yaml"]\n');
      const [count, rebuilt, published] = [received.length, rebuilds(), publications()];
      // `rules:` changes what is reported, not which files are definitions: the open definitions are
      // checked again (a new publication), the index is not rebuilt.
      await client.change(config, 'files:\n  picasso: ["roles/*.yaml"]\nrules:\n  picasso/unknown-key: off\n');
      await client.until(() => publications() > published, 8000, 'the open definition checked again');
      await client.change(config, 'files:\n  picasso: ["roles/*.yaml", "more/*.yml"]\n');
      await client.until(() => received.length > count, 8000, 'new patterns');
      assert.strictEqual(received.length, count + 1);
      assert.strictEqual(rebuilds(), rebuilt + 1, 'one rebuild: for the `files:` edit only');
      const patterns = received[received.length - 1].patterns.filter((p) => p.baseUri === uriOf(path.join(ws, 'sub')));
      assert.deepStrictEqual(
        patterns.map((p) => p.pattern),
        ['more/*.yml', 'roles/*.yaml'],
      );
      await client.close(config);
      await client.close(def);
    });
  });

  it('clients that do not ask for them get no patterns', async () => {
    const { client } = await startServer({ '.subagents.yaml': 'files:\n  polytoken: ["agents/*.md"]\n' });
    let got = 0;
    client.connection.onNotification('subagents/documentPatterns', () => void got++);
    try {
      await client.indexed();
      await client.request('workspace/symbol', { query: '' }); // a round trip after the index build
      assert.strictEqual(got, 0);
    } finally {
      await client.stop();
    }
  });

  describe('the Polytoken global folder', () => {
    let client: TestClient;
    let globalDir: string;
    before(async () => {
      globalDir = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-global-'));
      fs.writeFileSync(path.join(globalDir, 'old.md'), DEF.replace('triage', 'old'));
      const caps = {
        ...DEFAULT_CAPABILITIES,
        workspace: {
          ...DEFAULT_CAPABILITIES.workspace,
          didChangeWatchedFiles: { dynamicRegistration: true, relativePatternSupport: true },
        },
      };
      ({ client } = await startServer(
        { '.subagents.yaml': `polytoken:\n  globalDir: ${JSON.stringify(globalDir)}\n` },
        { capabilities: caps },
      ));
      await client.indexed();
    });
    after(async () => {
      await client.stop();
      fs.rmSync(globalDir, { recursive: true, force: true });
    });

    it('is watched through the client with a relative pattern, and its changes reach the index', async () => {
      const watchers = await client.until(
        () =>
          client.registrations
            .filter((r) => r.method === 'workspace/didChangeWatchedFiles')
            .flatMap((r) => (r.registerOptions as { watchers: { globPattern: unknown }[] }).watchers),
        8000,
        'watcher registrations',
      );
      assert.ok(
        watchers.some(
          (w) => JSON.stringify(w.globPattern) === JSON.stringify({ baseUri: uriOf(globalDir), pattern: '*.md' }),
        ),
        JSON.stringify(watchers),
      );
      // A definition added there (the client reports it through the watcher) is indexed.
      const added = path.join(globalDir, 'fresh.md');
      fs.writeFileSync(added, DEF.replace('triage', 'fresh'));
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: uriOf(added), type: 1 }],
      });
      for (let tries = 0; ; tries++) {
        const symbols = await client.request<{ name: string }[]>('workspace/symbol', { query: 'fresh' });
        if (symbols.some((s) => s.name === 'fresh')) break;
        assert.ok(tries < 80, 'the new global definition reaches workspace symbols');
        await new Promise((r) => setTimeout(r, 100));
      }
    });
  });

  it('discovery folders outside the workspace: one client watcher per set, in path order, taken back when they go', async () => {
    const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-outside-'));
    const [aa, zz] = ['aa', 'zz'].map((n) => path.join(outside, n));
    for (const d of [aa, zz]) fs.mkdirSync(d);
    const { client, ws } = await startServer({ '.subagents.yaml': 'polytoken: {}\n' });
    const ours = () =>
      client.registrations.filter(
        (r) =>
          r.method === 'workspace/didChangeWatchedFiles' &&
          JSON.stringify(r.registerOptions).includes(JSON.stringify(outside).slice(1, -1)),
      );
    const progress = (kind: string) =>
      client.progress.filter((p) => (p as { value?: { kind?: string } }).value?.kind === kind).length;
    // The watchers of our folders (the user's global folder, outside too, is watched as well).
    const watched = (r: { registerOptions?: unknown }) =>
      (r.registerOptions as { watchers: { globPattern: string }[] }).watchers
        .map((w) => w.globPattern)
        .filter((g) => g.startsWith(outside));
    const dirs = (list: string[]) => `polytoken:\n  subagentDirs: ${JSON.stringify(list)}\n`;
    try {
      await client.indexed();
      const config = await client.open(path.join(ws, '.subagents.yaml'), dirs([zz, aa]));
      const [first] = await client.until(() => (ours().length ? ours() : undefined), 8000, 'the outside watcher');
      // Relative patterns are not offered by this client: absolute globs, sorted by folder.
      assert.deepStrictEqual(watched(first), [`${aa}/*.md`, `${zz}/*.md`]);
      // The same folders in another order, and a new `files:` glob: an index rebuild, and no new registration.
      const begun = progress('begin');
      await client.change(config, `${dirs([aa, zz])}files:\n  polytoken: ["agents/*.md"]\n`);
      await client.until(() => progress('begin') > begun && progress('end') === progress('begin'), 8000, 'the rebuild');
      await client.request('workspace/symbol', { query: '' });
      assert.strictEqual(ours().length, 1);
      assert.ok(!client.unregistrations.includes(first.id), 'still registered');
      // One folder fewer: the old watcher is taken back and a new one names the other folder alone.
      await client.change(config, dirs([zz]));
      const onlyZz = (r: { registerOptions?: unknown }) =>
        JSON.stringify(watched(r)) === JSON.stringify([`${zz}/*.md`]);
      await client.until(() => ours().some(onlyZz), 8000, 'the new set');
      // Registered twice in all: the reordering above registered nothing in between.
      assert.strictEqual(ours().length, 2);
      assert.ok(onlyZz(ours()[1]));
      await client.until(() => client.unregistrations.includes(first.id), 8000, 'the first taken back');
      // None of ours left: taken back; what is registered instead names none of them.
      await client.change(config, 'polytoken: {}\n');
      await client.until(() => client.unregistrations.includes(ours()[1].id), 8000, 'the last one taken back');
      assert.strictEqual(ours().length, 2);
    } finally {
      await client.stop();
      fs.rmSync(outside, { recursive: true, force: true });
    }
  });
});
