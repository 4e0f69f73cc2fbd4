import * as assert from 'assert';
import * as path from 'path';
import type { Range, TextDocumentEdit, WorkspaceEdit } from 'vscode-languageserver-types';
import { URI } from 'vscode-uri';
import { applyEdits, cursor, DEFAULT_CAPABILITIES, editsFor, startServer, type TestClient } from './harness';

const CONFIG = `polytoken:
  globalDir: global
  subagentDirs: [vendor]
profy:
  builtinSubagents: [general]
`;

const poly = (name: string) =>
  `---\nname: ${name}\ndescription: Sorts issues.\npolytoken:\n  tools: [grep]\n---\nBody.\n`;
const role = (name: string) =>
  `---\nname: ${name}\ninvocation: "@${name}"\ndescription: Plans.\nmodel: m\ntools: [read_file]\nmax_steps: 1\nmax_depth: 0\n---\n`;
const EXPERT = `{
  "name": "ledger",
  "description": "Keeps the books.",
  "tools": ["read"],
  "subagents": [
    { "name": "poster", "description": "d", "system_prompt": "p", "tools": ["read"] },
    { "name": "checker", "description": "d", "system_prompt": "p", "tools": ["read"] }
  ]
}
`;

const FILES = {
  '.subagents.yaml': CONFIG,
  '.polytoken/subagents/triage.md': poly('triage'),
  '.polytoken/subagents/taken.md': poly('taken'),
  'global/sorter.md': poly('sorter'),
  'vendor/helper.md': poly('helper'),
  '.polytoken/subagents/keeper.md': poly('keeper'),
  '.picasso/agents/planner.md': role('planner'),
  'apps/cli/agents/auditor.yaml': role('auditor').replace(/^---\n|---\n$/g, ''),
  'experts/ledger.expert.json': EXPERT,
};

const RENAME_CAPS = {
  ...DEFAULT_CAPABILITIES,
  textDocument: { ...DEFAULT_CAPABILITIES.textDocument, rename: { prepareSupport: true } },
};

interface ShownMessage {
  type: number;
  message: string;
}

/** One server per client kind; files are opened from the workspace as they are on disk. */
function renameSuite(
  title: string,
  capabilities: unknown,
  body: (ctx: { client: () => TestClient; ws: () => string; messages: ShownMessage[] }) => void,
) {
  describe(title, function () {
    this.timeout(60000);
    let client: TestClient;
    let ws: string;
    const messages: ShownMessage[] = [];
    before(async () => {
      ({ client, ws } = await startServer(FILES, { capabilities }));
      client.connection.onNotification('window/showMessage', (m: ShownMessage) => void messages.push(m));
      await client.indexed();
    });
    after(async () => client.stop());
    body({ client: () => client, ws: () => ws, messages });
  });
}

/** Opens `rel` with `marked` (a `|` at the cursor), asks for the rename and returns the answer or the error. */
async function rename(client: TestClient, ws: string, rel: string, marked: string, newName: string) {
  const { text, position } = cursor(marked);
  const file = path.join(ws, rel);
  const uri = await client.open(file, text);
  try {
    const edit = await client.request<WorkspaceEdit | null>('textDocument/rename', {
      textDocument: { uri },
      position,
      newName,
    });
    return { edit: edit!, text, uri, error: undefined as { code: number; message: string } | undefined };
  } catch (error) {
    return {
      edit: undefined as unknown as WorkspaceEdit,
      text,
      uri,
      error: error as { code: number; message: string },
    };
  } finally {
    await client.close(uri);
  }
}

async function prepare(client: TestClient, ws: string, rel: string, marked: string) {
  const { text, position } = cursor(marked);
  const uri = await client.open(path.join(ws, rel), text);
  try {
    return {
      result: await client.request<{ range: Range; placeholder: string } | null>('textDocument/prepareRename', {
        textDocument: { uri },
        position,
      }),
      text,
    };
  } catch (error) {
    return { error: error as { code: number; message: string }, text };
  } finally {
    await client.close(uri);
  }
}

const renameOp = (edit: WorkspaceEdit) =>
  (edit.documentChanges ?? []).filter(
    (c): c is { kind: 'rename'; oldUri: string; newUri: string } => 'kind' in c && c.kind === 'rename',
  );
const slice = (text: string, r: Range) => text.split('\n')[r.start.line].slice(r.start.character, r.end.character);
const at = (marked: string, needle: string): string =>
  marked.replace(needle, needle.slice(0, 2) + '|' + needle.slice(2));
