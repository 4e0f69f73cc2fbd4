/**
 * dist/web/server.js in a Web Worker of headless Chromium (test/web/worker-harness.ts), on a
 * workspace that exists only in memory (`memfs:/ws`): what the server knows of the files it has
 * not been sent as documents, it read through the client's file system requests. Run by
 * `npm run test:web` (it needs /usr/bin/chromium, which test/e2e/setup.sh installs).
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { initialize, REPO, startWorkerServer, uriOf, type WorkerServer } from './worker-harness';

const FIXTURE = path.join(REPO, 'test/fixtures/rules/polytoken/shadowed/invalid');

/** The shadowing fixture (a `.subagents.yaml` with `subagentDirs` and a relative global folder) as a map. */
function fixtureFiles(): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else out[path.relative(FIXTURE, full).split(path.sep).join('/')] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(FIXTURE);
  // Not definitions: never read, only listed.
  out['docs/notes.md'] = '# notes\n';
  out['node_modules/x/.polytoken/subagents/x.md'] = '---\nname: x\n---\n';
  return out;
}

/** Waits for the next diagnostics of a document (after `after()` ran). */
function diagnosticsOf(
  server: WorkerServer,
  uri: string,
  after: () => void,
): Promise<{ diagnostics: Diagnostic[]; ms: number }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no diagnostics for ${uri}; worker errors: ${server.errors.join('; ')}`)),
      15000,
    );
    const started = performance.now();
    const sub = server.connection.onNotification(
      'textDocument/publishDiagnostics',
      (p: { uri: string; diagnostics: Diagnostic[] }) => {
        if (p.uri !== uri) return;
        clearTimeout(timer);
        sub.dispose();
        resolve({ diagnostics: p.diagnostics, ms: performance.now() - started });
      },
    );
    after();
  });
}

describe('the web server in a Web Worker (headless Chromium, memfs:/ws)', function () {
  this.timeout(60000);
  let server: WorkerServer;
  const files = fixtureFiles();
  const vendor = uriOf('vendor/agents/triage.md');

  before(async () => {
    server = await startWorkerServer(files);
    const result = (await initialize(server.connection)) as { capabilities: { hoverProvider?: boolean } };
    assert.equal(result.capabilities.hoverProvider, true);
  });
  after(async () => server?.close());

  it('checks a definition with what it read through the client: the configuration, and the definition that shadows it', async () => {
    const { diagnostics } = await diagnosticsOf(server, vendor, () =>
      server.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: vendor, languageId: 'markdown', version: 1, text: files['vendor/agents/triage.md'] },
      }),
    );
    assert.deepEqual(
      diagnostics.map((d) => d.code),
      ['polytoken/shadowed'],
      JSON.stringify(diagnostics),
    );
    assert.match(String(diagnostics[0].message), /\.polytoken\/subagents\/triage\.md/);
    assert.deepEqual(server.errors, []);
    // Read through the client: the configuration and the project's definition; never node_modules, never a non-definition.
    const read = server.asked['subagents/readFile'] ?? [];
    assert.ok(read.includes(uriOf('.subagents.yaml')), read.join(' '));
    assert.ok(read.includes(uriOf('.polytoken/subagents/triage.md')), read.join(' '));
    assert.ok(!read.some((u) => u.includes('node_modules') || u.endsWith('notes.md')), read.join(' '));
    assert.ok(!(server.asked['subagents/readDirectory'] ?? []).some((u) => u.includes('node_modules')));
    // Batched: one request per level of folders, not one per folder.
    const folders = (server.asked['subagents/readDirectory'] ?? []).length;
    assert.ok(
      server.requests['subagents/readDirectory'] < folders,
      `${server.requests['subagents/readDirectory']} requests for ${folders} folders`,
    );
  });

  it('answers hover and completion', async () => {
    const hover = (await server.connection.sendRequest('textDocument/hover', {
      textDocument: { uri: vendor },
      position: { line: 3, character: 12 },
    })) as { contents: { kind: string; value: string } } | null;
    assert.ok(hover && /grep/i.test(hover.contents.value), JSON.stringify(hover));
    const completion = (await server.connection.sendRequest('textDocument/completion', {
      textDocument: { uri: vendor },
      position: { line: 3, character: 10 },
    })) as { items: { label: string }[] } | null;
    const labels = completion?.items.map((i) => i.label) ?? [];
    assert.ok(labels.includes('file_read'), labels.join(' '));
  });

  it('follows edits as you type (and prints edit → diagnostics in the worker)', async () => {
    const times: number[] = [];
    let version = 1;
    for (let i = 0; i < 30; i++) {
      const renamed = i % 2 === 0;
      const text = files['vendor/agents/triage.md'].replace('name: triage', renamed ? 'name: other' : 'name: triage');
      const { diagnostics, ms } = await diagnosticsOf(server, vendor, () =>
        server.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri: vendor, version: ++version },
          contentChanges: [{ text }],
        }),
      );
      times.push(ms);
      const codes = diagnostics.map((d) => d.code);
      // Renamed, the file no longer matches its name and no longer is shadowed.
      if (renamed)
        assert.ok(codes.includes('polytoken/name-mismatch') && !codes.includes('polytoken/shadowed'), codes.join());
      else assert.deepEqual(codes, ['polytoken/shadowed']);
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)];
    console.log(
      `      edit → diagnostics in the worker: median ${median.toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms (${times.length} edits)`,
    );
  });
});
