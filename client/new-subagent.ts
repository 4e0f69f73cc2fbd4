/**
 * *Subagents: New Subagent…*: pick the runtime (the server lists them), the workspace folder when
 * there are several, and a name the server checks as it is typed (`subagents/newSubagent`); the
 * file the server answers is created exclusively (a WorkspaceEdit that fails when it exists, so
 * undo removes it) and opened with its description selected. For a runtime whose files hold
 * several definitions (a Profy Expert's subagents), the server lists the folder's files of that
 * runtime: the new definition may go into one of them, as the edits the server computes (applied
 * as a WorkspaceEdit, so undo takes it out), or into a new file. *Subagents: Create .subagents.yaml*
 * writes a short commented configuration the same way. Both go through `vscode.workspace`, so
 * they work in the web build too.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import { NEW_SUBAGENT_REQUEST, type NewSubagentParams, type NewSubagentResult } from '../shared/protocol';

export const NEW_SUBAGENT_COMMAND = 'subagents.newSubagent';
export const CREATE_CONFIG_COMMAND = 'subagents.createConfig';

const CONFIG_TEXT = [
  '# Subagents configuration: rule severities, extra definition folders, declared tools and MCP servers.',
  '# Every key completes here (Ctrl+Space) and is documented on hover; see docs/ for the full list.',
  '',
  'rules: {}',
  '',
].join('\n');

export function registerNewSubagent(lc: BaseLanguageClient): vscode.Disposable[] {
  return [
    vscode.commands.registerCommand(NEW_SUBAGENT_COMMAND, (given?: unknown) => newSubagent(lc, readGiven(given))),
    vscode.commands.registerCommand(CREATE_CONFIG_COMMAND, createConfig),
  ];
}

interface Given {
  runtime?: string;
  name?: string;
  /** The URI of the file to add it to, or `new` for a file of its own. */
  container?: string;
}

/** What a caller may pass instead of being asked (a link, a test): `{ runtime, name, container }`. */
function readGiven(given: unknown): Given {
  const g = (given ?? {}) as Record<string, unknown>;
  const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
  return { runtime: text(g.runtime), name: text(g.name), container: text(g.container) };
}

const NEW_FILE = 'new';

/** Which file a definition of a runtime that holds several per file goes into: an existing one, or `new`. */
async function pickContainer(
  ask: (params: NewSubagentParams) => Thenable<NewSubagentResult>,
  runtime: { id: string; description: string; nested?: string },
  folder: vscode.WorkspaceFolder,
  given: string | undefined,
): Promise<string | undefined> {
  if (!runtime.nested) return NEW_FILE;
  if (given) return given;
  const { containers = [] } = await ask({ runtime: runtime.id, folderUri: folder.uri.toString() });
  if (!containers.length) return NEW_FILE;
  const items = [
    ...containers.map((c) => ({ label: c.label, description: `add a ${runtime.nested} to it`, uri: c.uri })),
    { label: 'New file', description: `a new ${runtime.description}`, uri: NEW_FILE },
  ];
  const picked = await vscode.window.showQuickPick(items, {
    title: `New ${runtime.nested}: where`,
    placeHolder: `Add it to an existing ${runtime.description}, or make a new file?`,
  });
  return picked?.uri;
}

async function newSubagent(lc: BaseLanguageClient, given: Given): Promise<vscode.Uri | undefined> {
  const ask = (params: NewSubagentParams) => lc.sendRequest<NewSubagentResult>(NEW_SUBAGENT_REQUEST, params);
  const folder = await pickFolder();
  if (!folder) return undefined;
  const { runtimes } = await ask({});
  const items = runtimes.map((r) => ({ label: r.title, description: r.definition, id: r.id, nested: r.nested }));
  const runtime =
    items.find((r) => r.id === given.runtime) ??
    (await vscode.window.showQuickPick(items, {
      title: 'New Subagent: runtime',
      placeHolder: 'Which runtime reads it?',
    }));
  if (!runtime) return undefined;
  const container = await pickContainer(ask, runtime, folder, given.container);
  if (!container) return undefined;
  const params = (name: string): NewSubagentParams => ({
    runtime: runtime.id,
    name,
    folderUri: folder.uri.toString(),
    ...(container === NEW_FILE ? {} : { containerUri: container }),
  });
  const name =
    given.name ??
    (await vscode.window.showInputBox({
      title: `New ${runtime.description}: name`,
      prompt: 'The name it is called by (the file is named after it).',
      validateInput: async (value) => (value ? (await ask(params(value))).problem : undefined),
    }));
  if (!name) return undefined;
  const { file, edit, problem } = await ask(params(name));
  if (edit) return addToFile(lc, edit);
  if (!file) {
    void vscode.window.showErrorMessage(`New Subagent: ${problem ?? 'the language server made no file.'}`);
    return undefined;
  }
  const uri = vscode.Uri.parse(file.uri);
  if (!(await createExclusively(uri, file.text))) return undefined;
  const { start, end } = file.selection;
  await vscode.window.showTextDocument(uri, {
    selection: new vscode.Range(start.line, start.character, end.line, end.character),
  });
  return uri;
}

/** Applies the server's edits to an existing file and opens it at the new description. */
async function addToFile(
  lc: BaseLanguageClient,
  edit: NonNullable<NewSubagentResult['edit']>,
): Promise<vscode.Uri | undefined> {
  const uri = vscode.Uri.parse(edit.uri);
  const workspaceEdit = new vscode.WorkspaceEdit();
  workspaceEdit.set(
    uri,
    edit.edits.map((e) => lc.protocol2CodeConverter.asTextEdit(e)),
  );
  if (!(await vscode.workspace.applyEdit(workspaceEdit))) {
    void vscode.window.showErrorMessage(`New Subagent: ${vscode.workspace.asRelativePath(uri)} could not be edited.`);
    return undefined;
  }
  const { start, end } = edit.selection;
  await vscode.window.showTextDocument(uri, {
    selection: new vscode.Range(start.line, start.character, end.line, end.character),
  });
  return uri;
}

async function createConfig(): Promise<vscode.Uri | undefined> {
  const folder = await pickFolder();
  if (!folder) return undefined;
  const uri = vscode.Uri.joinPath(folder.uri, '.subagents.yaml');
  if (!(await createExclusively(uri, CONFIG_TEXT))) return undefined;
  const doc = await vscode.window.showTextDocument(uri);
  const last = doc.document.lineCount - 1;
  doc.selection = new vscode.Selection(last, 0, last, 0);
  return uri;
}

async function pickFolder(): Promise<vscode.WorkspaceFolder | undefined> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!folders.length) {
    void vscode.window.showInformationMessage('Open a folder first: a subagent lives in a project.');
    return undefined;
  }
  return folders.length === 1
    ? folders[0]
    : vscode.window.showWorkspaceFolderPick({ placeHolder: 'Which workspace folder?' });
}

/** Creates the file with its text, failing (and saying so) when something is there already. */
async function createExclusively(uri: vscode.Uri, text: string): Promise<boolean> {
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(uri, { overwrite: false, ignoreIfExists: false, contents: new TextEncoder().encode(text) });
  const done = await vscode.workspace.applyEdit(edit);
  if (!done) void vscode.window.showErrorMessage(`${vscode.workspace.asRelativePath(uri)} exists already.`);
  return done;
}
