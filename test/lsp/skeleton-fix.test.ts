/**
 * Through the real server: an empty definition file, and a Polytoken one without frontmatter,
 * get the quick fix that inserts the runtime's skeleton named after the file, offered and not
 * preferred; applied, the file loads without an error or a warning.
 */
import * as assert from 'assert';
import * as path from 'path';
import { DiagnosticSeverity, type CodeAction } from 'vscode-languageserver-types';
import { applyEdits, editsFor, startServer, type TestClient } from './harness';

describe('LSP: the skeleton quick fix of an empty definition', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;

  before(async () => {
    ({ client, ws } = await startServer({}));
  });
  after(async () => client.stop());

  const cases = [
    { rel: '.polytoken/subagents/triage.md', text: '', rule: 'syntax/frontmatter', name: 'triage' },
    { rel: '.polytoken/subagents/triage.md', text: 'You triage issues.\n', rule: 'syntax/frontmatter', name: 'triage' },
    { rel: 'apps/cli/agents/code_review.yaml', text: '', rule: 'picasso/invalid-value', name: 'code_review' },
    { rel: 'experts/ledger.expert.json', text: '\n', rule: 'syntax/json', name: 'ledger' },
  ];
  for (const c of cases)
    it(`${c.rel} ${JSON.stringify(c.text)}: offered on ${c.rule}, not preferred; applied, it loads`, async () => {
      const uri = await client.open(path.join(ws, c.rel), c.text);
      try {
        const ds = await client.diagnosticsFor(uri, (d) => d.some((x) => x.code === c.rule));
        const diagnostic = ds.find((x) => x.code === c.rule)!;
        const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
          textDocument: { uri },
          range: diagnostic.range,
          context: { diagnostics: [diagnostic] },
        });
        const action = actions.find((a) => a.title === `Insert a new definition named \`${c.name}\``);
        assert.ok(action, actions.map((a) => a.title).join(' | '));
        assert.strictEqual(action.kind, 'quickfix');
        assert.ok(!action.isPreferred, 'offered, not preferred');
        const next = applyEdits(c.text, editsFor(action.edit, uri));
        if (c.text.trim()) assert.ok(next.endsWith(c.text), 'the body is kept');
        await client.change(uri, next);
        const after = await client.diagnosticsFor(uri, (d) => !d.some((x) => x.code === c.rule));
        assert.deepStrictEqual(
          after.filter((d) => (d.severity ?? 1) <= DiagnosticSeverity.Warning),
          [],
          next,
        );
      } finally {
        await client.close(uri);
      }
    });
});
