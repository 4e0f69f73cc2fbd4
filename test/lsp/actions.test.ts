import * as assert from 'assert';
import * as path from 'path';
import type { CodeAction, Diagnostic } from 'vscode-languageserver-types';
import { applyEdits, editsFor, startServer, type TestClient } from './harness';

const CONFIG = 'mcp:\n  github: [create_issue, list_issues]\n';

describe('LSP quick fixes', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;

  before(async () => {
    ({ client, ws } = await startServer({ '.subagents.yaml': CONFIG }));
  });
  after(async () => client.stop());

  const polyFile = () => path.join(ws, '.polytoken/subagents/triage.md');
  const picassoFile = () => path.join(ws, '.picasso/agents/auditor.md');
  const profyFile = () => path.join(ws, 'experts/book.expert.json');
  const poly = (body: string, name = 'triage') =>
    `---\nname: ${name}\ndescription: Sorts issues.\npolytoken:\n${body}---\nYou triage issues.\n`;

  /**
   * Opens the text, finds the diagnostic of `rule` (optionally on a line), applies the code
   * action whose title matches, re-checks the new text, and returns the new text, the new
   * diagnostics and the actions offered.
   */
  async function fix(
    file: string,
    text: string,
    rule: string,
    title: RegExp,
    pick: (d: Diagnostic) => boolean = () => true,
  ) {
    const uri = await client.open(file, text);
    try {
      const ds = await client.diagnosticsFor(uri, (d) => d.some((x) => x.code === rule && pick(x)));
      const diagnostic = ds.find((x) => x.code === rule && pick(x))!;
      const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic] },
      });
      const action = actions.find((a) => title.test(a.title));
      assert.ok(action, `no action ${title} among ${actions.map((a) => a.title).join(' | ')}`);
      const next = applyEdits(text, editsFor(action.edit, uri));
      await client.change(uri, next);
      const after = await client.diagnosticsFor(uri);
      return { text: next, after, actions, action, uri };
    } finally {
      await client.close(uri);
    }
  }

  const has = (ds: Diagnostic[], rule: string) => ds.some((d) => d.code === rule);

  it('answers only the requested range and kinds; "Fix all" is a source.fixAll action the server advertises', async () => {
    const text = poly('  tools: [file_read, exit_tool]\n  tools_deny: [job_status]\n');
    const uri = await client.open(polyFile(), text);
    try {
      const all = await client.diagnosticsFor(uri, (d) => d.length >= 2);
      const line = (n: number) => ({ start: { line: n, character: 0 }, end: { line: n, character: 80 } });
      const ask = (range: ReturnType<typeof line>, only?: string[]) =>
        client.request<CodeAction[]>('textDocument/codeAction', {
          textDocument: { uri },
          range,
          context: { diagnostics: all, ...(only ? { only } : {}) },
        });
      // Line 4 holds exit_tool, line 5 job_status: each range gets its own diagnostic's fixes only.
      const onTools = await ask(line(4));
      assert.ok(
        onTools.length > 0 && onTools.every((a) => a.diagnostics?.every((d) => d.range.start.line === 4)),
        JSON.stringify(onTools.map((a) => a.title)),
      );
      const onDeny = await ask(line(5));
      assert.ok(
        onDeny.some((a) => /job_status/.test(a.title)) &&
          onDeny.every((a) => a.diagnostics?.every((d) => d.range.start.line === 5)),
      );
      // `only`: quick fixes without "Fix all", or "Fix all" alone.
      const quickOnly = await ask(line(4), ['quickfix']);
      assert.ok(
        quickOnly.length > 0 && quickOnly.every((a) => a.kind === 'quickfix'),
        JSON.stringify(quickOnly.map((a) => a.kind)),
      );
      const fixAll = await ask(line(4), ['source.fixAll']);
      assert.deepStrictEqual(
        fixAll.map((a) => [a.kind, a.title]),
        [['source.fixAll.subagents', 'Fix all subagent problems']],
      );
      const fixed = applyEdits(text, editsFor(fixAll[0].edit, uri));
      assert.match(fixed, /tools: \[file_read\]\n  tools_deny: \[\]\n/);
      assert.deepStrictEqual(await ask(line(4), ['refactor']), []);
    } finally {
      await client.close(uri);
    }
    const kinds = (
      client.initializeResult?.capabilities.codeActionProvider as { codeActionKinds?: string[] } | undefined
    )?.codeActionKinds;
    assert.deepStrictEqual(kinds, ['quickfix', 'source.fixAll.subagents']);
  });

  it('a fix that would add a problem or grant a tool is offered, not preferred, and "Fix all" agrees', async () => {
    const subagent = (name: string) =>
      `{ "name": ${JSON.stringify(name)}, "description": "d", "system_prompt": "p", "tools": ["read"] }`;
    const text = `{\n  "name": "book",\n  "description": "d",\n  "delegationBrief": "b",\n  "tools": ["read"],\n  "subagents": [\n    ${subagent('a b')},\n    ${subagent('a\tb')}\n  ]\n}\n`;
    const uri = await client.open(profyFile(), text);
    try {
      const ds = await client.diagnosticsFor(uri, (d) => d.filter((x) => x.code === 'profy/invalid-name').length === 2);
      const renames: [number, boolean | undefined][] = [];
      for (const d of ds.filter((x) => x.code === 'profy/invalid-name')) {
        const actions = await client.request<CodeAction[]>('textDocument/codeAction', {
          textDocument: { uri },
          range: d.range,
          context: { diagnostics: [d] },
        });
        const rename = actions.find((a) => a.title === 'Change to `a_b`');
        assert.ok(rename, actions.map((a) => a.title).join(' | '));
        renames.push([d.range.start.line, rename.isPreferred]);
      }
      // Both would become `a_b`: the first is preferred, the second (a duplicate Profy drops) only offered.
      assert.deepStrictEqual(renames, [
        [6, true],
        [7, undefined],
      ]);
      const [fixAll] = await client.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: ds[0].range,
        context: { diagnostics: [], only: ['source.fixAll'] },
      });
      const fixed = applyEdits(text, editsFor(fixAll.edit, uri));
      assert.strictEqual(fixed, text.replace('"a b"', '"a_b"'));
    } finally {
      await client.close(uri);
    }
    // A misspelt key renamed onto `polytoken` would switch on the tools written under it.
    const key = await fix(
      polyFile(),
      '---\nname: triage\nPolytoken:\n  tools: [file_read]\n---\nBody.\n',
      'polytoken/unknown-key',
      /Rename to `polytoken`/,
    );
    assert.ok(!key.action.isPreferred);
    assert.ok(!key.actions.some((a) => a.isPreferred), key.actions.map((a) => a.title).join(' | '));
  });

  it('name mismatch: set the name to the file name (preferred), or rename the file', async () => {
    const r = await fix(
      polyFile(),
      poly('  tools: [grep]\n', 'triaj'),
      'polytoken/name-mismatch',
      /^Set name to `triage`/,
    );
    assert.ok(r.action.isPreferred);
    assert.match(r.text, /^name: triage$/m);
    assert.ok(!has(r.after, 'polytoken/name-mismatch'));
    const rename = r.actions.find((a) => /Rename the file/.test(a.title))!;
    assert.ok(rename, 'rename offered');
    const op = rename.edit!.documentChanges![0] as { kind: string; newUri: string };
    assert.strictEqual(op.kind, 'rename');
    assert.ok(op.newUri.endsWith('/.polytoken/subagents/triaj.md'), op.newUri);
  });

  it('unknown key: rename to the nearest known key', async () => {
    const r = await fix(polyFile(), poly('  modle: fast\n'), 'polytoken/unknown-key', /Rename to `model`/);
    assert.match(r.text, /^ {2}model: fast$/m);
    assert.ok(!has(r.after, 'polytoken/unknown-key'));
  });

  it('removable entry in a flow list: the entry and its comma', async () => {
    const r = await fix(
      polyFile(),
      poly('  tools: [grep]\n  tools_deny: [job_status, glob]\n'),
      'polytoken/undeniable-tool',
      /Remove `job_status`/,
    );
    assert.match(r.text, /^ {2}tools_deny: \[glob\]$/m);
    assert.ok(!has(r.after, 'polytoken/undeniable-tool'));
    assert.ok(!has(r.after, 'syntax/yaml'));
  });

  it('removable entry in a block list: the whole `- x` line', async () => {
    const r = await fix(
      polyFile(),
      poly('  tools:\n    - grep\n    - exit_tool\n    - glob\n'),
      'polytoken/exit-tool-listed',
      /Remove `exit_tool`/,
    );
    assert.match(r.text, /tools:\n {4}- grep\n {4}- glob\n---/);
    assert.ok(!has(r.after, 'polytoken/exit-tool-listed'));
  });

  it('MCP shorthand in tools_deny: expand into full names', async () => {
    const r = await fix(
      polyFile(),
      poly('  tools: [mcp__github]\n  tools_deny: [mcp__github]\n'),
      'polytoken/mcp-shorthand-in-deny',
      /Expand/,
    );
    assert.match(r.text, /tools_deny: \[mcp__github__create_issue, mcp__github__list_issues\]/);
    assert.ok(!has(r.after, 'polytoken/mcp-shorthand-in-deny'));
  });

  it('undeferred not granted: add it to tools', async () => {
    const r = await fix(
      polyFile(),
      poly('  tools: [grep]\n  undeferred_tools: [glob]\n'),
      'polytoken/undeferred-not-granted',
      /Add `glob` to `tools`/,
    );
    assert.match(r.text, /tools: \[grep, glob\]/);
    assert.ok(!has(r.after, 'polytoken/undeferred-not-granted'));
  });

  it('deny/undeferred conflict: remove either side', async () => {
    const r = await fix(
      polyFile(),
      poly('  tools: [grep]\n  tools_deny: [grep]\n  undeferred_tools: [grep]\n'),
      'polytoken/deny-undeferred-conflict',
      /Remove `grep` from `tools_deny`/,
    );
    assert.ok(r.actions.some((a) => /Remove `grep` from `undeferred_tools`/.test(a.title)));
    assert.ok(!has(r.after, 'polytoken/deny-undeferred-conflict'));
  });

  it('auto_facet_hint: rename to autonomous_hint', async () => {
    const r = await fix(
      polyFile(),
      poly('  tools: [grep]\n  auto_facet_hint: careful\n'),
      'polytoken/auto-facet-hint',
      /Rename to `autonomous_hint`/,
    );
    assert.match(r.text, /autonomous_hint: careful/);
    assert.ok(!has(r.after, 'polytoken/auto-facet-hint'));
  });

  it('unrecognized status enum: one action per suggestion; only a known synonym is preferred', async () => {
    const schema = (values: string) =>
      `  exit_tool_schema:\n    type: object\n    properties:\n      status:\n        type: string\n        enum: [${values}]\n`;
    const r = await fix(
      polyFile(),
      poly(schema('yay, failed')),
      'polytoken/unrecognized-status-enum',
      /Change to `success`/,
    );
    const changes = r.actions.filter((a) => /^Change to/.test(a.title));
    assert.ok(changes.length >= 3, `${changes.length} suggestions`);
    // `yay` is no known word for a family: a value merely spelled alike may mean something else.
    assert.strictEqual(r.actions.filter((a) => a.isPreferred).length, 0);
    assert.match(r.text, /enum: \[success, failed\]/);
    assert.ok(!has(r.after, 'polytoken/unrecognized-status-enum'));
    const synonym = await fix(
      polyFile(),
      poly(schema('passed, failed')),
      'polytoken/unrecognized-status-enum',
      /Change to `success`/,
    );
    assert.deepStrictEqual(
      synonym.actions.filter((a) => a.isPreferred).map((a) => a.title),
      ['Change to `success`'],
    );
    // The family's word is there already: the preferred fix removes the synonym instead of writing it twice.
    const taken = await fix(
      polyFile(),
      poly(schema('success, passed')),
      'polytoken/unrecognized-status-enum',
      /Remove `passed`/,
    );
    assert.ok(taken.actions.find((a) => /Remove `passed`/.test(a.title))?.isPreferred);
    assert.match(taken.text, /enum: \[success\]/);
  });

  it('missing name: insert `name: <stem>`', async () => {
    const text = '---\ndescription: Sorts issues.\npolytoken:\n  tools: [grep]\n---\nbody\n';
    const r = await fix(polyFile(), text, 'polytoken/missing-name', /Add `name: triage`/);
    assert.match(r.text, /^---\nname: triage\ndescription/);
    assert.ok(!has(r.after, 'polytoken/missing-name'));
  });

  it('disable a rule for one line (YAML) with the line\u2019s indentation', async () => {
    const r = await fix(
      polyFile(),
      poly('  tools: [grep, gerp]\n'),
      'polytoken/unknown-tool',
      /Disable polytoken\/unknown-tool for this line/,
    );
    assert.match(r.text, /\n {2}# subagents-disable-next-line polytoken\/unknown-tool\n {2}tools: \[grep, gerp\]/);
    assert.ok(!has(r.after, 'polytoken/unknown-tool'));
  });

  it('disable a file-level rule for the whole file (first-line diagnostics)', async () => {
    const r = await fix(
      picassoFile(),
      'name: auditor\n',
      'picasso/missing-recommended',
      /Disable picasso\/missing-recommended for this file/,
    );
    assert.match(r.text, /^# subagents-disable picasso\/missing-recommended\nname: auditor\n/);
    assert.ok(!has(r.after, 'picasso/missing-recommended'));
    assert.ok(has(r.after, 'picasso/missing-required'));
  });

  const role = (extra: string) =>
    `name: auditor\ninvocation: "@auditor"\nmodel: m\ntools: [read_file, grep]\nmax_steps: 10\nmax_depth: 0\noutput_schema: s\ndescription: d\nwhen_to_use: w\n${extra}`;

  it('Picasso: missing required key inserted; tools/deny overlap removed; invocation fixed; memory replaced', async () => {
    const missing = role('').replace('max_steps: 10\n', '');
    const a = await fix(picassoFile(), missing, 'picasso/missing-required', /Add `max_steps: 30`/);
    assert.ok(a.actions.find((x) => /Add `max_steps: 30`/.test(x.title))?.isPreferred);
    assert.match(a.text, /\nmax_steps: 30\n/);
    assert.ok(!has(a.after, 'picasso/missing-required'));
    const b = await fix(
      picassoFile(),
      role('deny: [grep, delete_file]\n'),
      'picasso/tools-deny-overlap',
      /Remove `grep` from `deny`/,
    );
    assert.match(b.text, /deny: \[delete_file\]/);
    assert.ok(!has(b.after, 'picasso/tools-deny-overlap'));
    const c = await fix(
      picassoFile(),
      role('').replace('"@auditor"', '"@audit"'),
      'picasso/invocation-mismatch',
      /invocation|@auditor/,
    );
    assert.match(c.text, /invocation: "@auditor"/);
    assert.ok(!has(c.after, 'picasso/invocation-mismatch'));
    const d = await fix(picassoFile(), role('memory: read-onyl\n'), 'picasso/invalid-memory', /read-only/);
    assert.match(d.text, /memory: read-only/);
    assert.ok(!has(d.after, 'picasso/invalid-memory'));
  });

  it('Picasso Markdown body: move it into system_prompt', async () => {
    const text = `---\n${role('')}---\nYou audit the code.\n\nBe brief.\n`;
    const r = await fix(picassoFile(), text, 'picasso/markdown-body', /Move the body into `system_prompt`/);
    assert.match(r.text, /system_prompt: \|\n {2}You audit the code\.\n\n {2}Be brief\.\n---\n$/);
    assert.ok(!has(r.after, 'picasso/markdown-body'));
    assert.ok(!has(r.after, 'syntax/yaml'));
  });

  it('Profy: replace an unresolved tool, remove a broken entry with its comma; no disable action in JSON', async () => {
    const expert = (sub: string) =>
      `{\n  "name": "book",\n  "description": "d",\n  "delegationBrief": "b",\n  "tools": ["read", "grep"],\n  "subagents": [\n    ${sub}\n  ]\n}\n`;
    const good = '{ "name": "scan", "description": "d", "system_prompt": "p", "tools": ["grep", "rea"] }';
    const a = await fix(profyFile(), expert(good), 'profy/unresolved-tool', /Change to `read`/);
    // Offered, not preferred: "Fix all" never turns an entry into a tool the author did not write.
    assert.ok(!a.action.isPreferred);
    assert.ok(a.after.every((d) => d.code !== 'profy/unresolved-tool'));
    // When the suggested tool is listed already, the entry is removed instead of listed twice.
    const twice = await fix(
      profyFile(),
      expert(good.replace('"grep"', '"read"')),
      'profy/unresolved-tool',
      /Remove `rea` from `tools`/,
    );
    assert.match(twice.text, /"tools": \["read"\] \}/);
    assert.ok(!a.actions.some((x) => /Disable/.test(x.title)));
    const c = await fix(
      profyFile(),
      expert('{ "name": "scan", "description": "d", "tools": ["read"] }'),
      'profy/missing-field',
      /Add `system_prompt`/,
    );
    assert.match(c.text, /"tools": \["read"\], "system_prompt": "[^"]+" \}/);
    assert.ok(!has(c.after, 'profy/missing-field'));
    const b = await fix(profyFile(), expert(`${good.replace(', "rea"', '')},\n    5`), 'profy/not-an-object', /Remove/);
    assert.ok(!has(b.after, 'profy/not-an-object'));
    assert.ok(!has(b.after, 'syntax/json'), b.text);
  });
});
