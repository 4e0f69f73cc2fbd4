/**
 * Screenshot scenes for the code-server driver (test/e2e/driver.mjs). After the suite ran,
 * the runner extension sets up each scene with the `vscode` API, writes `<dir>/<name>.ready`
 * (what the driver should wait for on the page), and waits for the driver's `<name>.done`.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  codeOf,
  extensionApi,
  fileUri,
  ours,
  positionOf,
  replace,
  revert,
  show,
  waitFor,
  waitForCodes,
} from './helpers';

export interface SceneSpec {
  /** CSS selector the driver waits for (visible) before the screenshot. */
  selector?: string;
  /** Text that must appear in the page or in one of its frames (webviews). */
  text?: string[];
  /** When the selector or a text does not show, the run fails (else it is only a warning). */
  required?: boolean;
  /** Clicked by the driver before it checks and shoots (e.g. a pane header the API cannot collapse). */
  click?: string;
}

export interface Scene extends SceneSpec {
  name: string;
  setup(): Promise<void>;
  /** Undoes what the scene changed once it is shot, so later scenes see the workspace as it was. */
  teardown?(): Promise<void>;
}

const POLY_OK = '.polytoken/subagents/triage.md';
const POLY_BAD = '.polytoken/subagents/reviewer.md';

export async function cursorAt(editor: vscode.TextEditor, pos: vscode.Position): Promise<void> {
  editor.selection = new vscode.Selection(pos, pos);
  editor.revealRange(new vscode.Range(pos, pos), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
}

/** Developer: Inspect Editor Tokens and Scopes in the Polytoken example, the cursor at `marker`. */
async function inspectScopesAt(marker: string): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const editor = await show(POLY_OK);
  await cursorAt(editor, positionOf(editor.document, marker));
  await vscode.commands.executeCommand('editor.action.inspectTMScopes');
}

const scenes: Scene[] = [
  {
    name: 'problems',
    selector: '.markers-panel',
    text: ['polytoken/name-mismatch', 'picasso/invocation-mismatch', 'profy/reserved-name'],
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      for (const rel of ['experts/ledger.expert.json', 'apps/cli/agents/code_checker.yaml', POLY_BAD]) await show(rel);
      await waitForCodes(fileUri(POLY_BAD), ['polytoken/name-mismatch']);
      await vscode.commands.executeCommand('workbench.actions.view.problems');
    },
  },
  {
    name: 'hover',
    selector: '.monaco-hover',
    text: ['literal'],
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closePanel');
      const editor = await show(POLY_OK);
      await cursorAt(editor, positionOf(editor.document, '  tools_d'));
      await vscode.commands.executeCommand('editor.action.showHover');
    },
  },
  {
    name: 'completion',
    selector: '.suggest-widget.visible',
    text: ['tag!ALL'],
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors'); // also closes the hover
      const editor = await show(POLY_OK);
      await replace(editor.document, '    - mcp__github\n', '    - mcp__github\n    - \n');
      await cursorAt(editor, positionOf(editor.document, '    - mcp__github\n    - '));
      await vscode.commands.executeCommand('editor.action.triggerSuggest');
    },
  },
  {
    name: 'quick-fix',
    selector: '.action-widget',
    text: ['file_read'],
    async setup() {
      await vscode.commands.executeCommand('hideSuggestWidget');
      await revert(fileUri(POLY_OK));
      const editor = await show(POLY_BAD);
      const d = await waitFor('the unknown-tool diagnostic', () =>
        ours(editor.document.uri).find((x) => codeOf(x) === 'polytoken/unknown-tool'),
      );
      await cursorAt(editor, d.range.start.translate(0, 2));
      await vscode.commands.executeCommand('editor.action.quickFix');
    },
  },
  {
    // The injection grammars are loaded by the real VS Code: Developer: Inspect Editor Tokens and Scopes.
    name: 'grammar-template',
    selector: '.token-inspect-widget',
    text: ['meta.template.expression.polytoken', 'variable.other.polytoken'],
    required: true,
    setup: () => inspectScopesAt('{{ project.na'),
  },
  {
    name: 'grammar-shorthand',
    selector: '.token-inspect-widget',
    text: ['meta.tool-shorthand.mcp.subagents', 'entity.name.namespace.mcp-server.subagents'],
    required: true,
    setup: () => inspectScopesAt('- mcp__git'),
  },
  {
    name: 'resolve-preview',
    selector: 'iframe.webview.ready',
    text: ['Effective tools', 'mcp__github__create_issue'],
    async setup() {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      await show(POLY_OK);
      await vscode.commands.executeCommand('subagents.resolve');
      const api = await extensionApi();
      await waitFor('status bar text for triage', () => api.status().text.includes('loads'));
    },
  },
];

function waitForFile(file: string, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (fs.existsSync(file)) {
        clearInterval(timer);
        resolve(true);
      } else if (Date.now() > deadline) {
        clearInterval(timer);
        resolve(false);
      }
    }, 100);
  });
}

/** Scenes of other files (`<topic>.scenes.ts` exporting `scenes`), played after these. */
function allScenes(): Scene[] {
  const out = scenes.slice();
  for (const f of fs
    .readdirSync(__dirname)
    .filter((name) => name.endsWith('.scenes.js'))
    .sort()) {
    for (const scene of (require(path.join(__dirname, f)) as { scenes: Scene[] }).scenes) out.push(scene);
  }
  return out;
}

export async function runScenes(dir: string, log: (line: string) => void): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  await vscode.commands.executeCommand('notifications.clearAll');
  for (const scene of allScenes()) {
    const { name, setup, teardown, ...spec } = scene;
    try {
      await setup();
    } catch (e) {
      log(`scene ${name}: setup failed: ${e instanceof Error ? e.message : String(e)}`);
    }
    // Written then renamed: the driver polls for `.ready` and must never read it half written.
    fs.writeFileSync(path.join(dir, `${name}.ready.part`), JSON.stringify(spec));
    fs.renameSync(path.join(dir, `${name}.ready.part`), path.join(dir, `${name}.ready`));
    if (!(await waitForFile(path.join(dir, `${name}.done`), 120000))) log(`scene ${name}: the driver did not answer`);
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    try {
      await teardown?.();
    } catch (e) {
      log(`scene ${name}: teardown failed: ${e instanceof Error ? e.message : String(e)}`);
    }
  }
  for (const doc of vscode.workspace.textDocuments) if (doc.isDirty && doc.uri.scheme === 'file') await revert(doc.uri);
  fs.writeFileSync(path.join(dir, 'all.done'), '');
}
