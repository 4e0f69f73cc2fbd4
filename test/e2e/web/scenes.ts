/**
 * Screenshots of the web run (test/e2e/driver.mjs --web): the extension's web build on a
 * workspace that is on no disk, as in github.dev. The output scene checks that the language
 * server runs in a Web Worker; the view scene, that the Subagents view lists the workspace.
 */
import * as vscode from 'vscode';
import { codeOf, fileUri, ours, positionOf, show, waitFor, waitForCodes } from '../suite/helpers';
import { cursorAt, playScenes, type Scene } from '../suite/scenes';

const POLY_OK = '.polytoken/subagents/triage.md';
const POLY_BAD = '.polytoken/subagents/reviewer.md';

const scenes: Scene[] = [
  {
    name: 'web-problems',
    selector: '.markers-panel',
    text: ['polytoken/name-mismatch', 'picasso/invocation-mismatch', 'profy/reserved-name'],
    required: true,
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const rel of ['experts/ledger.expert.json', 'apps/cli/agents/code_checker.yaml', POLY_BAD]) await show(rel);
      await waitForCodes(fileUri(POLY_BAD), ['polytoken/name-mismatch']);
      await vscode.commands.executeCommand('workbench.actions.view.problems');
    },
  },
  {
    name: 'web-quick-fix',
    selector: '.action-widget',
    text: ['file_read'],
    async setup() {
      const editor = await show(POLY_BAD);
      const d = await waitFor('the unknown-tool diagnostic', () =>
        ours(editor.document.uri).find((x) => codeOf(x) === 'polytoken/unknown-tool'),
      );
      await cursorAt(editor, d.range.start.translate(0, 2));
      await vscode.commands.executeCommand('editor.action.quickFix');
    },
  },
  {
    name: 'web-hover',
    selector: '.monaco-hover',
    text: ['mcp__github__create_issue'],
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closePanel');
      const editor = await show(POLY_OK);
      await cursorAt(editor, positionOf(editor.document, 'mcp__github').translate(0, 4));
      await vscode.commands.executeCommand('editor.action.showHover');
    },
  },
  {
    name: 'web-resolve-preview',
    text: ['mcp__github__create_issue'],
    required: true,
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      const editor = await show(POLY_OK);
      await vscode.commands.executeCommand('subagents.resolve', editor.document.uri);
    },
  },
  {
    name: 'web-subagents-view',
    // Its own side bar (no file tree beside it): the runtimes and their groups, read from the workspace.
    text: ['Polytoken', '.picasso/agents', 'apps/cli/agents', 'ledger'],
    required: true,
    async setup() {
      await vscode.commands.executeCommand('subagents.definitions.focus');
    },
  },
  {
    // The extension's log: the language server runs in a Web Worker.
    name: 'web-output',
    text: ['Language server (a Web Worker) ready'],
    required: true,
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await vscode.commands.executeCommand('subagents.showOutput');
    },
  },
];

export function runScenes(dir: string, log: (line: string) => void): Promise<void> {
  return playScenes(scenes, dir, log);
}
