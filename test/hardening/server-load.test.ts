import * as assert from 'assert';
import { spawn, type ChildProcess } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import {
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import type { Diagnostic } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { makeTree } from '../support/tree';
import { Waiter } from '../support/wait';

/**
 * The real language server (`node dist/cli.js lsp --stdio`) under load: a burst of edits
 * settles on the last version, requests about closed or unknown documents answer empty,
 * a 1 MB malformed definition leaves it responsive, and hostile content writes nothing.
 */
const CLI = path.resolve(__dirname, '../../../dist/cli.js');

interface Published {
  uri: string;
  version?: number;
  diagnostics: Diagnostic[];
}

class Client {
  readonly child: ChildProcess;
  readonly connection: MessageConnection;
  readonly published: Published[] = [];
  readonly stderr: string[] = [];
  private readonly waiter = new Waiter();

  constructor() {
    if (!fs.existsSync(CLI)) throw new Error('dist/cli.js is missing: run `npm run build`');
    this.child = spawn(process.execPath, [CLI, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stderr!.on('data', (d) => this.stderr.push(String(d)));
    this.connection = createMessageConnection(
      new StreamMessageReader(this.child.stdout!),
      new StreamMessageWriter(this.child.stdin!),
    );
    this.connection.onNotification('textDocument/publishDiagnostics', (p: Published) => {
      this.published.push(p);
      this.waiter.wake();
    });
    this.connection.onNotification('window/logMessage', () => undefined);
    this.connection.onNotification('$/progress', () => undefined);
    this.connection.onRequest('workspace/configuration', (p: { items: unknown[] }) => p.items.map(() => ({})));
    this.connection.onRequest('client/registerCapability', () => null);
    this.connection.onRequest('window/workDoneProgress/create', () => null);
    this.connection.listen();
  }

  async start(folder: string): Promise<void> {
    await this.connection.sendRequest('initialize', {
      processId: process.pid,
      rootUri: URI.file(folder).toString(),
      workspaceFolders: [{ uri: URI.file(folder).toString(), name: 'ws' }],
      capabilities: {
        textDocument: { publishDiagnostics: { versionSupport: true } },
        workspace: { configuration: true },
      },
    });
    await this.connection.sendNotification('initialized', {});
  }

  async until<T>(check: () => T | undefined | false, ms: number, what: string): Promise<T> {
    return this.waiter.until(check, ms, what, {
      pollMs: 100,
      abort: () =>
        this.child.exitCode !== null
          ? `the server exited (${this.child.exitCode}, stderr: ${this.stderr.join('')})`
          : undefined,
    });
  }

  lastFor(uri: string): Published | undefined {
    for (let i = this.published.length - 1; i >= 0; i--) if (this.published[i].uri === uri) return this.published[i];
    return undefined;
  }

  async stop(): Promise<void> {
    try {
      await Promise.race([this.connection.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      await this.connection.sendNotification('exit');
    } catch {
      // already gone
    }
    await new Promise((r) => setTimeout(r, 100));
    if (this.child.exitCode === null) this.child.kill();
    this.connection.dispose();
  }
}

const POLY = (name: string, extra = '') =>
  `---\nname: ${name}\ndescription: Sorts issues.\npolytoken:\n  tools: [file_read, grep]\n${extra}---\nBody {{ task }}.\n`;

const workspace = (files: Record<string, string>) => makeTree(files, 'subagents-load-');

function snapshot(root: string): string {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, e.name);
      const st = fs.lstatSync(full);
      if (e.isDirectory()) walk(full);
      else
        out.push(
          `${path.relative(root, full)} ${st.size} ${st.mtimeMs} ${crypto.createHash('sha1').update(fs.readFileSync(full)).digest('hex')}`,
        );
    }
  };
  walk(root);
  return out.join('\n');
}

describe('hardening: the language server under load', function () {
  this.timeout(120_000);
  let client: Client;
  let root: string;

  beforeEach(async () => {
    root = workspace({
      '.polytoken/subagents/triage.md': POLY('triage'),
      '.polytoken/subagents/other.md': POLY('other'),
      'apps/cli/agents/code_review.yaml': 'name: code_review\n',
    });
    client = new Client();
    await client.start(root);
  });
  afterEach(async () => {
    await client.stop();
    fs.rmSync(root, { recursive: true, force: true });
  });

  it('1,000 edits in a burst settle on the last version’s diagnostics', async () => {
    const file = path.join(root, '.polytoken/subagents/triage.md');
    const uri = URI.file(file).toString();
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text: POLY('triage') },
    });
    await client.until(() => client.lastFor(uri), 20_000, 'first diagnostics');
    const N = 1000;
    for (let v = 2; v <= N + 1; v++) {
      // Every version has a different wrong name; only the last one must be reported.
      void client.connection.sendNotification('textDocument/didChange', {
        textDocument: { uri, version: v },
        contentChanges: [{ text: POLY(`wrong-${v}`, v % 3 ? '' : '  tools_deny: [exit_tool]\n') }],
      });
    }
    const last = N + 1;
    const settled = await client.until(
      () => {
        const p = client.lastFor(uri);
        return p && p.version === last ? p : undefined;
      },
      60_000,
      `diagnostics for version ${last}`,
    );
    const mismatch = settled.diagnostics.filter((d) => d.code === 'polytoken/name-mismatch');
    assert.strictEqual(mismatch.length, 1, JSON.stringify(settled.diagnostics.map((d) => d.code)));
    assert.match(String(mismatch[0].message), new RegExp(`wrong-${last}`));
    assert.ok(
      !settled.diagnostics.some((d) => d.code === 'polytoken/undeniable-tool'),
      `version ${last} has no tools_deny`,
    );
    // Nothing older arrives afterwards, and versions only go up.
    await new Promise((r) => setTimeout(r, 500));
    assert.strictEqual(client.lastFor(uri)!.version, last);
    const versions = client.published.filter((p) => p.uri === uri && p.version !== undefined).map((p) => p.version!);
    assert.deepStrictEqual(
      versions,
      [...versions].sort((a, b) => a - b),
      'published versions never go back',
    );
    // How many are coalesced depends on how the edits arrive (those already received are
    // coalesced, one arriving alone is published): `npm run bench` counts them.
    // Still answering.
    const hover = await client.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 3, character: 3 },
    });
    assert.match(hover?.contents.value ?? '', /\*\*polytoken\*\*/, 'the key `polytoken` is documented');
  });

  it('requests about closed or unknown documents answer empty', async () => {
    const unknown = URI.file(path.join(root, 'nowhere/.polytoken/subagents/ghost.md')).toString();
    const file = path.join(root, '.polytoken/subagents/other.md');
    const closed = URI.file(file).toString();
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: closed, languageId: 'markdown', version: 1, text: POLY('other') },
    });
    await client.until(() => client.lastFor(closed), 20_000, 'diagnostics');
    await client.connection.sendNotification('textDocument/didClose', { textDocument: { uri: closed } });
    await client.until(
      () => client.lastFor(closed)?.diagnostics.length === 0 && client.lastFor(closed),
      10_000,
      'cleared diagnostics',
    );
    const position = { line: 4, character: 12 };
    const range = { start: { line: 0, character: 0 }, end: { line: 9, character: 0 } };
    const empty = (v: unknown) =>
      v === null ||
      v === undefined ||
      (Array.isArray(v) && v.length === 0) ||
      (typeof v === 'object' &&
        v !== null &&
        Array.isArray((v as { items?: unknown[] }).items) &&
        (v as { items: unknown[] }).items.length === 0);
    for (const uri of [unknown, closed, 'untitled:Untitled-1', 'file:///', 'not a uri']) {
      for (const [method, params] of [
        ['textDocument/hover', { textDocument: { uri }, position }],
        ['textDocument/completion', { textDocument: { uri }, position }],
        ['textDocument/documentSymbol', { textDocument: { uri } }],
        ['textDocument/foldingRange', { textDocument: { uri } }],
        ['textDocument/codeAction', { textDocument: { uri }, range, context: { diagnostics: [] } }],
        ['textDocument/codeLens', { textDocument: { uri } }],
        ['textDocument/definition', { textDocument: { uri }, position }],
        ['subagents/resolve', { uri }],
      ] as const) {
        // A definition of the workspace on disk is resolved from there (the Subagents view expands closed files): below.
        if (method === 'subagents/resolve' && uri === closed) continue;
        const answer = await client.connection.sendRequest(method, params);
        assert.ok(empty(answer), `${method} for ${uri}: ${JSON.stringify(answer)}`);
      }
    }
    const fromDisk = await client.connection.sendRequest<{ definitions: { name: string }[] } | null>(
      'subagents/resolve',
      { uri: closed },
    );
    assert.deepStrictEqual(
      fromDisk?.definitions.map((d) => d.name),
      ['other'],
    );
    // Malformed params are answered (empty or an error), never a crash.
    for (const params of [{}, { textDocument: {} }, null]) {
      await client.connection.sendRequest('textDocument/hover', params).catch(() => undefined);
      await client.connection.sendRequest('subagents/resolve', params).catch(() => undefined);
    }
    assert.strictEqual(client.child.exitCode, null, 'still running');
  });

  const megabyte = (line: (i: number) => string, head: string[]) => {
    const lines = [...head];
    for (let i = 0, size = 0; size < 1024 * 1024; i++) {
      lines.push(line(i));
      size += lines[lines.length - 1].length + 1;
    }
    return lines.join('\n');
  };
  const BIG = {
    // Broken YAML: unclosed flow collections pile up (past the parse depth cap), stray colons.
    malformed: megabyte(
      (i) => (i % 97 === 0 ? `  - [unclosed ${i}, {a: ` : i % 89 === 0 ? `key${i}: : :` : `  - tool_${i}`),
      ['name: huge', 'tools:'],
    ),
    // Valid YAML with a finding on every line (some 75,000 unknown tools).
    noisy: megabyte((i) => `  - tol_${i}`, ['name: huge', 'tools:']),
  };
  for (const [kind, text] of Object.entries(BIG)) {
    it(`a 1 MB ${kind} definition leaves the server responsive`, async () => {
      const bigUri = URI.file(path.join(root, 'apps/cli/agents/huge.yaml')).toString();
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: bigUri, languageId: 'yaml', version: 1, text },
      });
      const small = URI.file(path.join(root, 'apps/cli/agents/code_review.yaml')).toString();
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri: small, languageId: 'yaml', version: 1, text: 'name: code_review\n' },
      });
      const bigDiagnostics = await client.until(() => client.lastFor(bigUri), 60_000, 'diagnostics of the big file');
      assert.ok(bigDiagnostics.diagnostics.length > 0);
      await client.until(() => client.lastFor(small), 60_000, 'diagnostics of the small file');
      // Edits to the big file keep coming; the small one still gets answers.
      for (let v = 2; v <= 6; v++)
        void client.connection.sendNotification('textDocument/didChange', {
          textDocument: { uri: bigUri, version: v },
          contentChanges: [{ text: text + `\n# ${v}` }],
        });
      const hover = await client.connection.sendRequest<{ contents: { value: string } } | null>('textDocument/hover', {
        textDocument: { uri: small },
        position: { line: 0, character: 2 },
      });
      assert.match(hover?.contents.value ?? '', /\*\*name\*\*/, 'the small file still gets its hover');
      const completion = await client.connection.sendRequest<{ items: unknown[] } | null>('textDocument/completion', {
        textDocument: { uri: bigUri },
        position: { line: 2, character: 4 },
      });
      assert.ok(completion && Array.isArray(completion.items), 'the big file still gets a completion answer');
      await client.until(
        () => client.lastFor(bigUri)?.version === 6 && client.lastFor(bigUri),
        60_000,
        'the last version of the big file',
      );
      assert.strictEqual(client.child.exitCode, null);
    });
  }

  it('opening 600 definitions one after another publishes each one about once (not once per other open document)', async () => {
    const N = 600;
    const uris: string[] = [];
    for (let i = 0; i < N; i++) {
      // Distinct names, and pairs that shadow: vendor/agents is a subagentDirs folder the project replaces.
      const name = `def${i}`;
      const uri = URI.file(path.join(root, '.polytoken/subagents', `${name}.md`)).toString();
      uris.push(uri);
      await client.connection.sendNotification('textDocument/didOpen', {
        textDocument: { uri, languageId: 'markdown', version: 1, text: POLY(name) },
      });
    }
    await client.until(
      () => uris.every((u) => client.lastFor(u)) && true,
      60_000,
      'diagnostics for every opened document',
    );
    await new Promise((r) => setTimeout(r, 500));
    const counts = new Map<string, number>();
    for (const p of client.published) counts.set(p.uri, (counts.get(p.uri) ?? 0) + 1);
    const total = uris.reduce((n, u) => n + (counts.get(u) ?? 0), 0);
    assert.ok(total <= 2 * N, `${total} publications for ${N} opened documents`);
    // Shadowing still follows the index: a second definition of def0 in the project replaces... nothing (same project), but one
    // in a subagentDirs folder is replaced by the project's, and learns it when the project's is renamed away.
    fs.writeFileSync(path.join(root, '.subagents.yaml'), 'polytoken:\n  subagentDirs: [vendor/agents]\n');
    const vendor = URI.file(path.join(root, 'vendor/agents/def1.md')).toString();
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: URI.file(path.join(root, '.subagents.yaml')).toString(), type: 1 }],
    });
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri: vendor, languageId: 'markdown', version: 1, text: POLY('def1') },
    });
    await client.until(
      () => client.lastFor(vendor)?.diagnostics.some((d) => d.code === 'polytoken/shadowed') && true,
      20_000,
      'the vendor copy is shadowed',
    );
    const project = uris[1];
    await client.connection.sendNotification('textDocument/didChange', {
      textDocument: { uri: project, version: 2 },
      contentChanges: [{ text: POLY('renamed') }],
    });
    await client.until(
      () => client.lastFor(vendor)?.diagnostics.every((d) => d.code !== 'polytoken/shadowed') && true,
      20_000,
      'the vendor copy is no longer shadowed',
    );
  });

  it('malformed notifications are logged and ignored; the server keeps serving', async () => {
    const uri = URI.file(path.join(root, '.polytoken/subagents/triage.md')).toString();
    for (const [method, params] of [
      ['textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: null } }],
      ['textDocument/didOpen', { textDocument: { uri, languageId: 'markdown', version: 1, text: 42 } }],
      ['textDocument/didOpen', { textDocument: { uri: 7, languageId: 'markdown', version: 1, text: 'x' } }],
      ['textDocument/didOpen', null],
      ['textDocument/didChange', { textDocument: { uri }, contentChanges: [{ text: 'x' }] }],
      ['textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: 'nope' }],
      ['textDocument/didClose', {}],
      ['workspace/didChangeWatchedFiles', { changes: null }],
      ['workspace/didChangeWatchedFiles', { changes: [{ type: 1 }] }],
    ] as const) {
      await client.connection.sendNotification(method, params);
    }
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text: POLY('triage', '  tools_deny: [exit_tool]\n') },
    });
    const published = await client.until(
      () => (client.lastFor(uri)?.diagnostics.length ? client.lastFor(uri) : undefined),
      20_000,
      'diagnostics after the malformed messages',
    );
    assert.deepStrictEqual(
      published.diagnostics.map((d) => d.code),
      ['polytoken/undeniable-tool'],
    );
    assert.strictEqual(client.child.exitCode, null, 'still running');
    assert.ok(client.stderr.join('').length === 0 || !/TypeError/.test(client.stderr.join('')), client.stderr.join(''));
  });

  it('hostile content is only read: nothing is written, nothing runs', async () => {
    const before = snapshot(root);
    const canary = path.join(root, 'canary');
    const hostile = `---\nname: triage\ndescription: "{{ process.exit(1) }} $(touch ${canary})"\npolytoken:\n  model: !!js/function "function () { require('fs').writeFileSync('${canary}', 'x') }"\n  tools: [!!python/object/apply:os.system ["touch ${canary}"]]\n---\n{{ process.exit(2) }} \`touch ${canary}\`\n`;
    const uri = URI.file(path.join(root, '.polytoken/subagents/triage.md')).toString();
    await client.connection.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text: hostile },
    });
    await client.until(() => client.lastFor(uri), 20_000, 'diagnostics');
    await client.connection.sendRequest('subagents/resolve', { uri });
    await client.connection.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: { line: 4, character: 10 },
    });
    await client.connection.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 8, character: 0 } },
      context: { diagnostics: client.lastFor(uri)!.diagnostics },
    });
    assert.strictEqual(client.child.exitCode, null);
    assert.ok(!fs.existsSync(canary));
    assert.strictEqual(snapshot(root), before, 'the workspace is unchanged');
  });
});
