/**
 * Editing `.subagents.yaml` through the real server: completion of keys, rule ids, severities and
 * the tool names the file itself configures; hover on keys, rule ids and severities; quick fixes
 * and "Fix all" for `config/invalid`.
 */
import * as assert from 'assert';
import * as path from 'path';
import type {
  CodeAction,
  CompletionItem,
  CompletionList,
  Diagnostic,
  Hover,
  MarkupContent,
} from 'vscode-languageserver-types';
import { applyEdits, cursor, editsFor, startServer, type TestClient } from './harness';

describe('LSP: editing .subagents.yaml', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  const configFile = () => path.join(ws, '.subagents.yaml');

  before(async () => {
    ({ client, ws } = await startServer({
      '.subagents.yaml': 'rules: {}\n',
      '.picasso/agents/auditor.yaml': 'name: auditor\n',
    }));
  });
  after(async () => client.stop());

  async function complete(marked: string): Promise<CompletionItem[]> {
    const { text, position } = cursor(marked);
    const uri = await client.open(configFile(), text);
    try {
      const result = await client.request<CompletionList | CompletionItem[] | null>('textDocument/completion', {
        textDocument: { uri },
        position,
      });
      return Array.isArray(result) ? result : (result?.items ?? []);
    } finally {
      await client.close(uri);
    }
  }

  async function hoverText(marked: string): Promise<string> {
    const { text, position } = cursor(marked);
    const uri = await client.open(configFile(), text);
    try {
      const h = await client.request<Hover | null>('textDocument/hover', { textDocument: { uri }, position });
      return h ? (h.contents as MarkupContent).value : '';
    } finally {
      await client.close(uri);
    }
  }

  /** Opens the text, waits for its diagnostics and asks for the actions of each. */
  async function actionsFor(
    text: string,
    expected: (d: Diagnostic[]) => boolean,
    only?: string[],
  ): Promise<{ uri: string; diagnostics: Diagnostic[]; actions: CodeAction[][] }> {
    const uri = await client.open(configFile(), text);
    // Each open is version 1: wait for this text's diagnostics, not an earlier open's.
    const diagnostics = await client.diagnosticsFor(uri, expected);
    const actions: CodeAction[][] = [];
    for (const d of diagnostics)
      actions.push(
        await client.request<CodeAction[]>('textDocument/codeAction', {
          textDocument: { uri },
          range: d.range,
          context: { diagnostics: [d], only },
        }),
      );
    return { uri, diagnostics, actions };
  }

  it('top-level keys not yet written, each with its schema description', async () => {
    const items = await complete('rules: {}\n|\n');
    const labels = items.map((i) => i.label);
    for (const key of ['files', 'ignore', 'tools', 'mcp', 'polytoken', 'profy'])
      assert.ok(labels.includes(key), `${key} in ${labels}`);
    assert.ok(!labels.includes('rules'), 'a key already there is not offered');
    const tools = items.find((i) => i.label === 'tools')!;
    assert.match((tools.documentation as MarkupContent).value, /Tools each runtime knows/);
  });

  it('keys of a nested mapping come from the schema', async () => {
    const labels = (await complete('polytoken:\n  facetTools: []\n  |\n')).map((i) => i.label);
    assert.deepStrictEqual(labels.sort(), ['globalDir', 'subagentDirs']);
    const item = (await complete('tools:\n  polytoken:\n    - name: deploy\n      |\n')).map((i) => i.label);
    assert.deepStrictEqual(item, ['description', 'tags'], 'a tool mapping: `name` is on the dash line already');
    const rewritten = (await complete('tools:\n  polytoken:\n    - name: deploy\n      ta|gs: []\n')).map(
      (i) => i.label,
    );
    assert.deepStrictEqual(rewritten, ['description', 'tags'], 'the key under the cursor is offered again');
  });

  it('rule ids under rules: with their default severity, while the id is typed (slash included)', async () => {
    const items = await complete('rules:\n  picasso/unknown-tool: off\n  picasso/unk|\n');
    const key = items.find((i) => i.label === 'picasso/unknown-key');
    assert.ok(key, 'picasso/unknown-key offered');
    assert.strictEqual(key.detail, 'default: warning');
    assert.ok(!items.some((i) => i.label === 'picasso/unknown-tool'), 'a rule already set is not offered again');
    const edit = key.textEdit as {
      newText: string;
      range: { start: { character: number }; end: { character: number } };
    };
    assert.deepStrictEqual(
      [edit.range.start.character, edit.range.end.character],
      [2, 13],
      'the typed id, slash included, is replaced',
    );
    assert.match(edit.newText, /^picasso\/unknown-key: \$\{1\|off,error,warning,information,hint\|\}$/);
  });

  it('severities after a rule id, the default marked', async () => {
    const items = await complete('rules:\n  polytoken/shadowed: |\n');
    assert.deepStrictEqual(
      items.map((i) => i.label),
      ['off', 'error', 'warning', 'information', 'hint'],
    );
    assert.strictEqual(items.find((i) => i.detail === 'the default')?.label, 'information');
  });

  it("facetTools completes from the Polytoken catalog the file itself configures, mainTools from Profy's", async () => {
    const poly = (await complete('tools:\n  polytoken: [deploy]\npolytoken:\n  facetTools: [file_read, |]\n')).map(
      (i) => i.label,
    );
    for (const name of ['deploy', 'grep']) assert.ok(poly.includes(name), `${name} in ${poly}`);
    assert.ok(!poly.includes('file_read'), 'a listed tool is not offered again');
    const profy = (await complete('profy:\n  mainTools:\n    - |\n')).map((i) => i.label);
    assert.ok(profy.includes('read') && !profy.includes('deploy'), String(profy));
  });

  it('hover: a rule id (default, summary, display-only note, docs link), a severity, a wrong severity, a key, an MCP tool', async () => {
    const rule = await hoverText('rules:\n  picasso/tools-deny|-overlap: warning\n');
    assert.match(rule, /\*\*picasso\/tools-deny-overlap\*\* \u2014 default: error/);
    assert.match(rule, /not what the runtime does/);
    assert.match(rule, /docs\/rules\/picasso\/tools-deny-overlap\.md/);
    assert.match(
      await hoverText('rules:\n  picasso/tools-deny-overlap: warn|ing\n'),
      /^\*\*warning\*\*: .*`picasso\/tools-deny-overlap` is an error by default\./s,
    );
    assert.match(
      await hoverText('rules:\n  picasso/tools-deny-overlap: lo|ud\n'),
      /`loud` is not a severity: use `off`, `error`/,
    );
    assert.match(
      await hoverText('ign|ore: []\n'),
      /^\*\*ignore\*\* \u2014 list of strings\n\nGlobs of paths that are never checked\./,
    );
    assert.match(await hoverText('mcp:\n  github: [create_is|sue]\n'), /`mcp__github__create_issue`/);
    assert.match(
      await hoverText('polytoken:\n  facetTools: [fi|le_read]\n'),
      /\*\*file_read\*\* \u2014 Polytoken tool/,
    );
  });

  it('hover explains a key of text that does not parse yet', async () => {
    assert.match(
      await hoverText('polytoken:\n  subagent|Dirs: [a\n  globalDir: "x\n'),
      /\*\*subagentDirs\*\* \u2014 list of strings/,
    );
  });

  it('quick fixes: rename a misspelt key or rule id, correct a severity; no rename onto a key that exists', async () => {
    const text =
      'files:\n  picaso: ["roles/*.yaml"]\nrules:\n  picasso/unknwn-key: off\n  picasso/unknown-tool: warnin\nrule:\n  x/y: off\n';
    const { uri, diagnostics, actions } = await actionsFor(
      text,
      (d) => d.length === 4 && String(d[0].message).includes('picaso'),
    );
    try {
      const byLine = new Map(
        diagnostics.map((d, i) => [
          d.range.start.line,
          actions[i].map((a) => `${a.title}${a.isPreferred ? ' *' : ''}`),
        ]),
      );
      assert.deepStrictEqual(byLine.get(1), ['Rename to `picasso` *', 'Remove `picaso`']);
      assert.deepStrictEqual(byLine.get(3), ['Rename to `picasso/unknown-key` *', 'Remove `picasso/unknwn-key`']);
      assert.deepStrictEqual(byLine.get(4), ['Change to `warning` *']);
      assert.deepStrictEqual(byLine.get(5), ['Remove `rule`'], '`rules` exists: renaming `rule` would duplicate it');
      const fixAll = await client.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: diagnostics[0].range,
        context: { diagnostics: [], only: ['source.fixAll'] },
      });
      assert.strictEqual(fixAll.length, 1);
      assert.strictEqual(
        applyEdits(text, editsFor(fixAll[0].edit, uri)),
        'files:\n  picasso: ["roles/*.yaml"]\nrules:\n  picasso/unknown-key: off\n  picasso/unknown-tool: warning\nrule:\n  x/y: off\n',
      );
    } finally {
      await client.close(uri);
    }
  });

  it('a directive that silences nothing in .subagents.yaml gets its removal, as in definition files', async () => {
    const text = 'rules:\n  # subagents-disable-next-line config/invalid\n  picasso/unknown-tool: off\n';
    const { uri, diagnostics, actions } = await actionsFor(text, (d) => d.some((x) => x.code === 'directive/unused'));
    try {
      const i = diagnostics.findIndex((d) => d.code === 'directive/unused');
      assert.deepStrictEqual(
        actions[i].map((a) => `${a.title}${a.isPreferred ? ' *' : ''}`),
        ['Remove this directive *'],
      );
    } finally {
      await client.close(uri);
    }
  });
});
