/**
 * Integration suite, second part: inlay hints, faded removed tools, renaming a role (the file
 * moves on disk), an unsaved `.subagents.yaml` that applies as typed, and `files:` globs that
 * reach the client's document selector. Every change is undone.
 */
import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as vscode from 'vscode';
import {
  codeOf,
  codes,
  exists,
  extensionApi,
  fileUri,
  hoverText,
  labelOf,
  ours,
  labelText,
  positionOf,
  renameAt,
  replace,
  revert,
  show,
  tooltipText,
  waitFor,
  waitForCodes,
} from './helpers';

const POLY_OK = '.polytoken/subagents/triage.md';
const POLY_BAD = '.polytoken/subagents/reviewer.md';
const PICASSO_OK = '.picasso/agents/planner.md';

describe('Subagents extension in VS Code: live editing', function () {
  this.timeout(90000);

  before(async () => {
    await extensionApi();
  });

  afterEach(async () => {
    for (const doc of vscode.workspace.textDocuments)
      if (doc.isDirty && doc.uri.scheme === 'file') await revert(doc.uri);
  });

  it('shows inlay hints with the tool count after a shorthand, the tools in the tooltip', async () => {
    const doc = (await show(POLY_OK)).document;
    const whole = new vscode.Range(0, 0, doc.lineCount, 0);
    const after = positionOf(doc, '    - mcp__github');
    const hint = await waitFor('the hint after mcp__github', async () => {
      const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
        'vscode.executeInlayHintProvider',
        doc.uri,
        whole,
      );
      return hints.find((h) => h.position.isEqual(after));
    });
    assert.strictEqual(labelText(hint), '\u2192 2 tools');
    assert.match(tooltipText(hint), /Expands now to 2 tools: `mcp__github__create_issue`, `mcp__github__list_issues`/);
    // It follows the configuration: a third tool of the server, typed into .subagents.yaml (unsaved).
    const config = (await show('.subagents.yaml')).document;
    await replace(config, 'github: [create_issue, list_issues]', 'github: [create_issue, list_issues, close_issue]');
    await waitFor('the hint to count 3 tools', async () => {
      const hints = await vscode.commands.executeCommand<vscode.InlayHint[]>(
        'vscode.executeInlayHintProvider',
        doc.uri,
        whole,
      );
      return hints.some((h) => h.position.isEqual(after) && labelText(h) === '\u2192 3 tools');
    });
  });

  it('fades a granted tool that `tools_deny` removes, with a hint that says so', async () => {
    const doc = (await show(POLY_OK)).document;
    const d = await waitFor('the faded grep', () =>
      ours(doc.uri).find((x) => x.tags?.includes(vscode.DiagnosticTag.Unnecessary)),
    );
    assert.strictEqual(doc.getText(d.range), 'grep');
    assert.strictEqual(
      d.range.start.line,
      positionOf(doc, '    - grep').line,
      'the entry in tools, not the one in tools_deny',
    );
    assert.strictEqual(d.severity, vscode.DiagnosticSeverity.Hint);
    assert.strictEqual(d.code, undefined);
    assert.match(d.message, /`grep` is granted here, then removed by `tools_deny`/);
    // The only diagnostic on that line: no quick fix, no "disable" comment.
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      d.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    assert.deepStrictEqual(
      actions.map((a) => a.title),
      [],
    );
  });

  it('renames a role with F2: name, invocation and the file on disk', async () => {
    const original = fileUri(PICASSO_OK);
    await show(PICASSO_OK);
    await assert.rejects(
      Promise.resolve(vscode.commands.executeCommand('vscode.prepareRename', original, new vscode.Position(3, 2))),
      /`name`/,
      'refused away from the name',
    );
    const moved = fileUri('.picasso/agents/work_planner.md');
    await renameAt(original, 'planner\n', 'work_planner', moved);
    try {
      assert.ok(await exists(moved), 'the new file is on disk');
      assert.ok(!(await exists(original)), 'the old file is gone');
      const text = new TextDecoder().decode(await vscode.workspace.fs.readFile(moved));
      assert.match(text, /^name: work_planner$/m);
      assert.match(text, /^invocation: "@work_planner"$/m);
    } finally {
      await renameAt(moved, 'work_planner\n', 'planner', original);
    }
    assert.ok(await exists(original), 'renamed back');
    assert.ok(!(await exists(moved)));
  });

  it('applies an unsaved .subagents.yaml edit to the open definitions', async () => {
    const doc = (await show(POLY_BAD)).document;
    await replace(doc, 'grep]', 'grep, mcp__linear]');
    const isUnknown = (d: vscode.Diagnostic) =>
      codeOf(d) === 'polytoken/unknown-tool' && doc.getText(d.range) === 'mcp__linear';
    await waitFor(
      'mcp__linear to be unknown',
      () => ours(doc.uri).some(isUnknown),
      30000,
      () => codes(doc.uri),
    );
    const config = (await show('.subagents.yaml')).document;
    await replace(
      config,
      '  github: [create_issue, list_issues]\n',
      '  github: [create_issue, list_issues]\n  linear: [create_ticket]\n',
    );
    assert.ok(config.isDirty, 'not saved');
    await waitFor(
      'mcp__linear to be known from the unsaved configuration',
      () => !ours(doc.uri).some(isUnknown),
      30000,
      () => codes(doc.uri),
    );
    await revert(config.uri);
    await waitFor(
      'mcp__linear to be unknown again',
      () => ours(doc.uri).some(isUnknown),
      30000,
      () => codes(doc.uri),
    );
  });

  it("in .subagents.yaml: completes rule ids, hovers them, and a misspelt severity's quick fix clears the problem", async () => {
    const config = (await show('.subagents.yaml')).document;
    await replace(
      config,
      '  github: [create_issue, list_issues]\n',
      '  github: [create_issue, list_issues]\nrules:\n  picasso/unk\n',
    );
    const items = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      config.uri,
      positionOf(config, '  picasso/unk'),
    );
    const ruleIds = items.items.map(labelOf);
    assert.ok(
      ruleIds.includes('picasso/unknown-key') && ruleIds.includes('picasso/unknown-tool'),
      `rule ids offered: ${ruleIds.slice(0, 20).join(', ')}`,
    );
    await replace(config, '  picasso/unk\n', '  picasso/unknown-key: warn\n');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      config.uri,
      positionOf(config, '  picasso/unkn'),
    );
    assert.match(hoverText(hovers), /picasso\/unknown-key\*\* \u2014 default: warning/);
    const [bad] = await waitForCodes(config.uri, ['config/invalid']);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      config.uri,
      bad.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((a) => a.isPreferred && a.edit);
    assert.strictEqual(fix?.title, 'Change to `warning`', actions.map((a) => a.title).join(' | '));
    assert.ok(await vscode.workspace.applyEdit(fix!.edit!));
    assert.match(config.getText(), /^  picasso\/unknown-key: warning$/m);
    await waitForCodes(config.uri, [], ['config/invalid']);
  });

  it('watches the Polytoken global folder outside the workspace: a definition added there is indexed', async () => {
    const dir = vscode.Uri.file(fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-e2e-global-')));
    const encode = (s: string) => new TextEncoder().encode(s);
    const symbolNamed = async (name: string) => {
      const found = await vscode.commands.executeCommand<vscode.SymbolInformation[]>(
        'vscode.executeWorkspaceSymbolProvider',
        name,
      );
      return found.some((s) => s.name === name && s.location.uri.fsPath.startsWith(dir.fsPath));
    };
    await vscode.workspace.fs.writeFile(
      vscode.Uri.joinPath(dir, 'first_global.md'),
      encode('---\nname: first_global\ndescription: d\n---\nx\n'),
    );
    const config = vscode.workspace.getConfiguration('subagents');
    await config.update('polytoken.globalDir', dir.fsPath, vscode.ConfigurationTarget.Workspace);
    try {
      await waitFor('the global folder to be indexed', () => symbolNamed('first_global'), 30000);
      // Only the watcher tells the server of this one: nothing else is rebuilt meanwhile.
      await vscode.workspace.fs.writeFile(
        vscode.Uri.joinPath(dir, 'second_global.md'),
        encode('---\nname: second_global\ndescription: d\n---\nx\n'),
      );
      await waitFor('the added global definition to be indexed', () => symbolNamed('second_global'), 30000);
    } finally {
      await config.update('polytoken.globalDir', undefined, vscode.ConfigurationTarget.Workspace);
      fs.rmSync(dir.fsPath, { recursive: true, force: true });
    }
  });

  it('`files:` globs reach the document selector: a definition outside the default globs gets diagnostics', async () => {
    const api = await extensionApi();
    const folder = fileUri('extra');
    const config = vscode.Uri.joinPath(folder, '.subagents.yaml');
    const helper = vscode.Uri.joinPath(folder, 'agents', 'helper.md');
    const encode = (s: string) => new TextEncoder().encode(s);
    await vscode.workspace.fs.writeFile(
      helper,
      encode('---\nname: helpr\ndescription: Helps.\npolytoken:\n  tools: [grep]\n---\nHelp.\n'),
    );
    await vscode.workspace.fs.writeFile(config, encode('files:\n  polytoken: ["agents/*.md"]\n'));
    try {
      await waitFor(
        'the client to select extra/agents/*.md',
        async () =>
          (await api.documentPatterns()).some((p) => p.baseUri === folder.toString() && p.pattern === 'agents/*.md'),
        60000,
      );
      await show('extra/agents/helper.md');
      await waitFor(
        'name-mismatch on the extra definition',
        () => codes(helper).includes('polytoken/name-mismatch'),
        30000,
        () => codes(helper),
      );
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // The configuration alone first: VS Code folds the deletion of files into their folder's,
      // and a watcher on `**/.subagents.yaml` is not told of a deleted folder.
      await vscode.workspace.fs.delete(config);
      await waitFor('the extra pattern to go', async () => (await api.documentPatterns()).length === 0, 60000);
      await vscode.workspace.fs.delete(folder, { recursive: true });
    }
    // The restarted server answers as before.
    const doc = (await show(POLY_BAD)).document;
    await replace(doc, 'grep]', 'grep, gerp]');
    await waitFor(
      'the server to report gerp',
      () => ours(doc.uri).some((d) => codeOf(d) === 'polytoken/unknown-tool' && doc.getText(d.range) === 'gerp'),
      30000,
      () => codes(doc.uri),
    );
  });
});
