/**
 * "Declare `x` as a … tool in .subagents.yaml", through the real server: the edit lands in the
 * configuration (or creates one where there is none), and once it is saved the definition's
 * unknown tool is known.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { URI } from 'vscode-uri';
import type { CodeAction, Diagnostic, TextDocumentEdit, TextEdit } from 'vscode-languageserver-types';
import { applyEdits, startServer, type TestClient } from './harness';

const ROLE =
  'name: auditor\ninvocation: "@auditor"\nmodel: claude-opus\ndescription: Reviews changes.\nwhen_to_use: For audits.\noutput_schema: audit\nmax_steps: 3\nmax_depth: 0\ntools: [read_file, run_audit, mcp__github__create_pr]\n';

describe('LSP: declaring an unknown tool in .subagents.yaml', function () {
  this.timeout(60000);

  async function actionsOn(
    client: TestClient,
    file: string,
    tool: string,
  ): Promise<{ uri: string; diagnostic: Diagnostic; actions: CodeAction[] }> {
    const uri = await client.open(file, ROLE);
    const ds = await client.diagnosticsFor(uri, (d) =>
      d.some((x) => x.code === 'picasso/unknown-tool' && String(x.message).includes(tool)),
    );
    const diagnostic = ds.find((x) => x.code === 'picasso/unknown-tool' && String(x.message).includes(tool))!;
    const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: diagnostic.range,
      context: { diagnostics: [diagnostic] },
    });
    return { uri, diagnostic, actions };
  }

  it('edits the configuration in force: a name under tools.picasso, an MCP tool under its server; then the tool is known', async () => {
    const { client, ws } = await startServer({
      '.subagents.yaml': '# project configuration\nmcp:\n  github: [create_issue]\n',
    });
    try {
      const role = path.join(ws, 'apps/cli/agents/auditor.yaml');
      const config = path.join(ws, '.subagents.yaml');
      const configUri = URI.file(config).toString();
      const { uri, actions } = await actionsOn(client, role, 'run_audit');
      const declare = actions.find((a) => a.title === 'Declare `run_audit` as a Picasso tool in .subagents.yaml');
      assert.ok(declare, actions.map((a) => a.title).join(' | '));
      assert.ok(!declare.isPreferred, 'only the author knows whether the tool exists');
      const edits = declare.edit!.changes![configUri] as TextEdit[];
      const declared = applyEdits(fs.readFileSync(config, 'utf8'), edits);
      assert.strictEqual(
        declared,
        '# project configuration\nmcp:\n  github: [create_issue]\ntools:\n  picasso: [run_audit]\n',
      );

      const mcp = (await actionsOn(client, role, 'mcp__github__create_pr')).actions.find((a) =>
        /create_pr/.test(a.title),
      );
      assert.strictEqual(mcp?.title, 'Declare `create_pr` as a tool of MCP server `github` in .subagents.yaml');
      const both = applyEdits(declared, mcp!.edit!.changes![configUri] as TextEdit[]);
      assert.strictEqual(
        both,
        '# project configuration\nmcp:\n  github: [create_issue, create_pr]\ntools:\n  picasso: [run_audit]\n',
      );

      // Saved: the configuration is re-read and both tools are known.
      fs.writeFileSync(config, both);
      await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: [{ uri: configUri, type: 2 }],
      });
      await client.until(
        () => {
          const last = [...client.diagnostics].reverse().find((p) => p.uri === uri);
          return last && !last.diagnostics.some((d) => d.code === 'picasso/unknown-tool') ? last : undefined;
        },
        8000,
        'the unknown tools to go',
      );
    } finally {
      await client.stop();
    }
  });

  it('creates .subagents.yaml in the workspace folder when there is none (clients that create files)', async () => {
    const { client, ws } = await startServer({});
    try {
      const { actions } = await actionsOn(client, path.join(ws, 'apps/cli/agents/auditor.yaml'), 'run_audit');
      const declare = actions.find(
        (a) => a.title === 'Declare `run_audit` as a Picasso tool in .subagents.yaml (creates it)',
      );
      assert.ok(declare, actions.map((a) => a.title).join(' | '));
      const [create, write] = declare.edit!.documentChanges!;
      const target = URI.file(path.join(ws, '.subagents.yaml')).toString();
      assert.deepStrictEqual(create, { kind: 'create', uri: target, options: { ignoreIfExists: true } });
      assert.strictEqual((write as TextDocumentEdit).textDocument.uri, target);
      assert.strictEqual(
        ((write as TextDocumentEdit).edits[0] as TextEdit).newText,
        'tools:\n  picasso: [run_audit]\n',
      );
    } finally {
      await client.stop();
    }
  });

  it('is not offered for a configuration with errors (it is ignored, so the tool would stay unknown)', async () => {
    const { client, ws } = await startServer({ '.subagents.yaml': 'tools: 5\n' });
    try {
      const { actions } = await actionsOn(client, path.join(ws, 'apps/cli/agents/auditor.yaml'), 'run_audit');
      assert.ok(actions.length > 0, 'the other fixes are offered');
      assert.ok(!actions.some((a) => a.title.startsWith('Declare')), actions.map((a) => a.title).join(' | '));
    } finally {
      await client.stop();
    }
  });
});
