/**
 * *Subagents: New Subagent…*: pick the runtime (the server lists them), the workspace folder when
 * there are several, and a name the server checks as it is typed (`subagents/newSubagent`); the
 * file the server answers is created exclusively (a WorkspaceEdit that fails when it exists, so
 * undo removes it) and opened with its description selected. *Subagents: Create .subagents.yaml*
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

/** What a caller may pass instead of being asked (a link, a test): `{ runtime, name }`. */
function readGiven(given: unknown): { runtime?: string; name?: string } {
  const g = (given ?? {}) as { runtime?: unknown; name?: unknown };
  return {
    runtime: typeof g.runtime === 'string' ? g.runtime : undefined,
    name: typeof g.name === 'string' ? g.name : undefined,
  };
}

async function newSubagent(
  lc: BaseLanguageClient,
  given: { runtime?: string; name?: string },
): Promise<vscode.Uri | undefined> {
  const ask = (params: NewSubagentParams) => lc.sendRequest<NewSubagentResult>(NEW_SUBAGENT_REQUEST, params);
  const folder = await pickFolder();
  if (!folder) return undefined;
  const { runtimes } = await ask({});
  const items = runtimes.map((r) => ({ label: r.title, description: r.definition, id: r.id }));
  const runtime =
    items.find((r) => r.id === given.runtime) ??
    (await vscode.window.showQuickPick(items, {
      title: 'New Subagent: runtime',
      placeHolder: 'Which runtime reads it?',
    }));
  if (!runtime) return undefined;
  const params = (name: string): NewSubagentParams => ({ runtime: runtime.id, name, folderUri: folder.uri.toString() });
  const name =
    given.name ??
    (await vscode.window.showInputBox({
      title: `New ${runtime.description}: name`,
      prompt: 'The name it is called by (the file is named after it).',
      validateInput: async (value) => (value ? (await ask(params(value))).problem : undefined),
    }));
  if (!name) return undefined;
  const { file, problem } = await ask(params(name));
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
