import * as assert from 'assert';
import * as path from 'path';
import { URI } from 'vscode-uri';
import type { CodeLens, DocumentSymbol, FoldingRange, Location, WorkspaceSymbol } from 'vscode-languageserver-types';
import { cursor, makeWorkspace, startServer, type TestClient } from './harness';

const CONFIG = `mcp:
  github: [create_issue, list_issues]
tools:
  polytoken:
    - deploy
polytoken:
  subagentDirs: [vendor/agents]
`;

const TRIAGE = `---
name: triage
description: Sorts issues.
polytoken:
  tools: [file_read, grep, deploy, mcp__github__create_issue]
  tools_deny: [grep]
---
You triage issues.
`;

const EXPERT = `{
  "name": "book",
  "description": "d",
  "delegationBrief": "b",
  "tools": ["read", "grep", "Task"],
  "subagents": [
    { "name": "scan", "description": "d", "system_prompt": "p", "tools": ["read", "*"] },
    { "name": "lost", "description": "d", "system_prompt": "p", "tools": ["nothing"] }
  ]
}
`;

describe('LSP symbols, lenses, definition and resolve', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  let globalDir: string;

  before(async () => {
    globalDir = makeWorkspace({ 'triage.md': TRIAGE.replace('Sorts issues.', 'The global one.') });
    ({ client, ws } = await startServer(
      {
        '.subagents.yaml': CONFIG,
        '.polytoken/subagents/triage.md': TRIAGE,
        '.picasso/agents/auditor.md':
          'name: auditor\ninvocation: "@auditor"\nmodel: m\ntools: [read_file]\nmax_steps: 3\nmax_depth: 0\n',
        'experts/book.expert.json': EXPERT,
        'vendor/agents/triage.md': TRIAGE.replace('Sorts issues.', 'The vendored one.'),
      },
      { settings: { polytoken: { globalDir } } },
    ));
    await client.indexed();
  });
  after(async () => client.stop());

  const file = (rel: string) => path.join(ws, rel);

  it('indexes the workspace at start-up with work-done progress', async () => {
    const kinds = client.progress.map((p) => (p as { value: { kind: string; title?: string } }).value);
    assert.strictEqual(kinds[0].kind, 'begin');
    assert.match(kinds[0].title!, /indexing/);
    assert.strictEqual(kinds[kinds.length - 1].kind, 'end');
  });

  it('subagents/resolve for Profy: one entry per subagent, what was dropped and why', async () => {
    const uri = await client.open(file('experts/book.expert.json'), EXPERT);
    const r = await client.request<any>('subagents/resolve', { uri });
    await client.close(uri);
    assert.strictEqual(r.dialect, 'profy');
    assert.deepStrictEqual(
      r.definitions.map((d: any) => [d.name, d.status]),
      [
        ['scan', 'loads'],
        ['lost', 'dropped'],
      ],
    );
    assert.deepStrictEqual(r.definitions[0].tools, ['grep', 'read']);
    assert.ok(
      r.definitions[0].removed.some((x: any) => x.tool === 'Task'),
      JSON.stringify(r.definitions[0].removed),
    );
    assert.ok(
      r.definitions[1].dropped.some((x: any) => x.entry === 'nothing'),
      JSON.stringify(r.definitions[1]),
    );
  });

  it('document symbols: the definition and its keys; each Profy subagent', async () => {
    const uri = await client.open(file('.polytoken/subagents/triage.md'), TRIAGE);
    const symbols = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri } });
    await client.close(uri);
    assert.strictEqual(symbols.length, 1);
    assert.strictEqual(symbols[0].name, 'triage');
    assert.deepStrictEqual(
      symbols[0].children!.map((c) => c.name),
      ['name', 'description', 'polytoken'],
    );
    assert.deepStrictEqual(
      symbols[0].children![2].children!.map((c) => c.name),
      ['tools', 'tools_deny'],
    );
    const profy = await client.open(file('experts/book.expert.json'), EXPERT);
    const ps = await client.request<DocumentSymbol[]>('textDocument/documentSymbol', { textDocument: { uri: profy } });
    await client.close(profy);
    const subs = ps[0].children!.find((c) => c.name === 'subagents')!;
    assert.deepStrictEqual(
      subs.children!.map((c) => c.name),
      ['scan', 'lost'],
    );
  });

  it('folding: the frontmatter block', async () => {
    const uri = await client.open(file('.polytoken/subagents/triage.md'), TRIAGE);
    const ranges = await client.request<FoldingRange[]>('textDocument/foldingRange', { textDocument: { uri } });
    await client.close(uri);
    assert.ok(
      ranges.some((r) => r.startLine === 0 && r.endLine === 6),
      JSON.stringify(ranges),
    );
  });

  it('code lens: status and tool count per definition, with the resolve command', async () => {
    const uri = await client.open(file('.polytoken/subagents/triage.md'), TRIAGE);
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    await client.close(uri);
    assert.strictEqual(lenses.length, 1);
    assert.strictEqual(lenses[0].command!.title, 'loads \u00b7 4 tools');
    // A tool the catalog does not know is counted apart.
    const unknownUri = await client.open(
      file('.polytoken/subagents/triage.md'),
      TRIAGE.replace('tools: [', 'tools: [grpe, '),
    );
    const unknownLens = await client.request<CodeLens[]>('textDocument/codeLens', {
      textDocument: { uri: unknownUri },
    });
    await client.close(unknownUri);
    assert.strictEqual(unknownLens[0].command!.title, 'loads \u00b7 4 tools + 1 unknown');
    // A client that does not implement `subagents.resolve` itself gets the server's command (commands.test.ts).
    assert.strictEqual(lenses[0].command!.command, 'subagents.server.resolve');
    assert.deepStrictEqual(lenses[0].command!.arguments, [uri]);
    const profy = await client.open(file('experts/book.expert.json'), EXPERT);
    const pl = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri: profy } });
    await client.close(profy);
    assert.deepStrictEqual(
      pl.map((l) => l.command!.title.split(' \u00b7 ')[0]),
      ['scan: loads', 'lost: dropped'],
    );
    assert.strictEqual(pl[0].range.start.line, 6);
  });

  it('subagents/resolve: the shape of the resolve output from the editor text, with provenance', async () => {
    const edited = TRIAGE.replace('tools_deny: [grep]', 'tools_deny: [deploy]');
    const uri = await client.open(file('.polytoken/subagents/triage.md'), edited);
    const r = await client.request<any>('subagents/resolve', { uri });
    await client.close(uri);
    assert.strictEqual(r.file, uri);
    assert.strictEqual(r.dialect, 'polytoken');
    assert.strictEqual(r.definitions.length, 1);
    const d = r.definitions[0];
    assert.strictEqual(d.name, 'triage');
    assert.strictEqual(d.status, 'loads');
    assert.deepStrictEqual(d.tools, ['exit_tool', 'file_read', 'grep', 'mcp__github__create_issue']);
    assert.ok(Array.isArray(d.undeferred) && Array.isArray(d.unexpanded));
    assert.ok(d.removed.some((x: any) => x.tool === 'deploy' && x.by === 'tools_deny'));
    assert.ok(d.provenance && Array.isArray(d.provenance.grep), JSON.stringify(d.provenance));
  });

  it('closed and unknown documents answer empty, never an error', async () => {
    const uri = URI.file(file('.polytoken/subagents/nope.md')).toString();
    const position = { line: 0, character: 0 };
    assert.strictEqual(await client.request('subagents/resolve', { uri }), null);
    assert.strictEqual(await client.request('subagents/resolve', {}), null);
    assert.strictEqual(await client.request('textDocument/hover', { textDocument: { uri }, position }), null);
    assert.strictEqual(await client.request('textDocument/completion', { textDocument: { uri }, position }), null);
    assert.deepStrictEqual(await client.request('textDocument/codeLens', { textDocument: { uri } }), []);
    assert.deepStrictEqual(await client.request('textDocument/documentSymbol', { textDocument: { uri } }), []);
    assert.deepStrictEqual(
      await client.request('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: position, end: position },
        context: { diagnostics: [] },
      }),
      [],
    );
    assert.strictEqual(await client.request('textDocument/definition', { textDocument: { uri }, position }), null);
    // A file that is not a definition: opened, but nothing to say.
    const other = await client.open(file('README.md'), '# hello\n');
    assert.strictEqual(await client.request('subagents/resolve', { uri: other }), null);
    assert.deepStrictEqual(await client.request('textDocument/codeLens', { textDocument: { uri: other } }), []);
    await client.close(other);
  });

  it('workspace symbols: every definition by name across dialects, from the index', async () => {
    const all = await client.request<WorkspaceSymbol[]>('workspace/symbol', { query: '' });
    const names = all.map((s) => s.name);
    for (const n of ['triage', 'auditor', 'book', 'scan', 'lost']) assert.ok(names.includes(n), `${n} in ${names}`);
    const scan = await client.request<WorkspaceSymbol[]>('workspace/symbol', { query: 'sca' });
    assert.deepStrictEqual(
      scan.map((s) => [s.name, s.containerName]),
      [['scan', 'book']],
    );
  });

  it('go to definition: a tool and an MCP server to .subagents.yaml', async () => {
    const { text, position } = cursor(TRIAGE.replace('deploy,', 'dep|loy,'));
    const uri = await client.open(file('.polytoken/subagents/triage.md'), text);
    const locs = await client.request<Location[]>('textDocument/definition', { textDocument: { uri }, position });
    const mcp = cursor(TRIAGE.replace('mcp__github__create_issue', 'mcp__github__create_is|sue'));
    await client.change(uri, mcp.text);
    const mcpLocs = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri },
      position: mcp.position,
    });
    await client.close(uri);
    const cfg = URI.file(file('.subagents.yaml')).toString();
    assert.deepStrictEqual(locs, [
      { uri: cfg, range: { start: { line: 4, character: 6 }, end: { line: 4, character: 12 } } },
    ]);
    assert.deepStrictEqual(mcpLocs, [
      { uri: cfg, range: { start: { line: 1, character: 11 }, end: { line: 1, character: 23 } } },
    ]);
  });

  it('shadowing from the index, and go to the replacing file', async () => {
    const vendored = file('vendor/agents/triage.md');
    const uri = await client.open(vendored, TRIAGE.replace('Sorts issues.', 'The vendored one.'));
    const ds = await client.diagnosticsFor(uri, (d) => d.some((x) => x.code === 'polytoken/shadowed'));
    const shadowed = ds.find((d) => d.code === 'polytoken/shadowed')!;
    const locs = await client.request<Location[]>('textDocument/definition', {
      textDocument: { uri },
      position: shadowed.range.start,
    });
    await client.close(uri);
    assert.strictEqual(locs.length, 1);
    assert.strictEqual(locs[0].uri, URI.file(file('.polytoken/subagents/triage.md')).toString());
    assert.deepStrictEqual(locs[0].range, { start: { line: 1, character: 6 }, end: { line: 1, character: 12 } });
  });

  it('a renamed project definition stops shadowing the vendored one (open documents update the index)', async () => {
    const vendored = file('vendor/agents/triage.md');
    const project = await client.open(
      file('.polytoken/subagents/triage.md'),
      TRIAGE.replace('name: triage', 'name: other'),
    );
    await client.diagnosticsFor(project);
    const uri = await client.open(vendored, TRIAGE.replace('Sorts issues.', 'The vendored one.'));
    const ds = await client.diagnosticsFor(uri);
    assert.ok(!ds.some((d) => d.code === 'polytoken/shadowed'), JSON.stringify(ds.map((d) => d.code)));
    // Renaming it back in the editor re-checks the other open definition.
    await client.change(project, TRIAGE);
    await client.until(
      () =>
        [...client.diagnostics]
          .reverse()
          .find((p) => p.uri === uri)
          ?.diagnostics.some((d) => d.code === 'polytoken/shadowed'),
      5000,
      'shadowed again',
    );
    await client.close(uri);
    await client.close(project);
  });

  it('subagents.polytoken.globalDir setting: files there are Polytoken definitions', async () => {
    const uri = await client.open(path.join(globalDir, 'triage.md'), TRIAGE);
    const lenses = await client.request<CodeLens[]>('textDocument/codeLens', { textDocument: { uri } });
    await client.close(uri);
    assert.strictEqual(lenses.length, 1);
  });

  it('the index follows open documents and watched files', async () => {
    const fs = await import('fs');
    const added = file('.picasso/agents/writer.md');
    fs.writeFileSync(added, 'name: writer\n');
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: URI.file(added).toString(), type: 1 }],
    });
    const names = async () =>
      (await client.request<WorkspaceSymbol[]>('workspace/symbol', { query: '' })).map((s) => s.name);
    // Watched-file events are applied in batches, a few milliseconds after they arrive.
    const eventually = async (check: (names: string[]) => boolean) => {
      const deadline = Date.now() + 5000;
      let found: string[] = [];
      while (!check((found = await names())) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      return found;
    };
    assert.ok((await eventually((n) => n.includes('writer'))).includes('writer'));
    const uri = await client.open(added, 'name: scribe\n');
    await client.diagnosticsFor(uri);
    assert.ok((await names()).includes('scribe'));
    assert.ok(!(await names()).includes('writer'));
    await client.close(uri);
    fs.unlinkSync(added);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: URI.file(added).toString(), type: 3 }],
    });
    const after = await eventually((n) => !n.includes('writer') && !n.includes('scribe'));
    assert.ok(!after.includes('writer') && !after.includes('scribe'), `${after}`);
  });

  it('a workspace folder added at run time is indexed', async () => {
    const extra = makeWorkspace({ '.picasso/agents/late_role.md': 'name: late_role\n' });
    await client.connection.sendNotification('workspace/didChangeWorkspaceFolders', {
      event: { added: [{ uri: URI.file(extra).toString(), name: 'extra' }], removed: [] },
    });
    const names = async () =>
      (await client.request<WorkspaceSymbol[]>('workspace/symbol', { query: 'late' })).map((s) => s.name);
    const deadline = Date.now() + 5000;
    let found: string[] = [];
    while (Date.now() < deadline && !(found = await names()).includes('late_role'))
      await new Promise((r) => setTimeout(r, 50));
    assert.deepStrictEqual(found, ['late_role']);
  });
});
