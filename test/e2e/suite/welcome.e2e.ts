/**
 * Runs last (files run by name): the file it creates and deletes must not race the view suite.
 * *Subagents: New Subagent…* in a real VS Code: the quick pick and the input box answered by
 * stand-ins, the name checked as typed, the file created where the runtime reads it, opened at
 * its description, and checked clean by the server. The file is deleted afterwards.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, fileUri, ours, waitFor } from './helpers';

type QuickPick = typeof vscode.window.showQuickPick;
type InputBox = typeof vscode.window.showInputBox;

describe('New Subagent…', function () {
  this.timeout(90000);
  const created = fileUri('.polytoken/subagents/e2e_helper.md');
  const window = vscode.window as { showQuickPick: QuickPick; showInputBox: InputBox };
  const original = { pick: window.showQuickPick, input: window.showInputBox };

  after(async () => {
    window.showQuickPick = original.pick;
    window.showInputBox = original.input;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(created).then(undefined, () => undefined);
  });

  it('creates a definition that checks clean, opened at its description', async () => {
    const offered: string[] = [];
    const refused: (string | undefined)[] = [];
    window.showQuickPick = (async (items: readonly (vscode.QuickPickItem & { id?: string })[]) => {
      const all = await items;
      offered.push(...all.map((i) => i.label));
      return all.find((i) => i.id === 'polytoken');
    }) as unknown as QuickPick;
    window.showInputBox = (async (options?: vscode.InputBoxOptions) => {
      refused.push((await options?.validateInput?.('a/b')) as string | undefined);
      refused.push((await options?.validateInput?.('reviewer')) as string | undefined);
      return 'e2e_helper';
    }) as InputBox;
    await vscode.commands.executeCommand('subagents.newSubagent');
    assert.deepStrictEqual(offered, ['Polytoken', 'Picasso', 'Profy']);
    assert.match(refused[0] ?? '', /file name/);
    assert.match(refused[1] ?? '', /exists already/);
    const editor = await waitFor(
      'the new file to open',
      () =>
        vscode.window.activeTextEditor?.document.uri.toString() === created.toString() &&
        vscode.window.activeTextEditor,
    );
    assert.strictEqual(editor.document.isDirty, false, 'written to disk');
    const line = editor.document.lineAt(editor.selection.start.line).text;
    assert.match(line, /^description: /, 'the cursor is on the description');
    // Checked clean: the server's analysis published for it, with no error or warning.
    await waitFor('the server to check the new file', async () => {
      const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>(
        'vscode.executeDocumentSymbolProvider',
        created,
      );
      return symbols?.length ? symbols : undefined;
    });
    await new Promise((r) => setTimeout(r, 1500));
    assert.deepStrictEqual(
      ours(created)
        .filter((d) => d.severity <= vscode.DiagnosticSeverity.Warning)
        .map((d) => d.message),
      [],
    );
  });

  it('opens the getting-started walkthrough', async () => {
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', `${EXTENSION_ID}#gettingStarted`, false);
    await waitFor(
      'the walkthrough tab',
      () =>
        vscode.window.tabGroups.all.flatMap((g) => g.tabs).find((t) => /Welcome|Walkthrough|Get Started/.test(t.label)),
      20000,
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label),
    );
    const walkthroughs = (
      vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as {
        contributes: { walkthroughs: { id: string; steps: { id: string }[] }[] };
      }
    ).contributes.walkthroughs;
    assert.deepStrictEqual(
      walkthroughs.map((w) => [w.id, w.steps.map((s) => s.id)]),
      [['gettingStarted', ['create', 'problems', 'resolve', 'configure']]],
    );
  });

  it('offers New Subagent… and Create .subagents.yaml as commands', async () => {
    const cmds = await vscode.commands.getCommands(true);
    for (const c of ['subagents.newSubagent', 'subagents.createConfig']) assert.ok(cmds.includes(c), c);
  });
});
