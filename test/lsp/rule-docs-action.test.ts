/** *Show documentation for rule X* in the quick fix menu, for a client that implements the command. */
import * as assert from 'assert';
import * as path from 'path';
import type { CodeAction } from 'vscode-languageserver-types';
import { SHOW_RULE_DOCS_COMMAND } from '../../shared/protocol';
import { ruleDocsUrl } from '../../shared';
import { startServer, type TestClient } from './harness';

const TEXT = '---\nname: triage\ndescription: Sorts.\npolytoken:\n  tools: [file_raed, grpe]\n---\nSort.\n';

describe('Show documentation for rule', function () {
  this.timeout(60000);
  let client: TestClient | undefined;
  afterEach(async () => client?.stop());

  async function actionsFor(clientCommands: string[] | undefined): Promise<CodeAction[]> {
    let ws: string;
    ({ client, ws } = await startServer({}, { initializationOptions: { clientCommands } }));
    const uri = await client.open(path.join(ws, '.polytoken/subagents/triage.md'), TEXT);
    const diagnostics = await client.diagnosticsFor(uri, (d) => d.length === 2);
    return client.request<CodeAction[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 7, character: 0 } },
      context: { diagnostics },
    });
  }

  it('is offered once per rule, after the fixes, with the command and the page', async () => {
    const actions = await actionsFor([SHOW_RULE_DOCS_COMMAND]);
    const docs = actions.filter((a) => a.command?.command === SHOW_RULE_DOCS_COMMAND);
    assert.deepStrictEqual(
      docs.map((a) => [a.title, a.command?.arguments, a.diagnostics?.length]),
      [['Show documentation for polytoken/unknown-tool', [ruleDocsUrl('polytoken/unknown-tool')], 2]],
    );
    assert.ok(actions.indexOf(docs[0]) > 0 && !docs[0].edit, 'last, and no edit');
  });

  it('is not offered to a client without the command', async () => {
    const actions = await actionsFor(undefined);
    assert.ok(actions.length > 0);
    assert.ok(!actions.some((a) => a.command || /documentation/.test(a.title)));
  });
});
