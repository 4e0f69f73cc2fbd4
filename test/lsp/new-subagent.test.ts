/** `subagents/newSubagent`: the New Subagent… command's file, over stdio with the real server. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { URI } from 'vscode-uri';
import { NEW_SUBAGENT_REQUEST, type NewSubagentParams, type NewSubagentResult } from '../../shared/protocol';
import { DIALECTS } from '../../shared';
import { applyEdits, startServer, type TestClient } from './harness';

describe('subagents/newSubagent', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  before(async () => {
    ({ client, ws } = await startServer({
      '.polytoken/subagents/taken.md': '---\nname: taken\ndescription: Here first.\n---\nx\n',
    }));
    await client.indexed();
  });
  after(async () => client.stop());

  const ask = (params: NewSubagentParams) => client.request<NewSubagentResult>(NEW_SUBAGENT_REQUEST, params);
  const folderUri = () => URI.file(ws).toString();

  it('lists every runtime with what its definitions are called', async () => {
    const { runtimes, file, problem } = await ask({});
    assert.deepStrictEqual(runtimes.map((r) => r.id).sort(), [...DIALECTS].sort());
    assert.ok(runtimes.every((r) => r.title && r.definition));
    assert.strictEqual(file ?? problem, undefined);
  });

  for (const runtime of DIALECTS)
    it(`${runtime}: a file that passes every rule, with the description selected`, async () => {
      const { file, problem } = await ask({ runtime, name: 'helper', folderUri: folderUri() });
      assert.strictEqual(problem, undefined);
      assert.ok(file);
      const target = URI.parse(file.uri).fsPath;
      assert.ok(target.startsWith(ws + path.sep), target);
      // Written as the client would, then opened: no error or warning (hints may remain).
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, file.text);
      const uri = await client.open(target, file.text);
      const diagnostics = await client.diagnosticsFor(uri);
      assert.deepStrictEqual(
        diagnostics.filter((d) => (d.severity ?? 1) <= 2),
        [],
        JSON.stringify(diagnostics),
      );
      const selected = applyEdits(file.text, [{ range: file.selection, newText: '<here>' }]);
      assert.match(selected, /description"?: "?<here>/);
      await client.close(uri);
      fs.rmSync(target);
    });

  it('refuses a name the runtime would not load, one taken, one that is no file name, and an empty one', async () => {
    const problemOf = async (runtime: string, name: string) =>
      (await ask({ runtime, name, folderUri: folderUri() })).problem;
    assert.match((await problemOf('polytoken', 'taken')) ?? '', /exists already/);
    assert.match((await problemOf('polytoken', '../escape')) ?? '', /file name/);
    // Each half of the file-name check alone: a separator without a leading dot, a leading dot alone.
    const fileName = 'A name is a file name: no `/`, `\\`, `:` or leading `.`.';
    assert.strictEqual(await problemOf('polytoken', 'a/b'), fileName);
    assert.strictEqual(await problemOf('polytoken', '.hidden'), fileName);
    assert.match((await problemOf('polytoken', '')) ?? '', /name/);
    assert.match((await problemOf('picasso', 'NotSnake')) ?? '', /picasso\//);
    assert.match((await problemOf('nope', 'x')) ?? '', /No runtime/);
  });
});
