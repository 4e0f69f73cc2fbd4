/**
 * Problems for the whole workspace (server/workspace-problems.ts), over stdio with the real
 * server: closed files' diagnostics pushed to a client without pull diagnostics, answered to
 * `workspace/diagnostic` for one with them, the scope setting, the cap, and files changing on disk.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { URI } from 'vscode-uri';
import type { Diagnostic } from 'vscode-languageserver-types';
import { buildOnce, DEFAULT_CAPABILITIES, makeWorkspace, TestClient, type ClientOptions } from './harness';

const FILES: Record<string, string> = {
  // An unknown key: the configuration's own problem.
  '.subagents.yaml': 'rulez:\n  polytoken/unknown-tool: off\n',
  // name-mismatch
  '.polytoken/subagents/reviewer.md': '---\nname: reviwer\ndescription: Reviews a change.\n---\nReview.\n',
  // does not parse
  '.polytoken/subagents/broken.md': '---\nname: [broken\ndescription: x\n---\nBody.\n',
  '.polytoken/subagents/clean.md': '---\nname: clean\ndescription: Is clean.\n---\nClean.\n',
  'notes/readme.md': '# Not a definition\n',
};

const PULL_CAPABILITIES = {
  ...DEFAULT_CAPABILITIES,
  workspace: { ...DEFAULT_CAPABILITIES.workspace, diagnostics: { refreshSupport: true } },
  textDocument: { ...DEFAULT_CAPABILITIES.textDocument, diagnostic: { dynamicRegistration: false } },
};

interface WorkspaceReport {
  items: { kind: string; uri: string; resultId?: string; version: number | null; items?: Diagnostic[] }[];
}

const rules = (ds: readonly Diagnostic[]) => ds.map((d) => String(d.code)).sort();

describe('workspace problems', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  const uriOf = (rel: string) => URI.file(path.join(ws, rel)).toString();

  async function start(options: ClientOptions = {}, files = FILES): Promise<void> {
    buildOnce();
    ws = makeWorkspace(files);
    client = new TestClient(options);
    await client.start([ws]);
  }
  afterEach(async () => {
    await client?.stop();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  /** The last diagnostics pushed for a file, once some were (and `predicate` holds). */
  function pushed(rel: string, predicate: (d: Diagnostic[]) => boolean = () => true): Promise<Diagnostic[]> {
    const uri = uriOf(rel);
    return client.until(
      () => {
        const last = [...client.diagnostics].reverse().find((p) => p.uri === uri);
        return last && predicate(last.diagnostics) ? last.diagnostics : undefined;
      },
      15000,
      `diagnostics pushed for ${rel}`,
    );
  }

  async function watched(rel: string, type: 1 | 2 | 3): Promise<void> {
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: uriOf(rel), type }],
    });
  }

  describe('pushed (a client without pull diagnostics)', () => {
    it('publishes every closed definition and the configuration without opening them', async () => {
      await start();
      assert.deepStrictEqual(rules(await pushed('.subagents.yaml', (d) => d.length > 0)), ['config/invalid']);
      assert.deepStrictEqual(rules(await pushed('.polytoken/subagents/reviewer.md', (d) => d.length > 0)), [
        'polytoken/name-mismatch',
      ]);
      const broken = await pushed('.polytoken/subagents/broken.md', (d) => d.length > 0);
      assert.ok(
        broken.some((d) => String(d.code).startsWith('syntax/')),
        JSON.stringify(broken),
      );
      await client.indexed();
      await new Promise((r) => setTimeout(r, 300));
      // A clean file has nothing to clear; what is not a definition is never checked.
      assert.ok(!client.diagnostics.some((p) => p.uri === uriOf('notes/readme.md')));
      assert.ok(
        client.diagnostics
          .filter((p) => p.uri === uriOf('.polytoken/subagents/clean.md'))
          .every((p) => !p.diagnostics.length),
      );
      assert.ok(!client.diagnostics.some((p) => p.version !== undefined), 'no document was opened');
    });

    it('follows files changed, created and deleted on disk', async () => {
      await start();
      await pushed('.polytoken/subagents/reviewer.md', (d) => d.length > 0);
      fs.writeFileSync(
        path.join(ws, '.polytoken/subagents/reviewer.md'),
        '---\nname: reviewer\ndescription: Reviews a change.\n---\nReview.\n',
      );
      await watched('.polytoken/subagents/reviewer.md', 2);
      await pushed('.polytoken/subagents/reviewer.md', (d) => d.length === 0);
      fs.writeFileSync(
        path.join(ws, '.polytoken/subagents/new.md'),
        '---\nname: other\ndescription: New.\n---\nNew.\n',
      );
      await watched('.polytoken/subagents/new.md', 1);
      assert.deepStrictEqual(rules(await pushed('.polytoken/subagents/new.md', (d) => d.length > 0)), [
        'polytoken/name-mismatch',
      ]);
      fs.rmSync(path.join(ws, '.polytoken/subagents/broken.md'));
      await pushed('.polytoken/subagents/broken.md', (d) => d.length > 0);
      await watched('.polytoken/subagents/broken.md', 3);
      await pushed('.polytoken/subagents/broken.md', (d) => d.length === 0);
    });

    it('gives an open file its editor diagnostics and the disk ones back when it closes', async () => {
      await start();
      const rel = '.polytoken/subagents/reviewer.md';
      await pushed(rel, (d) => d.length > 0);
      const uri = await client.open(path.join(ws, rel), '---\nname: reviewer\ndescription: Fixed, unsaved.\n---\nR.\n');
      assert.deepStrictEqual(await client.diagnosticsFor(uri), []);
      const before = client.diagnostics.length;
      await client.close(uri);
      await client.until(
        () =>
          client.diagnostics
            .slice(before)
            .some((p) => p.uri === uri && rules(p.diagnostics).includes('polytoken/name-mismatch')),
        15000,
        'the disk diagnostics again',
      );
    });

    it('lists only open files with subagents.problems.scope: openFiles, and clears them when switched', async () => {
      await start();
      await pushed('.polytoken/subagents/reviewer.md', (d) => d.length > 0);
      client.settings = { problems: { scope: 'openFiles' } };
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
      await pushed('.polytoken/subagents/reviewer.md', (d) => d.length === 0);
      await pushed('.subagents.yaml', (d) => d.length === 0);
      const since = client.diagnostics.length;
      fs.writeFileSync(path.join(ws, '.polytoken/subagents/clean.md'), '---\nname: unclean\ndescription: x\n---\nx\n');
      await watched('.polytoken/subagents/clean.md', 2);
      await new Promise((r) => setTimeout(r, 800));
      assert.deepStrictEqual(
        client.diagnostics.slice(since).filter((p) => p.diagnostics.length),
        [],
        'a closed file changed on disk stays out of Problems',
      );
    });

    it('checks at most subagents.problems.maxFiles closed files, configurations first, and says so', async () => {
      await start({ settings: { problems: { maxFiles: 1 } } });
      await pushed('.subagents.yaml', (d) => d.length > 0);
      await client.indexed();
      await new Promise((r) => setTimeout(r, 800));
      const reported = new Set(client.diagnostics.map((p) => p.uri));
      assert.deepStrictEqual([...reported], [uriOf('.subagents.yaml')]);
      await client.until(
        () => client.logs.some((l) => /the workspace has 4 definition and configuration files.*first 1\b/.test(l)),
        5000,
        'the cap logged',
      );
      // No room for a file that appears later either; the same cap is not logged again on a rebuild.
      fs.writeFileSync(path.join(ws, '.polytoken/subagents/new.md'), '---\nname: other\ndescription: x\n---\nx\n');
      await watched('.polytoken/subagents/new.md', 1);
      client.settings = { problems: { maxFiles: 1 } };
      for (let i = 0; i < 2; i++) {
        await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
        await client.indexed();
        await new Promise((r) => setTimeout(r, 800));
      }
      assert.deepStrictEqual(new Set(client.diagnostics.map((p) => p.uri)), reported);
      assert.deepStrictEqual(
        client.logs.filter((l) => /the workspace has \d+ definition and configuration files/.test(l)),
        [
          client.logs.find((l) => /the workspace has 4 /.test(l)),
          client.logs.find((l) => /the workspace has 5 /.test(l)),
        ],
      );
    });

    it('says nothing of a cap the workspace does not reach', async () => {
      await start({ settings: { problems: { maxFiles: 4 } } });
      await pushed('.polytoken/subagents/reviewer.md', (d) => d.length > 0);
      await client.indexed();
      await new Promise((r) => setTimeout(r, 800));
      assert.deepStrictEqual(
        [...new Set(client.diagnostics.map((p) => p.uri))].sort(),
        [
          '.polytoken/subagents/broken.md',
          '.polytoken/subagents/clean.md',
          '.polytoken/subagents/reviewer.md',
          '.subagents.yaml',
        ]
          .map(uriOf)
          .sort(),
      );
      assert.deepStrictEqual(
        client.logs.filter((l) => /definition and configuration files/.test(l)),
        [],
      );
    });
  });

  describe('pulled (LSP 3.17 pull diagnostics)', () => {
    const pull = (previousResultIds: { uri: string; value: string }[] = []) =>
      client.request<WorkspaceReport>('workspace/diagnostic', { previousResultIds });

    it('answers workspace/diagnostic for closed files, sends nothing itself, and waits for a change', async () => {
      await start({ capabilities: PULL_CAPABILITIES });
      assert.deepStrictEqual(client.initializeResult?.capabilities.diagnosticProvider, {
        identifier: 'subagents',
        interFileDependencies: true,
        workspaceDiagnostics: true,
      });
      const first = await pull();
      const byUri = new Map(first.items.map((i) => [i.uri, i]));
      assert.deepStrictEqual(rules(byUri.get(uriOf('.subagents.yaml'))?.items ?? []), ['config/invalid']);
      assert.deepStrictEqual(rules(byUri.get(uriOf('.polytoken/subagents/reviewer.md'))?.items ?? []), [
        'polytoken/name-mismatch',
      ]);
      assert.ok(byUri.get(uriOf('.polytoken/subagents/broken.md'))?.items?.length);
      assert.ok(!byUri.has(uriOf('notes/readme.md')));
      // With every result id it has, the answer waits until a file changes, then says only that.
      const previous = first.items.map((i) => ({ uri: i.uri, value: i.resultId! }));
      let answered = false;
      const second = pull(previous).then((r) => ((answered = true), r));
      await new Promise((r) => setTimeout(r, 500));
      assert.strictEqual(answered, false, 'nothing changed: the answer waits');
      fs.writeFileSync(
        path.join(ws, '.polytoken/subagents/reviewer.md'),
        '---\nname: reviewer\ndescription: Reviews a change.\n---\nReview.\n',
      );
      await watched('.polytoken/subagents/reviewer.md', 2);
      const changed = await second;
      assert.deepStrictEqual(
        changed.items.map((i) => [i.uri, i.items?.length]),
        [[uriOf('.polytoken/subagents/reviewer.md'), 0]],
      );
      assert.deepStrictEqual(client.diagnostics, [], 'a pulling client is sent no diagnostics');
    });

    /** Refresh requests after an open document's diagnostics first differ from what the client pulled. */
    async function refreshesAfterOpen(capabilities: unknown): Promise<number> {
      await start({ capabilities });
      let refreshes = 0;
      client.connection.onRequest('workspace/diagnostic/refresh', () => void refreshes++);
      await pull();
      await client.open(path.join(ws, '.polytoken/subagents/clean.md'), FILES['.polytoken/subagents/clean.md']);
      await new Promise((r) => setTimeout(r, 500)); // ten times the server's quiet period
      return refreshes;
    }
    it('asks a client that supports it to pull again when an open document is checked', async () => {
      assert.strictEqual(await refreshesAfterOpen(PULL_CAPABILITIES), 1);
    });
    it('does not ask a client without refresh support', async () => {
      const capabilities = { ...PULL_CAPABILITIES, workspace: DEFAULT_CAPABILITIES.workspace };
      assert.strictEqual(await refreshesAfterOpen(capabilities), 0);
    });

    it('answers textDocument/diagnostic for an open document from its text', async () => {
      await start({ capabilities: PULL_CAPABILITIES });
      await pull();
      const uri = await client.open(
        path.join(ws, '.polytoken/subagents/clean.md'),
        '---\nname: clean\ndescription: Now wrong.\npolytoken:\n  tools: [file_raed]\n---\nx\n',
      );
      const report = await client.request<{ kind: string; items: Diagnostic[] }>('textDocument/diagnostic', {
        textDocument: { uri },
      });
      assert.strictEqual(report.kind, 'full');
      assert.deepStrictEqual(rules(report.items), ['polytoken/unknown-tool']);
      await new Promise((r) => setTimeout(r, 300));
      assert.deepStrictEqual(client.diagnostics, []);
    });
  });
});