const REQUEST_FAILED = -32803;

renameSuite(
  'LSP rename (client with resource operations and prepareRename)',
  RENAME_CAPS,
  ({ client, ws, messages }) => {
    it('announces rename with prepare', () => {
      assert.deepStrictEqual(client().initializeResult!.capabilities.renameProvider, { prepareProvider: true });
    });

    it('prepareRename: the name without its quotes, and the current name', async () => {
      const text = poly('"triage"');
      const { result } = await prepare(client(), ws(), '.polytoken/subagents/triage.md', at(text, 'triage"'));
      assert.strictEqual(slice(text, result!.range), 'triage');
      assert.strictEqual(result!.placeholder, 'triage');
      const r = await prepare(client(), ws(), '.picasso/agents/planner.md', at(role('planner'), '@planner'));
      assert.strictEqual(slice(role('planner'), r.result!.range), '@planner', 'F2 on the invocation renames the role');
      assert.strictEqual(r.result!.placeholder, 'planner');
    });

    it('prepareRename refuses where a rename makes no sense', async () => {
      for (const [rel, marked, why] of [
        ['.polytoken/subagents/triage.md', at(poly('triage'), 'description'), /`name`/],
        ['.polytoken/subagents/triage.md', at(poly('triage'), 'grep'), /`name`/],
        ['.picasso/agents/planner.md', at(role('planner'), 'model'), /`name`/],
        ['experts/ledger.expert.json', at(EXPERT, 'ledger"'), /Expert is not renamed/],
        ['experts/ledger.expert.json', at(EXPERT, 'system_prompt'), /subagent’s `name`/],
      ] as const) {
        const { error, result } = await prepare(client(), ws(), rel, marked);
        assert.ok(error, `${rel}: refused, not ${JSON.stringify(result)}`);
        assert.strictEqual(error.code, REQUEST_FAILED);
        assert.match(error.message, why);
      }
      // Not a definition at all: nothing to rename, and no error either.
      const { result, error } = await prepare(client(), ws(), 'docs/notes.md', 'na|me: x\n');
      assert.strictEqual(error, undefined);
      assert.strictEqual(result, null);
    });

    it('Polytoken: `name` and the file, in one edit with a RenameFile', async () => {
      const { edit, text, uri } = await rename(
        client(),
        ws(),
        '.polytoken/subagents/triage.md',
        at(poly('triage'), 'triage'),
        'sorter-two',
      );
      const changes = edit.documentChanges!;
      const docEdit = changes[0] as TextDocumentEdit;
      assert.deepStrictEqual(docEdit.textDocument, { uri, version: 1 });
      assert.match(applyEdits(text, docEdit.edits as never), /^name: sorter-two$/m);
      assert.deepStrictEqual(renameOp(edit), [
        {
          kind: 'rename',
          oldUri: uri,
          newUri: URI.file(path.join(ws(), '.polytoken/subagents/sorter-two.md')).toString(),
        },
      ]);
    });

    it('Polytoken: the definitions of the new name it replaces, or that replace it, are named in a message, not renamed', async () => {
      messages.length = 0;
      const { edit } = await rename(
        client(),
        ws(),
        '.polytoken/subagents/triage.md',
        at(poly('triage'), 'triage'),
        'sorter',
      );
      assert.strictEqual(edit.documentChanges!.length, 2, 'this file only');
      await client().until(() => messages.length > 0, 8000, 'a message');
      assert.match(
        messages[0].message,
        /replaces an earlier one of that name: global\/sorter\.md\. It was not renamed\./,
      );

      messages.length = 0;
      const vendor = await rename(client(), ws(), 'vendor/helper.md', at(poly('helper'), 'helper'), 'keeper');
      assert.ok(renameOp(vendor.edit)[0].newUri.endsWith('/vendor/keeper.md'));
      await client().until(() => messages.length > 0, 8000, 'a message');
      assert.match(
        messages[0].message,
        /comes later in discovery order and replaces this one: \.polytoken\/subagents\/keeper\.md/,
      );
      assert.strictEqual(messages[0].type, 2);
    });

    it('Polytoken: refuses a name a file cannot hold, or one taken in the same folder', async () => {
      for (const [newName, why] of [
        ['a/b', /`a\/b` holds `\/`, which a file name cannot hold/],
        ['what?', /holds `\?`/],
        ['', /is empty/],
        ['taken', /taken\.md already exists in this folder/],
      ] as const) {
        const { error } = await rename(
          client(),
          ws(),
          '.polytoken/subagents/triage.md',
          at(poly('triage'), 'triage'),
          newName,
        );
        assert.ok(error, `${newName} refused`);
        assert.strictEqual(error.code, REQUEST_FAILED);
        assert.match(error.message, why);
      }
    });

    it('Picasso: `name`, `invocation` and the file, the same plan as the name fixes', async () => {
      const text = role('planner');
      const { edit, uri } = await rename(
        client(),
        ws(),
        '.picasso/agents/planner.md',
        at(text, 'planner'),
        'work_planner',
      );
      const after = applyEdits(text, (edit.documentChanges![0] as TextDocumentEdit).edits as never);
      assert.match(after, /^name: work_planner$/m);
      assert.match(after, /^invocation: "@work_planner"$/m);
      assert.deepStrictEqual(renameOp(edit), [
        {
          kind: 'rename',
          oldUri: uri,
          newUri: URI.file(path.join(ws(), '.picasso/agents/work_planner.md')).toString(),
        },
      ]);
      // From the invocation, answered with the handle.
      const fromInvocation = await rename(
        client(),
        ws(),
        '.picasso/agents/planner.md',
        at(text, '@planner'),
        '@work_planner',
      );
      assert.deepStrictEqual(fromInvocation.edit, edit);
    });

    it('Picasso: refuses a name that is not snake_case, or one another role has', async () => {
      const text = role('planner');
      const bad = await rename(client(), ws(), '.picasso/agents/planner.md', at(text, 'planner'), 'WorkPlanner');
      assert.match(bad.error!.message, /`WorkPlanner` is not a snake_case name/);
      const taken = await rename(client(), ws(), '.picasso/agents/planner.md', at(text, 'planner'), 'auditor');
      assert.match(taken.error!.message, /apps\/cli\/agents\/auditor\.yaml is already named `auditor`/);
    });

    it('Profy: the subagent’s `name` within its Expert, no file rename', async () => {
      const { edit, uri } = await rename(client(), ws(), 'experts/ledger.expert.json', at(EXPERT, 'poster'), 'writer');
      assert.strictEqual(renameOp(edit).length, 0);
      const after = applyEdits(EXPERT, editsFor(edit, uri));
      assert.deepStrictEqual(
        JSON.parse(after).subagents.map((s: { name: string }) => s.name),
        ['writer', 'checker'],
      );
    });

    it('Profy: refuses a collision in the Expert, a builtin, a reserved name, forbidden characters', async () => {
      for (const [newName, why] of [
        ['checker', /#1 of this Expert is already named `checker`/],
        ['general', /builtin subagent/],
        ['task', /reserved name/],
        ['my writer', /holds a space/],
        ['a<b', /holds `<`/],
      ] as const) {
        const { error } = await rename(client(), ws(), 'experts/ledger.expert.json', at(EXPERT, 'poster'), newName);
        assert.ok(error, `${newName} refused`);
        assert.match(error.message, why);
      }
    });
  },
);

renameSuite(
  'LSP rename (client without resource operations)',
  { ...DEFAULT_CAPABILITIES, workspace: { ...DEFAULT_CAPABILITIES.workspace, workspaceEdit: {} } },
  ({ client, ws, messages }) => {
    it('announces rename without prepare', () => {
      assert.strictEqual(client().initializeResult!.capabilities.renameProvider, true);
    });

    it('edits only, in `changes`, and says the file was not renamed', async () => {
      messages.length = 0;
      const text = role('planner');
      const { edit, uri } = await rename(
        client(),
        ws(),
        '.picasso/agents/planner.md',
        at(text, 'planner'),
        'work_planner',
      );
      assert.strictEqual(edit.documentChanges, undefined);
      assert.deepStrictEqual(Object.keys(edit.changes!), [uri]);
      assert.match(applyEdits(text, edit.changes![uri]), /^invocation: "@work_planner"$/m);
      await client().until(() => messages.length > 0, 8000, 'a message');
      assert.match(messages[0].message, /file was not renamed.*Rename planner\.md to work_planner\.md yourself/);
    });

    it('a refused rename is an error even without prepareRename', async () => {
      const { error } = await rename(client(), ws(), '.picasso/agents/planner.md', at(role('planner'), 'model'), 'x');
      assert.strictEqual(error!.code, REQUEST_FAILED);
      assert.match(error!.message, /`name`/);
    });
  },
);
