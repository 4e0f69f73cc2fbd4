import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { buildOnce, makeWorkspace, startServer, TestClient } from './harness';

const triage = (name: string) =>
  `---\nname: ${name}\ndescription: Sorts issues.\npolytoken:\n  tools: [file_read, grep]\n---\nYou triage issues.\n`;
const codes = (ds: Diagnostic[]) => ds.map((d) => d.code);

describe('LSP diagnostics', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;

  beforeEach(async () => {
    ({ client, ws } = await startServer({ '.polytoken/subagents/triage.md': triage('triage') }));
  });
  afterEach(async () => client.stop());

  it('pushes diagnostics on open and clears them on close', async () => {
    const file = path.join(ws, '.polytoken/subagents/triage.md');
    const uri = await client.open(file, triage('triaj'));
    const ds = await client.diagnosticsFor(uri, (d) => d.length > 0);
    assert.ok(codes(ds).includes('polytoken/name-mismatch'), JSON.stringify(codes(ds)));
    const d = ds.find((x) => x.code === 'polytoken/name-mismatch')!;
    assert.strictEqual(d.source, 'subagents');
    assert.deepStrictEqual(d.range, { start: { line: 1, character: 6 }, end: { line: 1, character: 11 } });
    const before = client.diagnostics.length;
    await client.close(uri);
    const cleared = await client.until(
      () => client.diagnostics.slice(before).find((p) => p.uri === uri),
      5000,
      'clear',
    );
    assert.deepStrictEqual(cleared.diagnostics, []);
  });

  it('a burst of edits ends on the last version and never publishes an older one after a newer one', async () => {
    const file = path.join(ws, '.polytoken/subagents/triage.md');
    const uri = await client.open(file, triage('triage'));
    await client.diagnosticsFor(uri);
    for (let i = 0; i < 30; i++) void client.change(uri, triage(i % 2 ? 'triage' : `wrong${i}`));
    const last = await client.change(uri, triage('final_wrong'));
    const ds = await client.diagnosticsFor(uri, (d) => d.length > 0);
    assert.ok(
      ds.some((d) => String(d.message).includes('final_wrong')),
      'the last version\u2019s name is reported',
    );
    await new Promise((r) => setTimeout(r, 300));
    const mine = client.diagnostics.filter((p) => p.uri === uri);
    const versions = mine.map((p) => p.version ?? -1);
    for (let i = 1; i < versions.length; i++)
      assert.ok(versions[i] >= versions[i - 1], `versions go back: ${versions}`);
    assert.strictEqual(mine[mine.length - 1].version, last);
    // How many versions are published on the way depends on timing: `npm run bench` counts them.
  });

  it('re-checks open definitions when .subagents.yaml changes', async () => {
    const file = path.join(ws, '.polytoken/subagents/triage.md');
    const uri = await client.open(file, triage('triaj'));
    await client.diagnosticsFor(uri, (d) => codes(d).includes('polytoken/name-mismatch'));
    const cfg = path.join(ws, '.subagents.yaml');
    fs.writeFileSync(cfg, 'rules:\n  polytoken/name-mismatch: off\n');
    const before = client.diagnostics.length;
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: `file://${cfg}`, type: 1 }],
    });
    await client.until(
      () =>
        client.diagnostics
          .slice(before)
          .find((p) => p.uri === uri && !codes(p.diagnostics).includes('polytoken/name-mismatch')),
      5000,
      'recheck',
    );
  });

  it('registers file watchers dynamically', async () => {
    await client.until(
      () => client.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles'),
      5000,
      'registration',
    );
    const reg = client.registrations.find((r) => r.method === 'workspace/didChangeWatchedFiles')!;
    const watchers = (reg.registerOptions as { watchers: { globPattern: string; kind?: number }[] }).watchers;
    assert.deepStrictEqual(
      watchers.map((w) => `${w.globPattern} ${w.kind ?? 'all'}`).sort(),
      // Every definition file's events, and the creation and deletion of anything (a folder moved or renamed).
      ['**/* 5', '**/*.json all', '**/*.md all', '**/*.yaml all', '**/*.yml all'],
    );
  });

  it('a `\\` in a file name (`a%5Cb.md`) is part of the name on POSIX: no false name mismatch', async function () {
    if (process.platform === 'win32') this.skip(); // a separator there
    const file = path.join(ws, '.polytoken/subagents/a\\b.md');
    fs.writeFileSync(file, triage('"a\\\\b"'));
    const uri = await client.open(file, triage('"a\\\\b"'));
    assert.ok(uri.endsWith('/.polytoken/subagents/a%5Cb.md'), uri);
    assert.deepStrictEqual(codes(await client.diagnosticsFor(uri)), []);
    await client.change(uri, triage('b'));
    const ds = await client.diagnosticsFor(uri, (d) => d.length > 0);
    assert.deepStrictEqual(codes(ds), ['polytoken/name-mismatch']);
    assert.match(String(ds[0].message), /the file is a\\b\.md/);
  });

  it('settings: subagents.rules wins over the file, and is re-read on change', async () => {
    const file = path.join(ws, '.polytoken/subagents/triage.md');
    const uri = await client.open(file, triage('triaj'));
    await client.diagnosticsFor(uri, (d) => codes(d).includes('polytoken/name-mismatch'));
    client.settings = { rules: { 'polytoken/name-mismatch': 'hint' } };
    const before = client.diagnostics.length;
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    const p = await client.until(
      () =>
        client.diagnostics
          .slice(before)
          .find(
            (x) =>
              x.uri === uri &&
              x.diagnostics.some((d: Diagnostic) => d.code === 'polytoken/name-mismatch' && d.severity === 4),
          ),
      5000,
      'hint severity',
    );
    assert.ok(p);
  });
});

describe('LSP with a minimal client (no optional capabilities)', function () {
  this.timeout(60000);
  before(() => buildOnce());

  it('still checks, completes without snippets, and takes settings from initializationOptions', async () => {
    const ws = makeWorkspace({ '.polytoken/subagents/triage.md': triage('triage') });
    const client = new TestClient({
      minimal: true,
      initializationOptions: { settings: { rules: { 'polytoken/name-mismatch': 'warning' } } },
    });
    try {
      await client.start([ws]);
      const uri = await client.open(path.join(ws, '.polytoken/subagents/triage.md'), triage('triaj'));
      const ds = await client.diagnosticsFor(uri, (d) => d.length > 0);
      assert.strictEqual(ds.find((d) => d.code === 'polytoken/name-mismatch')?.severity, 2);
      const text = `---\nname: triage\ndescription: d\npolytoken:\n  tools: [grep]\n  tools_d\n---\n`;
      await client.change(uri, text);
      const list = await client.request<{
        items: { label: string; insertTextFormat?: number; textEdit?: { newText: string } }[];
      }>('textDocument/completion', {
        textDocument: { uri },
        position: { line: 5, character: 9 },
      });
      const item = list.items.find((i) => i.label === 'tools_deny')!;
      assert.strictEqual(item.insertTextFormat, 1);
      assert.strictEqual(item.textEdit!.newText, 'tools_deny: []');
      assert.strictEqual(client.registrations.length, 0);
      assert.strictEqual(client.progress.length, 0);
      const actions = await client.request<{ title: string }[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: ds[0].range,
        context: { diagnostics: ds },
      });
      assert.ok(!actions.some((a) => /Rename the file/.test(a.title)), 'no file rename without resource operations');
    } finally {
      await client.stop();
    }
  });
});
