import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import { applyEdits, editsFor, REPO, startServer, type TestClient } from './harness';

const POLY = `---
name: triage
description: Sorts issues.
polytoken:
  tools: [grep, file_read, tag!ALL]
  tools_deny: [grep]
---
Body.
`;

const PICASSO = `name: checker
invocation: "@checker"
model: m
tools: [read_file, edit_file, write_memory]
deny: [edit_file]
memory: read-only
max_steps: 1
max_depth: 0
`;

const UNNECESSARY = 1;
const HINT = 4;
/** Our diagnostics without a rule id: the faded removed tools. */
const faded = (ds: Diagnostic[]) => ds.filter((d) => d.source === 'subagents' && d.code === undefined);

describe('LSP removed tools, faded where granted', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;

  before(async () => {
    ({ client, ws } = await startServer({
      '.polytoken/subagents/triage.md': POLY,
      'apps/cli/agents/checker.yaml': PICASSO,
    }));
  });
  after(async () => client.stop());

  const textAt = (text: string, d: Diagnostic) =>
    text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character);

  it('Polytoken: a literal `tools` entry that `tools_deny` removes; not the shorthand that also grants it', async () => {
    const uri = await client.open(path.join(ws, '.polytoken/subagents/triage.md'), POLY);
    const ds = faded(await client.diagnosticsFor(uri, (d) => faded(d).length > 0));
    await client.close(uri);
    assert.strictEqual(ds.length, 1, JSON.stringify(ds));
    const [d] = ds;
    assert.deepStrictEqual(d.range, { start: { line: 4, character: 10 }, end: { line: 4, character: 14 } });
    assert.strictEqual(textAt(POLY, d), 'grep');
    assert.deepStrictEqual(d.tags, [UNNECESSARY]);
    assert.strictEqual(d.severity, HINT);
    assert.strictEqual(d.message, '`grep` is granted here, then removed by `tools_deny`.');
    assert.strictEqual(d.codeDescription, undefined);
  });

  it('Picasso: removed by `deny` and by the memory scope', async () => {
    const uri = await client.open(path.join(ws, 'apps/cli/agents/checker.yaml'), PICASSO);
    const all = await client.diagnosticsFor(uri, (d) => faded(d).length > 0);
    await client.close(uri);
    const ds = faded(all);
    assert.deepStrictEqual(
      ds.map((d) => [textAt(PICASSO, d), d.message]),
      [
        ['edit_file', '`edit_file` is granted here, then removed by `deny`.'],
        ['write_memory', '`write_memory` is granted here, then removed by `memory: read-only`.'],
      ],
    );
    for (const d of ds) assert.deepStrictEqual([d.severity, d.tags], [HINT, [UNNECESSARY]]);
    // The rules' own findings are still there, beside the faded entries.
    assert.ok(all.some((d) => d.code === 'picasso/tools-deny-overlap'));
    assert.ok(all.some((d) => d.code === 'picasso/memory-conflict'));
  });

  it('quick fixes and "Fix all" ignore them', async () => {
    const text = POLY.replace('tag!ALL]', 'tag!ALL, exit_tool]');
    const uri = await client.open(path.join(ws, '.polytoken/subagents/triage.md'), text);
    const all = await client.diagnosticsFor(
      uri,
      (ds) => faded(ds).length > 0 && ds.some((x) => x.code === 'polytoken/exit-tool-listed'),
    );
    const [d] = faded(all);
    const quick = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: [d] },
    });
    assert.deepStrictEqual(quick, [], 'no quick fix, no "disable" comment for a faded tool');
    const fixAll = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: d.range,
      context: { diagnostics: all, only: ['source.fixAll'] },
    });
    await client.close(uri);
    assert.deepStrictEqual(
      fixAll.map((a) => a.title),
      ['Fix all subagent problems'],
    );
    // It removes the listed exit_tool and leaves the granted-then-denied `grep` alone.
    const fixed = applyEdits(text, editsFor(fixAll[0].edit, uri));
    assert.match(fixed, /tools: \[grep, file_read, tag!ALL\]/);
  });

  it('the CLI never prints them', () => {
    const r = spawnSync(process.execPath, [path.join(REPO, 'dist', 'cli.js'), 'check', ws, '--format', 'json'], {
      encoding: 'utf8',
    });
    const report = JSON.parse(r.stdout) as { files: { diagnostics: { rule?: string; message: string }[] }[] };
    const messages = report.files.flatMap((f) => f.diagnostics);
    assert.ok(messages.length > 0, 'the Picasso file has findings');
    assert.ok(
      messages.every((m) => typeof m.rule === 'string' && !/is granted here, then removed/.test(m.message)),
      JSON.stringify(messages),
    );
  });

  it('`subagents.fadeRemovedTools: false` turns them off', async () => {
    client.settings = { fadeRemovedTools: false };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    const uri = await client.open(path.join(ws, 'apps/cli/agents/checker.yaml'), PICASSO);
    // Published after the settings were pulled: the rules' findings, none faded.
    const ds = await client.until(
      () => {
        const last = [...client.diagnostics].reverse().find((p) => p.uri === uri);
        return last &&
          last.diagnostics.some((x) => x.code === 'picasso/tools-deny-overlap') &&
          faded(last.diagnostics).length === 0
          ? last.diagnostics
          : undefined;
      },
      8000,
      'diagnostics without faded tools',
    );
    await client.close(uri);
    client.settings = {};
    assert.ok(ds.some((x) => x.code === 'picasso/memory-conflict'));
  });
});
