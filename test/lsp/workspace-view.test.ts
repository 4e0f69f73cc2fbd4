/** `subagents/workspace` and `subagents/workspaceChanged`, over stdio with the real server. */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { URI } from 'vscode-uri';
import {
  WORKSPACE_CHANGED_NOTIFICATION,
  WORKSPACE_REQUEST,
  type WorkspaceChangedParams,
  type WorkspaceDefinition,
  type WorkspaceResult,
} from '../../shared/protocol';
import type { Resolution } from '../../shared/types';
import { buildOnce, makeWorkspace, TestClient, type ClientOptions } from './harness';

const helper = (description: string) =>
  `---\nname: helper\ndescription: ${description}\npolytoken:\n  tools: [file_read]\n---\nHelp.\n`;

const FILES: Record<string, string> = {
  '.subagents.yaml': 'polytoken:\n  subagentDirs: [vendor/agents]\nmcp:\n  github: [create_issue, list_issues]\n',
  '.polytoken/subagents/triage.md':
    '---\nname: triage\ndescription: Sorts incoming issues.\npolytoken:\n  tools:\n    - file_read\n    - grep\n    - mcp__github\n  tools_deny:\n    - grep\n---\nTriage.\n',
  // name-mismatch and undeniable-tool (errors), unknown-tool (warning)
  '.polytoken/subagents/reviewer.md':
    '---\nname: reviwer\ndescription: Reviews a change.\npolytoken:\n  tools: [file_read, file_raed, grep]\n  tools_deny: [job_status]\n---\nReview.\n',
  // The project's helper comes later in discovery than the subagentDirs one, which it replaces.
  '.polytoken/subagents/helper.md': helper('The project one.'),
  'vendor/agents/helper.md': helper('The vendored one.'),
  'experts/ledger.expert.json': JSON.stringify(
    {
      name: 'ledger',
      description: 'Keeps the books.',
      delegationBrief: 'Posts ledger entries.',
      tools: ['read', 'grep'],
      subagents: [
        { name: 'poster', description: 'Posts entries.', system_prompt: 'Post them.', tools: ['read', 'grep'] },
        { name: 'task', description: 'Reserved name.', system_prompt: 'Check.', tools: ['read'] },
      ],
    },
    null,
    2,
  ),
  'apps/cli/agents/planner.yaml':
    'name: planner\ninvocation: "@planner"\ndescription: Plans.\nwhen_to_use: At the start.\nmodel: big-model\ntools: [read_file, grep]\nmax_steps: 10\nmax_depth: 0\noutput_schema: { type: object }\nmemory: session\n',
  'notes/readme.md': '---\nname: not-a-definition\n---\n',
};

const uriOf = (ws: string, rel: string) => URI.file(path.join(ws, rel)).toString();

