/**
 * Integration suite: runs inside a real VS Code extension host against test/e2e/workspace
 * (a temporary copy), using only the `vscode` API. Every edit is reverted afterwards.
 */
import * as assert from 'assert';
import * as vscode from 'vscode';
import type { SubagentsApi } from '../../../client/extension';
import {
  EXTENSION_ID,
  codeOf,
  codes,
  extensionApi,
  fileUri,
  hoverText,
  labelOf,
  ours,
  positionOf,
  replace,
  revert,
  show,
  waitFor,
  waitForCodes,
} from './helpers';

const POLY_OK = '.polytoken/subagents/triage.md';
const POLY_BAD = '.polytoken/subagents/reviewer.md';
const PICASSO_BAD = 'apps/cli/agents/code_checker.yaml';
const PICASSO_OK = '.picasso/agents/planner.md';
const PROFY = 'experts/ledger.expert.json';
const NOT_DEFINITIONS = ['README.md', 'notes/subagents/draft.md', 'docs/settings.yaml', 'docs/data.json'];

const EXPECTED: Record<string, string[]> = {
  [POLY_BAD]: ['polytoken/name-mismatch', 'polytoken/undeniable-tool', 'polytoken/unknown-tool'],
  [PICASSO_BAD]: ['picasso/invocation-mismatch', 'picasso/tools-deny-overlap'],
  [PROFY]: ['profy/missing-field', 'profy/reserved-name'],
};

