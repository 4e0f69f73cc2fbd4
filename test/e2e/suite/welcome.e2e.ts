/**
 * Runs last (files run by name): the file it creates and deletes must not race the view suite.
 * *Subagents: New Subagent…* in a real VS Code, its runtime and name given as the command's
 * arguments (the server checks the name as the input box would), the file created where the runtime reads it, opened at
 * its description, and checked clean by the server. The file is deleted afterwards.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, fileUri, ours, revert, waitFor } from './helpers';

describe('New Subagent…', function () {
  this.timeout(90000);
  const created = fileUri('.polytoken/subagents/e2e_helper.md');

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.fs.delete(created).then(undefined, () => undefined);
  });

  it('creates a definition that checks clean, opened at its description', async () => {
    // The suite's own vscode API is not the extension's: its pickers are answered through the command's arguments.
    const refused = await vscode.commands.executeCommand('subagents.newSubagent', {
      runtime: 'polytoken',
      name: 'reviewer',
    });
    assert.strictEqual(refused, undefined, 'a name whose file exists is refused');
    const made = await vscode.commands.executeCommand<vscode.Uri>('subagents.newSubagent', {
      runtime: 'polytoken',
      name: 'e2e_helper',
    });
    assert.strictEqual(made?.toString(), created.toString());
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

  it('adds a Profy subagent to an existing Expert, opened at its description', async () => {
    const ledger = fileUri('experts/ledger.expert.json');
    const errorsBefore = ours(ledger).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
    try {
      const edited = await vscode.commands.executeCommand<vscode.Uri>('subagents.newSubagent', {
        runtime: 'profy',
        name: 'e2e_closer',
        container: ledger.toString(),
      });
      assert.strictEqual(edited?.toString(), ledger.toString());
      const editor = await waitFor(
        'the Expert to open',
        () =>
          vscode.window.activeTextEditor?.document.uri.toString() === ledger.toString() &&
          vscode.window.activeTextEditor,
      );
      const text = editor.document.getText();
      const subagents = (JSON.parse(text) as { subagents: { name: string }[] }).subagents.map((s) => s.name);
      assert.strictEqual(subagents.at(-1), 'e2e_closer');
      assert.ok(editor.document.isDirty, 'an edit in the editor, for the author to save or undo');
      const line = editor.document.lineAt(editor.selection.start.line).text;
      assert.match(line, /"description": /, 'the cursor is on the new description');
      assert.ok(editor.document.offsetAt(editor.selection.start) > text.indexOf('"e2e_closer"'));
      // Checked by the server: no error added.
      await waitFor('the server to check the edited Expert', async () => {
        await new Promise((r) => setTimeout(r, 500));
        return ours(ledger).filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length === errorsBefore;
      });
    } finally {
      await revert(ledger);
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    }
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

  it('gives Markdown and YAML definitions their own language, with quick suggestions on, and leaves other files alone', async () => {
    const language = async (rel: string) => (await vscode.workspace.openTextDocument(fileUri(rel))).languageId;
    assert.strictEqual(await language('.polytoken/subagents/triage.md'), 'subagents-markdown');
    assert.strictEqual(await language('apps/cli/agents/code_checker.yaml'), 'subagents-yaml');
    assert.strictEqual(await language('experts/ledger.expert.json'), 'json');
    assert.strictEqual(await language('README.md'), 'markdown');
    assert.strictEqual(await language('docs/settings.yaml'), 'yaml');
    const quick = (languageId: string) =>
      vscode.workspace.getConfiguration('editor', { languageId }).get<Record<string, string>>('quickSuggestions');
    assert.strictEqual(quick('subagents-markdown')?.other, 'on');
    assert.strictEqual(quick('subagents-yaml')?.other, 'on');
    assert.notStrictEqual(quick('markdown')?.other, 'on', 'other Markdown keeps its defaults');
  });

  it('offers New Subagent… and Create .subagents.yaml as commands', async () => {
    const cmds = await vscode.commands.getCommands(true);
    for (const c of ['subagents.newSubagent', 'subagents.createConfig']) assert.ok(cmds.includes(c), c);
  });
});
