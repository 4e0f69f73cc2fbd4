/**
 * One analysis per closed file serves both its readers, the Subagents view's summary and the
 * Problems report (server/closed-files.ts), counted by the log line each finished pass writes.
 * Before they shared, a workspace of N definitions and one `.subagents.yaml` cost 2N + 1
 * analyses at start-up with the view open, and again after every settings change.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { WORKSPACE_REQUEST, type WorkspaceResult } from '../../shared/protocol';
import { buildOnce, makeWorkspace, TestClient } from './harness';

const DEFINITIONS = 12;
const FILES: Record<string, string> = { '.subagents.yaml': 'mcp:\n  github: [create_issue]\n' };
for (let i = 0; i < DEFINITIONS; i++)
  FILES[`.polytoken/subagents/agent${i}.md`] =
    `---\nname: agent${i}\ndescription: Agent ${i}.\npolytoken:\n  tools: [file_read, grep]\n---\nWork.\n`;

const COUNTS = /closed files analysed: (\d+) \((\d+) more reads served/;

describe('closed files: one analysis for the view and Problems', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;

  afterEach(async () => {
    await client?.stop();
    if (ws) fs.rmSync(ws, { recursive: true, force: true });
  });

  /** The latest counts logged, once `done` holds for them. */
  function counts(done: (c: { analysed: number; shared: number }) => boolean, what: string) {
    return client.until(
      () => {
        for (let i = client.logs.length - 1; i >= 0; i--) {
          const m = COUNTS.exec(client.logs[i]);
          if (m) {
            const c = { analysed: Number(m[1]), shared: Number(m[2]) };
            return done(c) && c;
          }
        }
        return undefined;
      },
      20000,
      what,
    );
  }

  it('analyses each closed file once at start-up and after a settings change, though both read it', async () => {
    buildOnce();
    ws = makeWorkspace(FILES);
    client = new TestClient();
    await client.start([ws]);
    // The view asks at once, as an open Subagents view does: both passes run side by side.
    await client.request<WorkspaceResult>(WORKSPACE_REQUEST, {});
    const reads = 2 * DEFINITIONS + 1; // the view reads the definitions; Problems them and the configuration
    const start = await counts((c) => c.analysed + c.shared >= reads, 'both start-up passes');
    assert.deepStrictEqual(start, { analysed: DEFINITIONS + 1, shared: DEFINITIONS });

    // Both read everything again after a settings change: still one analysis per file.
    client.settings = { rules: { 'polytoken/unknown-tool': 'hint' } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: null });
    const after = await counts((c) => c.analysed + c.shared >= 2 * reads, 'both passes after the settings change');
    assert.deepStrictEqual(after, { analysed: 2 * (DEFINITIONS + 1), shared: 2 * DEFINITIONS });

    // An open file changed on disk: both queues drain without an analysis, and the same counts are not logged again.
    const open = await client.open(`${ws}/.polytoken/subagents/agent0.md`, FILES['.polytoken/subagents/agent0.md']);
    await client.diagnosticsFor(open);
    await client.connection.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: open, type: 2 }] });
    await new Promise((r) => setTimeout(r, 500));
    const logged = client.logs.filter((l) => COUNTS.test(l));
    assert.deepStrictEqual([...new Set(logged)], logged);
  });
});
