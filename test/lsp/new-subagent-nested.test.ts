/**
 * `subagents/newSubagent` into an existing file, for a runtime whose files hold several
 * definitions (a Profy Expert's subagents), over stdio with the real server: the folder's Experts
 * listed, the edits that add the subagent (the same insertion `subagents new --expert` writes),
 * the new description selected, and a subagent the Expert would not load refused.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { URI } from 'vscode-uri';
import { NEW_SUBAGENT_REQUEST, type NewSubagentParams, type NewSubagentResult } from '../../shared/protocol';
import { nestedDefinitionEdits } from '../../shared';
import { applyEdits, startServer, type TestClient } from './harness';

const LEDGER = JSON.stringify(
  {
    name: 'ledger',
    description: 'Keeps the books.',
    delegationBrief: 'Posts ledger entries.',
    tools: ['read', 'grep'],
    subagents: [{ name: 'poster', description: 'Posts entries.', system_prompt: 'Post them.', tools: ['read'] }],
  },
  null,
  2,
);

describe('subagents/newSubagent into an existing file', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  before(async () => {
    ({ client, ws } = await startServer({
      'experts/ledger.expert.json': LEDGER,
      'experts/billing/empty.expert.json': '{\r\n  "name": "empty",\r\n  "description": "No subagents yet."\r\n}\r\n',
      '.polytoken/subagents/helper.md': '---\nname: helper\ndescription: Helps.\n---\nx\n',
    }));
    await client.indexed();
  });
  after(async () => client.stop());

  const ask = (params: NewSubagentParams) => client.request<NewSubagentResult>(NEW_SUBAGENT_REQUEST, params);
  const folderUri = () => URI.file(ws).toString();
  const uriOf = (rel: string) => URI.file(path.join(ws, rel)).toString();

  it('says which runtimes hold several definitions per file, and lists their files in the folder', async () => {
    const { runtimes } = await ask({});
    assert.deepStrictEqual(
      runtimes.filter((r) => r.nested).map((r) => [r.id, r.nested]),
      [['profy', 'subagent']],
    );
    const { containers } = await ask({ runtime: 'profy', folderUri: folderUri() });
    assert.deepStrictEqual(containers, [
      { uri: uriOf('experts/billing/empty.expert.json'), label: 'experts/billing/empty.expert.json' },
      { uri: uriOf('experts/ledger.expert.json'), label: 'experts/ledger.expert.json' },
    ]);
    // One definition per file: nothing to add to.
    assert.deepStrictEqual((await ask({ runtime: 'polytoken', folderUri: folderUri() })).containers, []);
  });

  it('adds a subagent to an Expert as edits that keep it clean, with the new description selected', async () => {
    const rel = 'experts/ledger.expert.json';
    const { edit, problem } = await ask({
      runtime: 'profy',
      name: 'auditor',
      folderUri: folderUri(),
      containerUri: uriOf(rel),
    });
    assert.strictEqual(problem, undefined);
    assert.ok(edit);
    assert.strictEqual(edit.uri, uriOf(rel));
    const after = applyEdits(LEDGER, edit.edits);
    // The same text the CLI writes (one insertion for both).
    const cli = nestedDefinitionEdits('profy', LEDGER, 'auditor');
    assert.ok(cli.ok);
    assert.strictEqual(after, cli.after);
    const expert = JSON.parse(after) as { subagents: { name: string }[] };
    assert.deepStrictEqual(
      expert.subagents.map((s) => s.name),
      ['poster', 'auditor'],
    );
    const selected = applyEdits(after, [{ range: edit.selection, newText: '<here>' }]);
    const auditorAt = selected.indexOf('"auditor"');
    assert.ok(auditorAt > 0 && selected.indexOf('"description": "<here>') > auditorAt, selected);
    // Saved and opened: no error or warning.
    const file = path.join(ws, rel);
    fs.writeFileSync(file, after);
    const uri = await client.open(file, after);
    const diagnostics = await client.diagnosticsFor(uri);
    assert.deepStrictEqual(
      diagnostics.filter((d) => (d.severity ?? 1) <= 2),
      [],
      JSON.stringify(diagnostics),
    );

    // From the open document's text (unsaved edits included): a second one goes after it.
    const edited = after.replace('Keeps the books.', 'Keeps the books well.');
    await client.change(uri, edited);
    const second = await ask({ runtime: 'profy', name: 'closer', folderUri: folderUri(), containerUri: uri });
    assert.ok(second.edit, second.problem);
    assert.match(applyEdits(edited, second.edit.edits), /well\.[\s\S]*"auditor"[\s\S]*"closer"/);
    await client.close(uri);
    fs.writeFileSync(file, LEDGER);
  });

  it('makes the list in an Expert without one, in its line endings', async () => {
    const rel = 'experts/billing/empty.expert.json';
    const text = fs.readFileSync(path.join(ws, rel), 'utf8');
    const { edit, problem } = await ask({
      runtime: 'profy',
      name: 'biller',
      folderUri: folderUri(),
      containerUri: uriOf(rel),
    });
    assert.ok(edit, problem);
    const after = applyEdits(text, edit.edits);
    assert.deepStrictEqual(
      (JSON.parse(after) as { subagents: { name: string }[] }).subagents.map((s) => s.name),
      ['biller'],
    );
    assert.ok(!/[^\r]\n/.test(after), 'CRLF kept');
  });

  it('refuses a subagent the Expert would not load, and a file that is no Expert', async () => {
    const problemOf = async (name: string, rel: string) =>
      (await ask({ runtime: 'profy', name, folderUri: folderUri(), containerUri: uriOf(rel) })).problem;
    // A second `poster`: a problem the Expert did not have.
    assert.match((await problemOf('poster', 'experts/ledger.expert.json')) ?? '', /Not added to ledger\.expert\.json/);
    assert.match((await problemOf('auditor', '.polytoken/subagents/helper.md')) ?? '', /not a Profy Expert file/);
    assert.match((await problemOf('auditor', 'experts/missing.expert.json')) ?? '', /not a Profy Expert file/);
  });
});
