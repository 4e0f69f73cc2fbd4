/**
 * Screenshot scenes of the live-editing features (played after scenes.ts's own): the inlay
 * hints after shorthands and globs, and a removed tool faded where it is granted, with its hover.
 */
import * as vscode from 'vscode';
import { fileUri, ours, positionOf, show, waitFor } from './helpers';
import { cursorAt, type Scene } from './scenes';

/** Waits until the server has answered the file's inlay hints (the editor asks on its own). */
async function hintsReady(uri: vscode.Uri): Promise<void> {
  await waitFor('inlay hints', async () => {
    const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
      'vscode.executeInlayHintProvider',
      uri,
      new vscode.Range(0, 0, 200, 0),
    );
    return hints.length > 0;
  });
}

export const scenes: Scene[] = [
  {
    name: 'inlay-hints',
    text: ['\u2192'],
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('workbench.action.closePanel');
      const editor = await show('.polytoken/subagents/triage.md');
      await hintsReady(editor.document.uri);
      await cursorAt(editor, new vscode.Position(0, 0));
    },
  },
  {
    name: 'inlay-hints-profy',
    text: ['\u2192'],
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const editor = await show('experts/ledger.expert.json');
      await hintsReady(editor.document.uri);
      await cursorAt(editor, new vscode.Position(0, 0));
    },
  },
  {
    name: 'faded-tools',
    selector: '.monaco-hover',
    text: ['then removed by'],
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const editor = await show('.polytoken/subagents/triage.md');
      const uri = fileUri('.polytoken/subagents/triage.md');
      await waitFor('the faded grep', () => ours(uri).some((d) => d.tags?.includes(vscode.DiagnosticTag.Unnecessary)));
      await cursorAt(editor, positionOf(editor.document, '    - gr'));
      await vscode.commands.executeCommand('editor.action.showHover');
    },
  },
];
