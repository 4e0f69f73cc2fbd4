/**
 * Screenshot scenes of the Subagents view (played after scenes.ts's own, same protocol, found by name): the
 * view with a definition expanded beside the resolve preview (the status icons and the tool-set
 * chips must render in the real workbench), and the "Only problems" filter.
 */
import * as vscode from 'vscode';
import { extensionApi, fileUri, show } from './helpers';
import type { Scene } from './scenes';

async function revealed(rel: string, name: string, expand: boolean): Promise<void> {
  const view = (await extensionApi()).definitions;
  await view.whenComplete();
  const node = view.nodeFor(fileUri(rel).toString(), name);
  if (node) await view.treeView.reveal(node, { expand, select: expand, focus: false });
}

export const scenes: Scene[] = [
  {
    name: 'subagents-view',
    // A status icon as the workbench draws it (ThemeIcon `error` on the rejected reviewer).
    selector: '.custom-view-tree-node-item-icon.codicon-error',
    // The view, and the resolve preview's tool-set chips beside it.
    text: ['Polytoken', 'Picasso', 'Profy', 'reviwer', 'removed by tools_deny', 'Granted (5)', 'Removed (1)'],
    required: true,
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('workbench.action.closePanel');
      await (await extensionApi()).definitions.setOnlyProblems(false);
      // The preview alone in the editor area.
      const resolved = await vscode.commands.executeCommand<{ previewUri: string }>(
        'subagents.resolve',
        fileUri('.polytoken/subagents/triage.md'),
      );
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('markdown.showPreview', vscode.Uri.parse(resolved.previewUri));
      // Room for the view: the side bar wider.
      await vscode.commands.executeCommand('subagents.definitions.focus');
      for (let i = 0; i < 3; i++) await vscode.commands.executeCommand('workbench.action.decreaseViewWidth');
      for (const [rel, name] of [
        ['apps/cli/agents/code_checker.yaml', 'code_checker'],
        ['experts/ledger.expert.json', 'task'],
      ])
        await revealed(rel, name, false);
      await revealed('.polytoken/subagents/triage.md', 'triage', true);
    },
  },
  {
    name: 'subagents-view-only-problems',
    selector: '.custom-view-tree-node-item-icon.codicon-circle-slash',
    text: ['Only problems: 4 of 7 definitions'],
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('subagents.definitions.onlyProblems');
      await show('.polytoken/subagents/reviewer.md');
      await revealed('.polytoken/subagents/reviewer.md', 'reviwer', true);
      await revealed('experts/ledger.expert.json', 'task', false);
    },
  },
];