describe('Subagents extension in VS Code', function () {
  this.timeout(90000);
  let api: SubagentsApi;

  before(async () => {
    // Nothing in this suite has activated it yet: `workspaceContains:` must have done so.
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, `${EXTENSION_ID} is installed`);
    await waitFor('the extension to activate on workspaceContains', () => ext.isActive, 30000);
    api = await extensionApi();
    assert.strictEqual(
      typeof api.timings().serverReadyMs,
      'number',
      'the language server started (see the "Subagents" output)',
    );
  });

  afterEach(async () => {
    for (const doc of vscode.workspace.textDocuments)
      if (doc.isDirty && doc.uri.scheme === 'file') await revert(doc.uri);
  });

  it('activates and starts the language server', async () => {
    const t = api.timings();
    assert.strictEqual(typeof t.serverReadyMs, 'number', 'the server answered initialize');
    const cmds = await vscode.commands.getCommands(true);
    for (const c of ['subagents.resolve', 'subagents.showOutput', 'subagents.restartServer'])
      assert.ok(cmds.includes(c), `${c} registered`);
  });

  it('lists the problems of closed definitions in Problems before any file is opened (workspace pull diagnostics)', async () => {
    for (const rel of Object.keys(EXPECTED))
      assert.ok(
        !vscode.workspace.textDocuments.some((d) => d.uri.toString() === fileUri(rel).toString()),
        `${rel} is not open yet`,
      );
    for (const [rel, expected] of Object.entries(EXPECTED)) await waitForCodes(fileUri(rel), expected);
    for (const rel of NOT_DEFINITIONS) assert.deepStrictEqual(ours(fileUri(rel)), [], `${rel} is left alone`);
  });

  it("code lenses carry the extension's subagents.resolve; the server's own command is registered beside it", async () => {
    const doc = (await show(POLY_OK)).document;
    const lenses = await waitFor('code lenses', async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      return found?.length ? found : undefined;
    });
    assert.deepStrictEqual(
      lenses.map((l) => l.command?.command),
      ['subagents.resolve'],
    );
    assert.deepStrictEqual(lenses[0].command!.arguments, [doc.uri.toString()]);
    // vscode-languageclient registers the commands the server advertises; a distinct id avoids a clash.
    assert.ok((await vscode.commands.getCommands(true)).includes('subagents.server.resolve'));
  });

  it('reports diagnostics of each dialect with rule codes, exact ranges and docs links', async () => {
    for (const rel of [POLY_OK, PICASSO_OK, ...Object.keys(EXPECTED)]) await show(rel);
    for (const [rel, expected] of Object.entries(EXPECTED)) {
      const ds = await waitForCodes(fileUri(rel), expected);
      for (const d of ds) {
        assert.strictEqual(d.source, 'subagents');
        const code = d.code as { value: string; target: vscode.Uri };
        assert.ok(typeof code === 'object' && code.target, `${codeOf(d)} links to its docs page`);
        assert.match(code.target.toString(), new RegExp(`${codeOf(d)}\\.md$`));
      }
    }
    const poly = await vscode.workspace.openTextDocument(fileUri(POLY_BAD));
    const mismatch = ours(poly.uri).find((d) => codeOf(d) === 'polytoken/name-mismatch')!;
    assert.strictEqual(poly.getText(mismatch.range), 'reviwer');
    assert.strictEqual(mismatch.severity, vscode.DiagnosticSeverity.Error);
    const unknown = ours(poly.uri).find((d) => codeOf(d) === 'polytoken/unknown-tool')!;
    assert.strictEqual(poly.getText(unknown.range), 'file_raed');
    assert.strictEqual(unknown.severity, vscode.DiagnosticSeverity.Warning);
    const profy = await vscode.workspace.openTextDocument(fileUri(PROFY));
    const reserved = ours(profy.uri).find((d) => codeOf(d) === 'profy/reserved-name')!;
    assert.strictEqual(profy.getText(reserved.range), '"task"');
    assert.match(reserved.message, /skips this subagent without/);
    // Clean definitions get none (checked once the broken ones were analyzed).
    assert.deepStrictEqual(codes(fileUri(POLY_OK)), []);
    assert.deepStrictEqual(codes(fileUri(PICASSO_OK)), []);
  });

  it('leaves other Markdown, YAML and JSON files alone', async () => {
    for (const rel of NOT_DEFINITIONS) await show(rel);
    // A round trip through the server after they were opened: a later edit of a definition is
    // analyzed after anything the server would have done with them.
    const doc = (await show(POLY_BAD)).document;
    await replace(doc, 'reviwer', 'reviewer');
    await waitForCodes(doc.uri, [], ['polytoken/name-mismatch']);
    for (const rel of NOT_DEFINITIONS)
      assert.deepStrictEqual(ours(fileUri(rel)), [], `${rel} has no subagents diagnostics`);
    await show('README.md');
    await waitFor(
      'the status bar item to hide for README.md',
      () => !api.status().visible,
      10000,
      () => api.status(),
    );
  });

  it('clears diagnostics after edits that fix them (every dialect)', async () => {
    const poly = (await show(POLY_BAD)).document;
    await replace(poly, 'reviwer', 'reviewer');
    await replace(poly, '  tools_deny: [job_status]\n', '');
    await waitForCodes(poly.uri, ['polytoken/unknown-tool'], ['polytoken/name-mismatch', 'polytoken/undeniable-tool']);

    const picasso = (await show(PICASSO_BAD)).document;
    await replace(picasso, '"@checker"', '"@code_checker"');
    await replace(picasso, 'deny: [edit_file]', 'deny: [delete_file]');
    await waitFor(
      'code_checker.yaml to have no diagnostics',
      () => ours(picasso.uri).length === 0,
      30000,
      () => codes(picasso.uri),
    );

    const profy = (await show(PROFY)).document;
    await replace(profy, '"name": "task"', '"name": "checker"');
    await waitForCodes(profy.uri, ['profy/missing-field'], ['profy/reserved-name']);

    // Reverting brings the problems back: the server follows the editor's text, not the disk.
    await revert(profy.uri);
    await waitForCodes(profy.uri, EXPECTED[PROFY]);
  });

  it('completes shorthands in Polytoken `tools` and only literal names in `tools_deny`', async () => {
    const doc = (await show(POLY_OK)).document;
    await replace(doc, '    - mcp__github\n', '    - mcp__github\n    - \n');
    const inTools = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      positionOf(doc, '    - mcp__github\n    - '),
    );
    const tools = inTools.items.map(labelOf);
    for (const l of ['tag!ALL', 'tag!ALL_MCP', 'message_subagent', 'mcp__github__create_issue'])
      assert.ok(tools.includes(l), `${l} offered in tools: ${tools.join(', ')}`);
    for (const l of ['exit_tool', 'switch_facet', 'file_read'])
      assert.ok(!tools.includes(l), `${l} not offered in tools`);

    await replace(doc, '    - grep\n  undeferred_tools', '    - grep\n    - \n  undeferred_tools');
    const denyPos = positionOf(doc, '    - grep\n    - ', false, doc.getText().indexOf('tools_deny'));
    const inDeny = await vscode.commands.executeCommand<vscode.CompletionList>(
      'vscode.executeCompletionItemProvider',
      doc.uri,
      denyPos,
    );
    const deny = inDeny.items.map(labelOf);
    for (const l of ['file_read', 'mcp__github__create_issue', 'message_subagent'])
      assert.ok(deny.includes(l), `${l} offered in tools_deny: ${deny.join(', ')}`);
    assert.deepStrictEqual(
      deny.filter((l) => l.startsWith('tag!') || l === 'mcp__github'),
      [],
      'no shorthand in tools_deny',
    );
    assert.ok(!deny.includes('job_status'), 'undeniable tools are not offered');
  });

  it('hovers a key with its documentation', async () => {
    const doc = (await show(POLY_OK)).document;
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>(
      'vscode.executeHoverProvider',
      doc.uri,
      positionOf(doc, '  tools_d'),
    );
    const text = hoverText(hovers);
    assert.match(text, /tools_deny/);
    assert.match(text, /literal/i);
  });

  it('applies a quick fix, and the problem goes away', async () => {
    const doc = (await show(POLY_BAD)).document;
    const [unknown] = (await waitForCodes(doc.uri, ['polytoken/unknown-tool'])).filter(
      (d) => codeOf(d) === 'polytoken/unknown-tool',
    );
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider',
      doc.uri,
      unknown.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    // `file_read` is listed already, so the typo's fix removes it rather than list the tool twice.
    const fix = actions.find((a) => /Remove `file_raed`/.test(a.title) && a.edit);
    assert.ok(fix, `a fix removing file_raed among: ${actions.map((a) => a.title).join(' | ')}`);
    assert.ok(await vscode.workspace.applyEdit(fix.edit!));
    assert.match(doc.getText(), /tools: \[file_read, grep\]/);
    await waitForCodes(doc.uri, ['polytoken/name-mismatch'], ['polytoken/unknown-tool']);

    const mismatch = ours(doc.uri).find((d) => codeOf(d) === 'polytoken/name-mismatch')!;
    const nameFix = (
      await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider',
        doc.uri,
        mismatch.range,
        vscode.CodeActionKind.QuickFix.value,
      )
    ).find((a) => a.isPreferred && a.edit);
    assert.ok(nameFix, 'a preferred fix for the name');
    assert.ok(await vscode.workspace.applyEdit(nameFix.edit!));
    assert.match(doc.getText(), /^name: reviewer$/m);
    await waitForCodes(doc.uri, ['polytoken/undeniable-tool'], ['polytoken/name-mismatch']);
  });

  it('"Subagents: Resolve Subagent" opens a live preview of the effective tools', async () => {
    const doc = (await show(POLY_OK)).document;
    const result = await vscode.commands.executeCommand<{ previewUri: string; markdown: string }>('subagents.resolve');
    assert.ok(result, 'the command returns the preview');
    const preview = await vscode.workspace.openTextDocument(vscode.Uri.parse(result.previewUri));
    const text = preview.getText();
    for (const t of ['exit_tool', 'file_read', 'glob', 'mcp__github__create_issue', 'mcp__github__list_issues'])
      assert.ok(text.includes('`' + t + '`'), `${t} in the preview`);
    assert.match(text, /loads/);
    assert.match(text, /\| `grep` \| tools_deny \|/, 'grep removed by tools_deny');
    assert.match(text, /Undeferred:\*\* `file_read`/);
    assert.match(text, /`mcp__github__create_issue` \| tools: mcp__github \|/, 'provenance of an expanded shorthand');
    await waitFor(
      'the Markdown preview tab',
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => t.input instanceof vscode.TabInputWebview && t.label.endsWith('.md (resolved)')),
      20000,
      () => vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label),
    );

    // Live: un-deny grep in the definition; the preview follows without running the command again.
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.One });
    await replace(doc, '  tools_deny:\n    - grep\n', '');
    await waitFor(
      'the preview to show grep granted',
      () => /\| `grep` \| tools \|/.test(preview.getText()) && !/Removed/.test(preview.getText()),
      20000,
      () => preview.getText(),
    );

    // With a URI argument (as the code lens passes it): a Profy file with dropped subagents.
    const profy = await vscode.commands.executeCommand<{ markdown: string }>(
      'subagents.resolve',
      fileUri(PROFY).toString(),
    );
    assert.match(profy.markdown, /`task`: ✗ dropped/);
    assert.match(profy.markdown, /profy\/reserved-name/);
    assert.match(profy.markdown, /`poster`: ✓ loads/);

    // Not a definition: no preview.
    assert.strictEqual(await vscode.commands.executeCommand('subagents.resolve', fileUri('README.md')), undefined);
  });

  it('shows the active definition in the status bar', async () => {
    const expectStatus = async (rel: string, text: string) => {
      await show(rel);
      await waitFor(
        `status "${text}" for ${rel}`,
        () => api.status().visible && api.status().text === text && api.status().uri === fileUri(rel).toString(),
        20000,
        () => api.status(),
      );
    };
    await expectStatus(POLY_OK, '$(check) polytoken · loads · 5 tools');
    await expectStatus(POLY_BAD, '$(error) polytoken · rejected · 3 tools + 1 unknown');
    await expectStatus(PICASSO_BAD, '$(error) picasso · rejected · 2 tools');
    await expectStatus(PICASSO_OK, '$(check) picasso · loads · 4 tools');
    await expectStatus(PROFY, '$(warning) profy · 2 of 3 subagents dropped');
    assert.strictEqual(api.status().command, 'subagents.resolve', 'clicking it resolves the definition');

    // It follows edits: listing exit_tool makes triage rejected.
    const doc = (await show(POLY_OK)).document;
    await replace(doc, '    - glob\n', '    - glob\n    - exit_tool\n');
    await waitFor(
      'status to turn rejected',
      () => api.status().text.startsWith('$(error) polytoken · rejected'),
      20000,
      () => api.status(),
    );
  });

  it('applies the `subagents.rules` setting (sent through workspace/configuration)', async () => {
    const uri = fileUri(POLY_BAD);
    await show(POLY_BAD);
    await waitForCodes(uri, ['polytoken/unknown-tool']);
    const config = vscode.workspace.getConfiguration('subagents');
    await config.update(
      'rules',
      { 'polytoken/unknown-tool': 'off', 'polytoken/name-mismatch': 'warning' },
      vscode.ConfigurationTarget.Workspace,
    );
    try {
      await waitFor(
        'unknown-tool off and name-mismatch a warning',
        () => {
          const ds = ours(uri);
          return (
            !ds.some((d) => codeOf(d) === 'polytoken/unknown-tool') &&
            ds.some((d) => codeOf(d) === 'polytoken/name-mismatch' && d.severity === vscode.DiagnosticSeverity.Warning)
          );
        },
        30000,
        () => ours(uri).map((d) => `${codeOf(d)}:${d.severity}`),
      );
    } finally {
      await config.update('rules', undefined, vscode.ConfigurationTarget.Workspace);
    }
    await waitForCodes(uri, EXPECTED[POLY_BAD]);
  });

  it('re-checks open definitions when .subagents.yaml changes on disk (file watcher)', async () => {
    const config = fileUri('.subagents.yaml');
    const original = await vscode.workspace.fs.readFile(config);
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
    try {
      await vscode.workspace.fs.writeFile(
        config,
        Buffer.concat([Buffer.from(original), Buffer.from('  linear: [create_ticket]\n')]),
      );
      await waitFor(
        'mcp__linear to be known after the configuration changed',
        () => !ours(doc.uri).some(isUnknown),
        30000,
        () => codes(doc.uri),
      );
    } finally {
      await vscode.workspace.fs.writeFile(config, original);
    }
    await waitFor(
      'mcp__linear to be unknown again',
      () => ours(doc.uri).some(isUnknown),
      30000,
      () => codes(doc.uri),
    );
  });

  it('"Subagents: Restart Server" restarts it and diagnostics come back', async () => {
    await vscode.commands.executeCommand('subagents.showOutput');
    await vscode.commands.executeCommand('subagents.restartServer');
    const doc = (await show(POLY_BAD)).document;
    await replace(doc, 'grep]', 'grep, gerp]');
    await waitFor(
      'the restarted server to report gerp',
      () => ours(doc.uri).some((d) => codeOf(d) === 'polytoken/unknown-tool' && doc.getText(d.range) === 'gerp'),
      30000,
      () => codes(doc.uri),
    );
    await waitForCodes(doc.uri, EXPECTED[POLY_BAD]);
  });
});
