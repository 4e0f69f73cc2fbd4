/**
 * Screenshot scene of editing `.subagents.yaml` (played after scenes.ts's own): rule ids complete
 * under `rules:` with their default severity and documentation. The edit is reverted afterwards.
 */
import * as vscode from 'vscode';
import { fileUri, positionOf, replace, revert, show } from './helpers';
import { cursorAt, type Scene } from './scenes';

export const scenes: Scene[] = [
  {
    name: 'config-completion',
    selector: '.suggest-widget.visible',
    text: ['picasso/missing-required'],
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('workbench.action.closePanel');
      const editor = await show('.subagents.yaml');
      await replace(
        editor.document,
        '  github: [create_issue, list_issues]\n',
        '  github: [create_issue, list_issues]\nrules:\n  picasso/unknown-tool: off\n  picasso/\n',
      );
      await cursorAt(
        editor,
        positionOf(editor.document, '  picasso/', false, editor.document.getText().indexOf('off')),
      );
      await vscode.commands.executeCommand('editor.action.triggerSuggest');
      // The details pane shows the selected rule's documentation beside the list; the command
      // only acts once the list is on screen.
      await new Promise((r) => setTimeout(r, 800));
      await vscode.commands.executeCommand('toggleSuggestionDetails');
    },
    async teardown() {
      await vscode.commands.executeCommand('hideSuggestWidget');
      await revert(fileUri('.subagents.yaml'));
    },
  },
];
