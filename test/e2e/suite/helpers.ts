import * as assert from 'assert';
import * as vscode from 'vscode';
import type { SubagentsApi } from '../../../client/extension';

/** publisher.name of the extension under test (package.json). */
export const EXTENSION_ID = 'subagents-tooling.subagents-tooling';

export async function extensionApi(): Promise<SubagentsApi> {
  const ext = vscode.extensions.getExtension<SubagentsApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is installed`);
  return ext.isActive ? ext.exports : await ext.activate();
}

export function root(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'a workspace folder is open');
  return folder.uri;
}

export const fileUri = (rel: string): vscode.Uri => vscode.Uri.joinPath(root(), ...rel.split('/'));

export async function show(rel: string): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(fileUri(rel));
  return vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.One });
}

export const codeOf = (d: vscode.Diagnostic): string =>
  typeof d.code === 'object' && d.code !== null ? String(d.code.value) : String(d.code ?? '');

/** Our diagnostics of a file (source "subagents"). */
export const ours = (uri: vscode.Uri): vscode.Diagnostic[] =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'subagents');
/** The rule ids of our diagnostics (the faded removed tools carry none). */
export const codes = (uri: vscode.Uri): string[] =>
  ours(uri)
    .filter((d) => d.code !== undefined)
    .map(codeOf)
    .sort();

/**
 * Polls `probe` (every 50 ms, and at once on every diagnostics change) until it returns a
 * value other than undefined/false; fails with `what` and the last state after `timeoutMs`.
 */
export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | false | Promise<T | undefined | false>,
  timeoutMs = 30000,
  state?: () => unknown,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  return new Promise<T>((resolve, reject) => {
    let busy = false;
    let done = false;
    const finish = (err: Error | undefined, value?: T) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      sub.dispose();
      if (err) reject(err);
      else resolve(value as T);
    };
    const check = async () => {
      if (busy || done) return;
      busy = true;
      try {
        const v = await probe();
        if (v !== undefined && v !== false) return finish(undefined, v);
        last = state ? state() : v;
      } catch (e) {
        last = e instanceof Error ? e.message : e;
      } finally {
        busy = false;
      }
      if (Date.now() > deadline)
        finish(new Error(`Timed out after ${timeoutMs} ms waiting for ${what}; last state: ${JSON.stringify(last)}`));
    };
    const timer = setInterval(() => void check(), 50);
    const sub = vscode.languages.onDidChangeDiagnostics(() => void check());
    void check();
  });
}

/** Waits until the file's diagnostics codes contain all of `expected` and none of `absent`; answers the rules' diagnostics. */
export function waitForCodes(
  uri: vscode.Uri,
  expected: string[],
  absent: string[] = [],
  timeoutMs?: number,
): Promise<vscode.Diagnostic[]> {
  return waitFor(
    `${vscode.workspace.asRelativePath(uri)} to report [${expected.join(', ')}]${absent.length ? ` and not [${absent.join(', ')}]` : ''}`,
    () => {
      const c = codes(uri);
      return expected.every((e) => c.includes(e)) && absent.every((a) => !c.includes(a))
        ? ours(uri).filter((d) => d.code !== undefined)
        : undefined;
    },
    timeoutMs,
    () => codes(uri),
  );
}

export function textAt(doc: vscode.TextDocument, range: vscode.Range): string {
  return doc.getText(range);
}

/** Position right after the first occurrence of `needle` (or at its start, with `atStart`). */
export function positionOf(doc: vscode.TextDocument, needle: string, atStart = false, from = 0): vscode.Position {
  const i = doc.getText().indexOf(needle, from);
  assert.ok(i >= 0, `"${needle}" in ${doc.uri.path}`);
  return doc.positionAt(atStart ? i : i + needle.length);
}

export async function replace(doc: vscode.TextDocument, needle: string, replacement: string): Promise<void> {
  const start = positionOf(doc, needle, true);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(start, doc.positionAt(doc.offsetAt(start) + needle.length)), replacement);
  assert.ok(await vscode.workspace.applyEdit(edit), 'edit applied');
}

/**
 * Throws away unsaved edits of a file: puts the text on disk back and saves, so the document
 * is clean whatever editor has the focus (workbench.action.files.revert acts on the active one).
 */
export async function revert(uri: vscode.Uri): Promise<void> {
  const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (!doc || !doc.isDirty) return;
  const disk = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  if (doc.getText() !== disk) {
    const edit = new vscode.WorkspaceEdit();
    edit.replace(uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), disk);
    assert.ok(await vscode.workspace.applyEdit(edit), `restore ${uri.path}`);
  }
  assert.ok(await doc.save(), `save ${uri.path}`);
  await waitFor(`${uri.path} to be clean`, () => !doc.isDirty);
}

export const labelOf = (i: vscode.CompletionItem): string => (typeof i.label === 'string' ? i.label : i.label.label);

export function hoverText(hovers: vscode.Hover[]): string {
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : 'value' in c ? c.value : ''))
    .join('\n');
}

export const labelText = (h: vscode.InlayHint) =>
  typeof h.label === 'string' ? h.label : h.label.map((p) => p.value).join('');
export const tooltipText = (h: vscode.InlayHint) =>
  typeof h.tooltip === 'string' ? h.tooltip : (h.tooltip?.value ?? '');

export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * Renames through the language server (F2) at `needle` and saves the moved document. The
 * `vscode.executeDocumentRenameProvider` command hands back the text edits after the file
 * operations (F2 itself keeps the server's order: edits, then the rename), so its two parts are
 * applied in the server's order here: the text edits, then what is left, the server's RenameFile.
 */
export async function renameAt(uri: vscode.Uri, needle: string, newName: string, moved: vscode.Uri): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(uri);
  const position = positionOf(doc, needle, true).translate(0, 1);
  const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit>(
    'vscode.executeDocumentRenameProvider',
    uri,
    position,
    newName,
  );
  assert.ok(edit, 'the server answers a rename');
  const textEdits = new vscode.WorkspaceEdit();
  for (const [u, edits] of edit.entries()) {
    textEdits.set(u, edits);
    edit.set(u, null as unknown as vscode.TextEdit[]); // null removes the resource's text edits (the typings omit it)
  }
  assert.ok(await vscode.workspace.applyEdit(textEdits), 'the text edits applied');
  assert.ok(await vscode.workspace.applyEdit(edit), 'the file rename applied');
  const movedDoc = await vscode.workspace.openTextDocument(moved);
  if (movedDoc.isDirty) assert.ok(await movedDoc.save(), `save ${moved.path}`);
}
