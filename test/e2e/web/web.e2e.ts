/**
 * The extension as VS Code for the web runs it (github.dev, vscode.dev): its web build only (the
 * installed copy has no `main`), in the Web Worker extension host, on a workspace that is on no
 * disk (`memfs:/ws`, the runner extension's file system). The language server runs in a Web
 * Worker and reads the workspace through the client. Every change is undone.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  EXTENSION_ID,
  codeOf,
  codes,
  exists,
  fileUri,
  hoverText,
  labelOf,
  labelText,
  ours,
  positionOf,
  renameAt,
  replace,
  revert,
  root,
  show,
  waitFor,
  waitForCodes,
} from '../suite/helpers';

const RUNNER_ID = 'subagents-e2e.e2e-runner';
const POLY_OK = '.polytoken/subagents/triage.md';
const POLY_BAD = '.polytoken/subagents/reviewer.md';
const PICASSO_BAD = 'apps/cli/agents/code_checker.yaml';
const PICASSO_OK = '.picasso/agents/planner.md';
const PROFY = 'experts/ledger.expert.json';

const EXPECTED: Record<string, string[]> = {
  [POLY_BAD]: ['polytoken/name-mismatch', 'polytoken/undeniable-tool', 'polytoken/unknown-tool'],
  [PICASSO_BAD]: ['picasso/invocation-mismatch', 'picasso/tools-deny-overlap'],
  [PROFY]: ['profy/missing-field', 'profy/reserved-name'],
};

describe('Subagents in VS Code for the web (Web Worker, memfs: workspace)', function () {
  this.timeout(90000);

  before(async () => {
    // `memfs:` has no search provider, so no workspaceContains activation event fires (github.dev's
    // file system has one): the extension starts as docs/editors.md says, when its view is shown.
    await vscode.commands.executeCommand('subagents.definitions.focus');
    await waitFor('the extension to register its commands', async () =>
      (await vscode.commands.getCommands(true)).includes('subagents.resolve'),
    );
  });

  afterEach(async () => {
    for (const doc of vscode.workspace.textDocuments)
      if (doc.isDirty && doc.uri.scheme === 'memfs') await revert(doc.uri);
  });

  it('is installed as a web extension only, on a workspace that is on no disk', async () => {
    // This extension host (Node) does not list extensions of the Web Worker one: the installed
    // copy's manifest is read from the extensions folder, beside the runner extension.
    const runner = vscode.extensions.getExtension(RUNNER_ID);
    assert.ok(runner, `${RUNNER_ID} is installed`);
    const folder = path.dirname(runner.extensionPath);
    const installed = fs.readdirSync(folder).find((f) => f.startsWith(`${EXTENSION_ID}-`));
    assert.ok(installed, `${EXTENSION_ID} is installed in ${folder}`);
    const manifest = JSON.parse(fs.readFileSync(path.join(folder, installed, 'package.json'), 'utf8'));
    assert.strictEqual(manifest.main, undefined, 'the copy under test has no Node entry');
    assert.strictEqual(manifest.browser, './dist/web/extension.js');
    assert.strictEqual(root().scheme, 'memfs');
  });

  it('reports diagnostics of each dialect as the files open', async () => {
    for (const rel of [POLY_OK, PICASSO_OK, ...Object.keys(EXPECTED)]) await show(rel);
    for (const [rel, expected] of Object.entries(EXPECTED)) await waitForCodes(fileUri(rel), expected);
    const poly = await vscode.workspace.openTextDocument(fileUri(POLY_BAD));
    const mismatch = ours(poly.uri).find((d) => codeOf(d) === 'polytoken/name-mismatch')!;
    assert.strictEqual(poly.getText(mismatch.range), 'reviwer');
    // triage.md grants mcp__github, which only the workspace's .subagents.yaml declares: read through the client.
    // (The worker may check an open file before the configuration has come through the client: it checks it again then.)
    await waitForCodes(fileUri(POLY_OK), []);
    await waitForCodes(fileUri(PICASSO_OK), []);
  });

  it('follows edits as you type', async () => {
    const doc = (await show(POLY_BAD)).document;
    await replace(doc, 'reviwer', 'reviewer');
    await waitForCodes(doc.uri, ['polytoken/undeniable-tool', 'polytoken/unknown-tool'], ['polytoken/name-mismatch']);
  });

  it('answers hover and completion', async () => {
    const doc = (await show(POLY_OK)).document;
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      positionOf(doc, 'mcp__github').translate(0, 3),
    );
    assert.match(hoverText(hovers), /create_issue/);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      positionOf(doc, '    - glob').translate(0, 6),
    );
    const labels = list.items.map(labelOf);
    assert.ok(labels.includes('file_write') || labels.includes('tag!ALL'), labels.slice(0, 20).join(' '));
  });

  it('applies a quick fix, and Fix all', async () => {
    const doc = (await show(POLY_BAD)).document;
    const mismatch = await waitFor('name-mismatch', () =>
      ours(doc.uri).find((d) => codeOf(d) === 'polytoken/name-mismatch'),
    );
    const fixes = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      mismatch.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const setName = fixes.find((a) => /reviewer/.test(a.title) && a.edit);
    assert.ok(setName, fixes.map((a) => a.title).join('; '));
    assert.ok(await vscode.workspace.applyEdit(setName.edit!));
    await waitForCodes(doc.uri, ['polytoken/undeniable-tool', 'polytoken/unknown-tool'], ['polytoken/name-mismatch']);
    await revert(doc.uri);
    const all = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      new vscode.Range(0, 0, 0, 0),
      'source.fixAll.subagents',
    );
    const fixAll = all.find((a) => a.kind?.value === 'source.fixAll.subagents' && a.edit);
    assert.ok(fixAll, all.map((a) => a.title).join('; '));
    assert.ok(await vscode.workspace.applyEdit(fixAll.edit!));
    await waitFor('Fix all to clear what it fixes', () => !codes(doc.uri).includes('polytoken/name-mismatch'));
  });

  it('resolves a definition into the preview', async () => {
    const doc = (await show(POLY_OK)).document;
    const shown = await vscode.commands.executeCommand<{ markdown: string }>('subagents.resolve', doc.uri);
    assert.ok(shown, 'the command answered');
    assert.match(shown.markdown, /mcp__github__create_issue/);
    assert.match(shown.markdown, /triage/);
  });

  it('shows inlay hints with the tool count after a shorthand', async () => {
    const doc = (await show(POLY_OK)).document;
    const after = positionOf(doc, '    - mcp__github');
    const hint = await waitFor('the hint after mcp__github', async () => {
      const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
        'vscode.executeInlayHintProvider',
        doc.uri,
        new vscode.Range(0, 0, doc.lineCount, 0),
      );
      return hints.find((h) => h.position.isEqual(after));
    });
    assert.strictEqual(labelText(hint), '\u2192 2 tools');
  });

  it('applies an unsaved .subagents.yaml edit to the open definitions', async () => {
    const doc = (await show(POLY_OK)).document;
    await waitForCodes(doc.uri, []);
    const config = (await show('.subagents.yaml')).document;
    await replace(config, '  github: [create_issue, list_issues]\n', '  gitlab: [create_issue]\n');
    assert.ok(config.isDirty, 'not saved');
    await waitForCodes(doc.uri, ['polytoken/unknown-tool']);
    await revert(config.uri);
    await waitForCodes(doc.uri, []);
  });

  it('sees a definition created in the workspace (file events, read through the client)', async () => {
    const planner = fileUri(PICASSO_OK);
    await show(PICASSO_OK);
    await waitForCodes(planner, []);
    const copy = fileUri('.picasso/agents/planner_copy.md');
    const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(planner));
    await vscode.workspace.fs.writeFile(copy, new TextEncoder().encode(text));
    try {
      await waitForCodes(planner, ['picasso/duplicate-role']);
    } finally {
      await vscode.workspace.fs.delete(copy);
    }
    await waitForCodes(planner, []);
  });

  it('renames a role with F2: name, invocation and the file', async () => {
    const original = fileUri(PICASSO_OK);
    const moved = fileUri('.picasso/agents/web_planner.md');
    const text = await vscode.workspace.fs.readFile(original);
    await renameAt(original, 'planner\n', 'web_planner', moved);
    try {
      assert.ok(await exists(moved), 'the new file is there');
      assert.ok(!(await exists(original)), 'the old file is gone');
      assert.match(
        new TextDecoder().decode(await vscode.workspace.fs.readFile(moved)),
        /^invocation: "@web_planner"$/m,
      );
    } finally {
      // Put back by hand: renaming back at once through the server is refused in the web build
      // ("planner.md already exists"), its mirror of the workspace not yet updated (a known gap).
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      if (await exists(moved)) await vscode.workspace.fs.delete(moved);
      await vscode.workspace.fs.writeFile(original, text);
    }
  });
});
