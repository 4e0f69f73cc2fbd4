/**
 * A virtual workspace folder beside one on the disk (server/workspace-index.ts with
 * server/mirror.ts): the server lists and reads the virtual folder through the client's file
 * system requests, and the disk folder itself.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import { URI } from 'vscode-uri';
import type { WorkspaceSymbol } from 'vscode-languageserver-types';
import { answerFileSystem, type FsRequests } from '../support/client-fs';
import { buildOnce, DEFAULT_CAPABILITIES, makeWorkspace, TestClient } from './harness';

const definition = (name: string) => `---\nname: ${name}\ndescription: d\n---\nBody.\n`;
/** The virtual file system's root (a scheme of this test only) and its files. */
const ROOT = 'testvirtualws:';
const VIRTUAL: Record<string, string> = {
  'vws/.subagents.yaml': 'rules:\n  polytoken/name-mismatch: warning\n',
  'vws/.polytoken/subagents/virtual.md': definition('virtual'),
};

describe('a virtual workspace folder beside a disk folder', function () {
  this.timeout(60000);
  let client: TestClient;
  let disk: string;
  const fsRequests: FsRequests = { requests: {}, asked: {} };
  before(async () => {
    buildOnce();
    disk = makeWorkspace({ '.polytoken/subagents/ondisk.md': definition('ondisk') });
    client = new TestClient({ initializationOptions: { fileSystem: true } });
    answerFileSystem(client.connection, ROOT, VIRTUAL, fsRequests);
    client.initializeResult = await client.request('initialize', {
      processId: null,
      rootUri: null,
      workspaceFolders: [
        { uri: URI.file(disk).toString(), name: 'disk' },
        { uri: `${ROOT}/vws`, name: 'virtual' },
      ],
      initializationOptions: { fileSystem: true },
      capabilities: DEFAULT_CAPABILITIES,
    });
    await client.connection.sendNotification('initialized', {});
    await client.indexed();
  });
  after(async () => {
    await client.stop();
    fs.rmSync(disk, { recursive: true, force: true });
  });

  it('indexes the definitions of both folders', async () => {
    const symbols = await client.request<WorkspaceSymbol[]>('workspace/symbol', { query: '' });
    assert.deepStrictEqual(symbols.map((s) => [s.name, s.location.uri]).sort(), [
      ['ondisk', URI.file(`${disk}/.polytoken/subagents/ondisk.md`).toString()],
      ['virtual', `${ROOT}/vws/.polytoken/subagents/virtual.md`],
    ]);
  });

  it('asks the client only about the virtual folder: its folders listed, then its configuration and definition read', () => {
    assert.deepStrictEqual(fsRequests.asked, {
      'subagents/readDirectory': [`${ROOT}/vws`, `${ROOT}/vws/.polytoken`, `${ROOT}/vws/.polytoken/subagents`],
      'subagents/readFile': [`${ROOT}/vws/.subagents.yaml`, `${ROOT}/vws/.polytoken/subagents/virtual.md`],
    });
  });
});

describe('a virtual workspace folder whose configuration names more folders of definitions', function () {
  this.timeout(60000);
  let client: TestClient;
  const files: Record<string, string> = {
    'vws/.subagents.yaml': 'polytoken:\n  subagentDirs: [vendor/agents, ../shared-agents]\n',
    'vws/.polytoken/subagents/own.md': definition('own'),
    'vws/vendor/agents/inside.md': definition('inside'),
    'shared-agents/outside.md': definition('outside'),
    'shared-agents/notes.txt': 'not a definition',
    // A configuration below the folder, for the definitions below it.
    'vws/team/.subagents.yaml': 'polytoken:\n  subagentDirs: [../../team-agents]\n',
    'vws/team/.polytoken/subagents/member.md': definition('member'),
    'team-agents/helper.md': definition('helper'),
  };
  const fsRequests: FsRequests = { requests: {}, asked: {} };
  before(async () => {
    buildOnce();
    client = new TestClient({ initializationOptions: { fileSystem: true } });
    answerFileSystem(client.connection, ROOT, files, fsRequests);
    client.initializeResult = await client.request('initialize', {
      processId: null,
      rootUri: null,
      workspaceFolders: [{ uri: `${ROOT}/vws`, name: 'virtual' }],
      initializationOptions: { fileSystem: true },
      capabilities: DEFAULT_CAPABILITIES,
    });
    await client.connection.sendNotification('initialized', {});
    await client.indexed();
  });
  after(() => client.stop());

  it('indexes the definitions of those folders, inside the workspace folder and beside it', async () => {
    const symbols = await client.request<WorkspaceSymbol[]>('workspace/symbol', { query: '' });
    assert.deepStrictEqual(symbols.map((s) => [s.name, s.location.uri]).sort(), [
      ['helper', `${ROOT}/team-agents/helper.md`],
      ['inside', `${ROOT}/vws/vendor/agents/inside.md`],
      ['member', `${ROOT}/vws/team/.polytoken/subagents/member.md`],
      ['outside', `${ROOT}/shared-agents/outside.md`],
      ['own', `${ROOT}/vws/.polytoken/subagents/own.md`],
    ]);
    assert.ok(
      !fsRequests.asked['subagents/readFile'].includes(`${ROOT}/shared-agents/notes.txt`),
      'only definitions are read',
    );
  });
});