describe('subagents/workspace', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  let changes: WorkspaceChangedParams[];

  async function start(files: Record<string, string>, options: ClientOptions = {}): Promise<void> {
    buildOnce();
    ws = makeWorkspace(files);
    client = new TestClient(options);
    changes = client.record<WorkspaceChangedParams>(WORKSPACE_CHANGED_NOTIFICATION);
    await client.start([ws]);
  }
  const ask = (uris?: string[]) => client.request<WorkspaceResult>(WORKSPACE_REQUEST, uris ? { uris } : {});
  /**
   * Asks until the answer is complete: an incomplete answer subscribes, and the end of the pass is
   * notified. Then waits until the notifications go quiet, so that a late one about this pass is
   * not taken by the caller for one about what it changes next.
   */
  async function complete(): Promise<WorkspaceResult> {
    for (;;) {
      const since = changes.length;
      const result = await ask();
      if (result.complete) {
        for (let seen = -1; seen !== changes.length;) {
          seen = changes.length;
          await new Promise((r) => setTimeout(r, 400)); // several times the server's quiet period
        }
        return result;
      }
      await client.until(() => changes.length > since, 20000, 'a workspaceChanged notification');
    }
  }
  const find = (r: WorkspaceResult, rel: string, name: string): WorkspaceDefinition => {
    const d = r.definitions.find((x) => x.uri === uriOf(ws, rel) && x.name === name);
    assert.ok(d, `${rel} ${name} in ${JSON.stringify(r.definitions.map((x) => x.name))}`);
    return d;
  };
  /** Waits for a notification naming `uri` (sent after `since` notifications), then asks for that file. */
  async function changedFile(rel: string, since: number): Promise<WorkspaceDefinition[]> {
    const uri = uriOf(ws, rel);
    await client.until(
      () => changes.slice(since).some((c) => c.uris.includes(uri) || c.uris.length === 0),
      15000,
      `a workspaceChanged naming ${rel}`,
    );
    return (await ask([uri])).definitions;
  }

  afterEach(async () => client?.stop());

  it('answers complete: false before the index is built, then every definition with the runtime verdict', async () => {
    await start(FILES);
    // Sent right after `initialized`: the server is still waiting for its settings, so nothing is indexed.
    const early = await ask();
    assert.strictEqual(early.complete, false);
    // That answer subscribed: the end of the first pass is told with an empty list ("everything").
    await client.until(
      () => changes.some((c) => c.uris.length === 0),
      20000,
      'the notification that the first pass ended',
    );
    const r = await ask();
    assert.strictEqual(r.complete, true);
    assert.deepStrictEqual(r.definitions.map((d) => `${d.dialect} ${d.group} ${d.name} ${d.status}`).sort(), [
      `picasso apps/cli/agents planner loads`,
      `polytoken ${path.basename(ws)} helper loads`,
      `polytoken ${path.basename(ws)} reviwer rejected`,
      `polytoken ${path.basename(ws)} triage loads`,
      'polytoken vendor/agents helper shadowed',
      'profy ledger poster loads',
      'profy ledger task dropped',
    ]);

    const triage = find(r, '.polytoken/subagents/triage.md', 'triage');
    // file_read, the two github tools and exit_tool; grep is denied.
    assert.strictEqual(triage.tools, 4);
    assert.deepStrictEqual(triage.problems, { errors: 0, warnings: 0, information: 0, hints: 0 });
    assert.deepStrictEqual(triage.range, { start: { line: 1, character: 6 }, end: { line: 1, character: 12 } });
    assert.strictEqual(triage.index, 0);

    const reviewer = find(r, '.polytoken/subagents/reviewer.md', 'reviwer');
    assert.deepStrictEqual(reviewer.problems, { errors: 2, warnings: 1, information: 0, hints: 0 });
    assert.deepStrictEqual(reviewer.reasons, ['polytoken/name-mismatch', 'polytoken/undeniable-tool']);

    const vendored = find(r, 'vendor/agents/helper.md', 'helper');
    assert.strictEqual(vendored.shadowedBy, '.polytoken/subagents/helper.md');
    assert.deepStrictEqual(vendored.reasons, ['polytoken/shadowed']);
    assert.strictEqual(vendored.problems.information, 1);

    const task = find(r, 'experts/ledger.expert.json', 'task');
    assert.strictEqual(task.index, 1);
    assert.deepStrictEqual(task.reasons, ['profy/reserved-name']);
    // The name's range, on its own line of the Expert file.
    const lines = FILES['experts/ledger.expert.json'].split('\n');
    assert.strictEqual(
      lines[task.range.start.line].slice(task.range.start.character, task.range.end.character),
      '"task"',
    );
    assert.strictEqual(find(r, 'experts/ledger.expert.json', 'poster').tools, 2);
    assert.strictEqual(find(r, 'apps/cli/agents/planner.yaml', 'planner').tools, 2);
  });

  it('does no background work until a client asks: the first answer after indexing is still incomplete', async () => {
    await start(FILES);
    await client.indexed();
    // Time in which a pass over 7 small files would have ended many times over.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const first = await ask();
    assert.strictEqual(first.complete, false, 'nothing was summarized before the request');
    assert.strictEqual(first.definitions.length, 0);
    assert.strictEqual(changes.length, 0, 'nothing was told before the request');
    const r = await complete();
    assert.strictEqual(r.definitions.length, 7);
  });

  it('answers only the files asked for, and none for a file that is no definition', async () => {
    await start(FILES);
    await complete();
    const r = await ask([uriOf(ws, 'experts/ledger.expert.json'), uriOf(ws, 'notes/readme.md')]);
    assert.deepStrictEqual(
      r.definitions.map((d) => d.name),
      ['poster', 'task'],
    );
  });

  it('resolves a closed definition from disk, for the view to expand', async () => {
    await start(FILES);
    await complete();
    const resolution = await client.request<Resolution | null>('subagents/resolve', {
      uri: uriOf(ws, '.polytoken/subagents/triage.md'),
    });
    assert.ok(resolution);
    assert.deepStrictEqual(resolution.definitions[0].tools, [
      'exit_tool',
      'file_read',
      'mcp__github__create_issue',
      'mcp__github__list_issues',
    ]);
    assert.deepStrictEqual(resolution.definitions[0].removed, [{ tool: 'grep', by: 'tools_deny' }]);
    assert.strictEqual(await client.request('subagents/resolve', { uri: uriOf(ws, 'notes/readme.md') }), null);
  });

  it('tells the client when a file changes on disk, and re-checks the same-name definitions', async () => {
    await start(FILES);
    await complete();
    // Fixed on disk: the reviewer loads.
    let since = changes.length;
    fs.writeFileSync(
      path.join(ws, '.polytoken/subagents/reviewer.md'),
      '---\nname: reviewer\ndescription: Reviews.\npolytoken:\n  tools: [file_read]\n---\nReview.\n',
    );
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: uriOf(ws, '.polytoken/subagents/reviewer.md'), type: 2 }],
    });
    const [reviewer] = await changedFile('.polytoken/subagents/reviewer.md', since);
    assert.strictEqual(reviewer.status, 'loads');
    assert.strictEqual(reviewer.name, 'reviewer');

    // The project's helper is deleted: the vendored one is no longer shadowed, though its own file did not change.
    since = changes.length;
    fs.rmSync(path.join(ws, '.polytoken/subagents/helper.md'));
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: uriOf(ws, '.polytoken/subagents/helper.md'), type: 3 }],
    });
    const [vendored] = await changedFile('vendor/agents/helper.md', since);
    assert.strictEqual(vendored.status, 'loads');
    assert.deepStrictEqual(await changedFile('.polytoken/subagents/helper.md', since), []);
  });

  it('tells the client when an open document is edited, from its live text', async () => {
    await start(FILES);
    await complete();
    const rel = '.polytoken/subagents/triage.md';
    const uri = await client.open(path.join(ws, rel), FILES[rel]);
    await client.diagnosticsFor(uri);
    const since = changes.length;
    // Not saved: `exit_tool` listed in `tools` is an error, and the runtime rejects the definition.
    await client.change(uri, FILES[rel].replace('    - grep\n', '    - grep\n    - exit_tool\n'));
    await client.diagnosticsFor(uri, (d) => d.some((x) => x.code === 'polytoken/exit-tool-listed'));
    const [triage] = await changedFile(rel, since);
    assert.strictEqual(triage.status, 'rejected');
    assert.strictEqual(triage.problems.errors, 1);
    assert.ok(triage.reasons?.includes('polytoken/exit-tool-listed'));

    // Renamed in the editor: the vendored helper's shadowing follows the open document's name.
    const helperUri = await client.open(
      path.join(ws, '.polytoken/subagents/helper.md'),
      FILES['.polytoken/subagents/helper.md'],
    );
    await client.diagnosticsFor(helperUri);
    const before = changes.length;
    await client.change(helperUri, FILES['.polytoken/subagents/helper.md'].replace('name: helper', 'name: helper2'));
    const [vendored] = await changedFile('vendor/agents/helper.md', before);
    assert.strictEqual(vendored.status, 'loads');
  });

  it('drops the row of an open definition deleted on disk (the tab stays), and shows it again when saved back', async () => {
    await start(FILES);
    await complete();
    const rel = '.polytoken/subagents/triage.md';
    const file = path.join(ws, rel);
    const uri = await client.open(file, FILES[rel]);
    await client.diagnosticsFor(uri);
    const rows = async () => (await ask()).definitions.filter((d) => d.uri === uri).map((d) => d.name);
    assert.deepStrictEqual(await rows(), ['triage']);
    const watched = (type: number, target = uri) =>
      client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: target, type }] });

    let since = changes.length;
    fs.rmSync(file);
    await watched(3);
    assert.deepStrictEqual(await changedFile(rel, since), [], 'the runtime no longer reads it');
    // Edits in the tab do not bring it back: there is still no file.
    await client.change(uri, FILES[rel].replace('Sorts incoming issues.', 'Sorts issues.'));
    await client.diagnosticsFor(uri);
    await new Promise((r) => setTimeout(r, 700)); // past the view's quiet periods
    assert.deepStrictEqual(await rows(), []);

    // Saved from the tab: the file is back, and so is its row.
    since = changes.length;
    fs.writeFileSync(file, FILES[rel].replace('Sorts incoming issues.', 'Sorts issues.'));
    await watched(1);
    assert.deepStrictEqual(
      (await changedFile(rel, since)).map((d) => d.name),
      ['triage'],
    );

    // One batch: the last event of the file decides (saved after deleted keeps the row, deleted after saved drops it).
    const batch = (...types: number[]) =>
      client.connection.sendNotification('workspace/didChangeWatchedFiles', {
        changes: types.map((type) => ({ uri, type })),
      });
    await batch(3, 1);
    await new Promise((r) => setTimeout(r, 700));
    assert.deepStrictEqual(await rows(), ['triage'], 'deleted, then saved back in the same batch');
    await watched(2, uriOf(ws, 'notes/readme.md')); // a batch without it: neither deleted nor saved
    await new Promise((r) => setTimeout(r, 700));
    assert.deepStrictEqual(await rows(), ['triage'], 'a batch about another file');
    since = changes.length;
    fs.rmSync(file);
    await batch(1, 3);
    assert.deepStrictEqual(await changedFile(rel, since), [], 'saved, then deleted in the same batch');
    since = changes.length;
    fs.writeFileSync(file, FILES[rel]);
    await watched(1);
    assert.deepStrictEqual(
      (await changedFile(rel, since)).map((d) => d.name),
      ['triage'],
    );

    // Its folder deleted (VS Code reports the folder alone): the row goes too.
    since = changes.length;
    fs.rmSync(path.join(ws, '.polytoken/subagents'), { recursive: true });
    await watched(3, uriOf(ws, '.polytoken/subagents'));
    assert.deepStrictEqual(await changedFile(rel, since), []);
  });

  it('takes the status from the default severities: rules: turning errors off changes the counts, not the status', async () => {
    const config =
      FILES['.subagents.yaml'] +
      'rules:\n  polytoken/name-mismatch: off\n  polytoken/undeniable-tool: warning\n  polytoken/shadowed: off\n  profy/reserved-name: off\n';
    await start({ ...FILES, '.subagents.yaml': config });
    const r = await complete();
    const reviewer = find(r, '.polytoken/subagents/reviewer.md', 'reviwer');
    assert.strictEqual(reviewer.status, 'rejected');
    assert.deepStrictEqual(reviewer.problems, { errors: 0, warnings: 2, information: 0, hints: 0 });
    assert.deepStrictEqual(reviewer.silenced, ['polytoken/name-mismatch', 'polytoken/undeniable-tool']);
    const vendored = find(r, 'vendor/agents/helper.md', 'helper');
    assert.strictEqual(vendored.status, 'shadowed');
    assert.strictEqual(vendored.problems.information, 0);
    const task = find(r, 'experts/ledger.expert.json', 'task');
    assert.strictEqual(task.status, 'dropped');
    assert.strictEqual(task.problems.errors, 0);
  });

  it('a rebuilt index drops the rows of definitions it no longer finds, also those no event told of', async () => {
    await start(FILES);
    find(await complete(), 'apps/cli/agents/planner.yaml', 'planner');
    fs.rmSync(path.join(ws, 'apps/cli/agents/planner.yaml')); // no watched-files event for it
    // A discovery change rebuilds the index.
    fs.writeFileSync(path.join(ws, '.subagents.yaml'), 'polytoken:\n  subagentDirs: [vendor/none]\n');
    const since = changes.length;
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', {
      changes: [{ uri: uriOf(ws, '.subagents.yaml'), type: 2 }],
    });
    await client.until(() => changes.length > since, 15000, 'a workspaceChanged notification');
    const after = await complete();
    assert.deepStrictEqual(
      after.definitions.map((d) => `${path.relative(ws, URI.parse(d.uri).fsPath)} ${d.name}`).sort(),
      [
        '.polytoken/subagents/helper.md helper',
        '.polytoken/subagents/reviewer.md reviwer',
        '.polytoken/subagents/triage.md triage',
        'experts/ledger.expert.json poster',
        'experts/ledger.expert.json task',
      ],
    );
  });

  it('re-summarizes everything when the editor settings change, and says so', async () => {
    await start(FILES);
    const before = find(await complete(), '.polytoken/subagents/reviewer.md', 'reviwer');
    assert.strictEqual(before.problems.errors, 2);
    const since = changes.length;
    client.settings = { rules: { 'polytoken/name-mismatch': 'hint' } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    await client.until(
      () => changes.slice(since).some((c) => c.uris.length === 0),
      15000,
      'the notification that everything may have changed',
    );
    const after = await ask();
    assert.strictEqual(after.complete, true);
    const reviewer = find(after, '.polytoken/subagents/reviewer.md', 'reviwer');
    assert.strictEqual(reviewer.status, 'rejected');
    assert.deepStrictEqual(reviewer.problems, { errors: 1, warnings: 1, information: 0, hints: 1 });
  });

  it('re-summarizes everything after an unsaved .subagents.yaml edit that changes no discovery (no index rebuild), and completes', async () => {
    await start(FILES);
    const before = find(await complete(), '.polytoken/subagents/reviewer.md', 'reviwer');
    assert.strictEqual(before.problems.errors, 2);
    const since = changes.length;
    await client.open(
      path.join(ws, '.subagents.yaml'),
      FILES['.subagents.yaml'] + 'rules:\n  polytoken/name-mismatch: hint\n',
    );
    await client.until(
      () => changes.slice(since).some((c) => c.uris.length === 0),
      15000,
      'the notification that everything may have changed',
    );
    const after = await ask();
    assert.strictEqual(after.complete, true, 'the pass ends without waiting for an index rebuild');
    assert.deepStrictEqual(find(after, '.polytoken/subagents/reviewer.md', 'reviwer').problems, {
      errors: 1,
      warnings: 1,
      information: 0,
      hints: 1,
    });
  });
});
