import * as assert from 'assert';
import * as path from 'path';
import type { InlayHint, MarkupContent, Range } from 'vscode-languageserver-types';
import { DEFAULT_CAPABILITIES, startServer, type TestClient } from './harness';

const CONFIG = `mcp:
  github: [create_issue, list_issues]
tools:
  polytoken:
    - { name: shell, description: Runs a command., tags: [exec] }
`;

const POLY = `---
name: triage
description: Sorts issues.
polytoken:
  tools:
    - tag!ALL
    - tag!ALL_MCP
    - tag!exec
    - mcp__github
    - grep
    - mcp__linear
    - tag!nope
  tools_deny: [tag!ALL]
---
Body.
`;

const EXPERT = JSON.stringify(
  {
    name: 'ledger',
    description: 'Keeps the books.',
    tools: ['read', 'grep', 'glob', 'mcp__ledger__post', 'task'],
    subagents: [
      { name: 'poster', description: 'd', system_prompt: 'p', tools: ['read', 'mcp__ledger__*', '*', 'zzz*'] },
    ],
  },
  null,
  2,
);

const WHOLE: Range = { start: { line: 0, character: 0 }, end: { line: 1000, character: 0 } };
const CAPABILITIES = {
  ...DEFAULT_CAPABILITIES,
  workspace: { ...DEFAULT_CAPABILITIES.workspace, inlayHint: { refreshSupport: true } },
  textDocument: { ...DEFAULT_CAPABILITIES.textDocument, inlayHint: {} },
};

const tooltipOf = (h: InlayHint) => (h.tooltip as MarkupContent).value;
/** The backticked names of the tooltip's list. */
const listed = (h: InlayHint) =>
  [
    ...tooltipOf(h)
      .split(': ')
      .slice(1)
      .join(': ')
      .matchAll(/`([^`]+)`/g),
  ].map((m) => m[1]);

describe('LSP inlay hints', function () {
  this.timeout(60000);
  let client: TestClient;
  let ws: string;
  let refreshes = 0;

  before(async () => {
    ({ client, ws } = await startServer({ '.subagents.yaml': CONFIG }, { capabilities: CAPABILITIES }));
    client.connection.onRequest('workspace/inlayHint/refresh', () => {
      refreshes++;
      return null;
    });
  });
  after(async () => client.stop());

  async function hints(file: string, text: string, range = WHOLE): Promise<{ hints: InlayHint[]; lines: string[] }> {
    const uri = await client.open(file, text);
    const result = await client.request<InlayHint[] | null>('textDocument/inlayHint', { textDocument: { uri }, range });
    await client.close(uri);
    return { hints: result ?? [], lines: text.split('\n') };
  }

  /** The entry text just before the hint's position. */
  const entryBefore = (lines: string[], h: InlayHint) => {
    const before = lines[h.position.line].slice(0, h.position.character);
    return before.endsWith('"') ? /"([^"]*)"$/.exec(before)![1] : before.replace(/^.*[-\[,]\s*/, '');
  };

  it('is announced to clients that support it', () => {
    assert.strictEqual(client.initializeResult!.capabilities.inlayHintProvider, true);
  });

  it('Polytoken: one hint after each shorthand in tools, with the count and the list', async () => {
    const { hints: hs, lines } = await hints(path.join(ws, '.polytoken/subagents/triage.md'), POLY);
    const byEntry = new Map(hs.map((h) => [entryBefore(lines, h), h]));
    assert.deepStrictEqual(
      [...byEntry.keys()],
      ['tag!ALL', 'tag!ALL_MCP', 'tag!exec', 'mcp__github', 'mcp__linear', 'tag!nope'],
      'shorthands of tools only: not grep, not tools_deny',
    );
    const all = byEntry.get('tag!ALL')!;
    assert.strictEqual(all.label, '\u2192 18 tools');
    assert.strictEqual(listed(all).length, 18, tooltipOf(all));
    for (const t of ['file_read', 'shell', 'mcp__github__create_issue', 'switch_facet'])
      assert.ok(listed(all).includes(t), `${t} in ${tooltipOf(all)}`);
    assert.match(tooltipOf(all), /^\*\*tag!ALL\*\*\n\nExpands now to 18 tools: /);
    assert.strictEqual(all.paddingLeft, true);
    assert.strictEqual((all.tooltip as MarkupContent).kind, 'markdown');

    assert.strictEqual(byEntry.get('tag!ALL_MCP')!.label, '\u2192 2 tools');
    assert.deepStrictEqual(listed(byEntry.get('tag!ALL_MCP')!), [
      'mcp__github__create_issue',
      'mcp__github__list_issues',
    ]);
    assert.strictEqual(byEntry.get('tag!exec')!.label, '\u2192 1 tool');
    assert.deepStrictEqual(listed(byEntry.get('tag!exec')!), ['shell']);
    assert.strictEqual(byEntry.get('mcp__github')!.label, '\u2192 2 tools');
    assert.deepStrictEqual(listed(byEntry.get('mcp__github')!), [
      'mcp__github__create_issue',
      'mcp__github__list_issues',
    ]);
  });

  it('an entry that expands to nothing says so, and why', async () => {
    const { hints: hs, lines } = await hints(path.join(ws, '.polytoken/subagents/triage.md'), POLY);
    const linear = hs.find((h) => entryBefore(lines, h) === 'mcp__linear')!;
    assert.strictEqual(linear.label, '\u2192 no tool');
    assert.match(tooltipOf(linear), /server `linear` is not listed under `mcp`/);
    const nope = hs.find((h) => entryBefore(lines, h) === 'tag!nope')!;
    assert.strictEqual(nope.label, '\u2192 no tool');
    assert.match(tooltipOf(nope), /no catalog tool carries the tag `nope`/);
  });

  it('answers only the hints inside the requested range', async () => {
    const line = POLY.split('\n').indexOf('    - mcp__github');
    const { hints: hs } = await hints(path.join(ws, '.polytoken/subagents/triage.md'), POLY, {
      start: { line, character: 0 },
      end: { line, character: 20 },
    });
    assert.deepStrictEqual(
      hs.map((h) => [h.position, h.label]),
      [[{ line, character: '    - mcp__github'.length }, '\u2192 2 tools']],
    );
  });

  it('Profy: a hint after each glob of a subagent, reserved matches named in the tooltip', async () => {
    const { hints: hs, lines } = await hints(path.join(ws, 'experts/ledger.expert.json'), EXPERT);
    assert.deepStrictEqual(
      hs.map((h) => entryBefore(lines, h)),
      ['mcp__ledger__*', '*', 'zzz*'],
    );
    const [ledger, star, none] = hs;
    assert.strictEqual(ledger.label, '\u2192 1 tool');
    assert.match(tooltipOf(ledger), /Matches now 1 tool of the main toolset: `mcp__ledger__post`/);
    assert.strictEqual(star.label, '\u2192 4 tools');
    assert.match(tooltipOf(star), /Reserved names it also matches are never granted: `task`/);
    assert.strictEqual(none.label, '\u2192 no tool');
    // After the closing quote of the JSON string.
    assert.ok(lines[ledger.position.line].slice(0, ledger.position.character).endsWith('"mcp__ledger__*"'));
  });

  it('Profy with an unknown main toolset: the count is unknown', async () => {
    const expert = JSON.stringify(
      { name: 'e', description: 'd', subagents: [{ name: 's', description: 'd', system_prompt: 'p', tools: ['re*'] }] },
      null,
      2,
    );
    const { hints: hs } = await hints(path.join(ws, 'experts/e.expert.json'), expert);
    assert.deepStrictEqual(
      hs.map((h) => h.label),
      ['\u2192 ? tools'],
    );
    assert.match(tooltipOf(hs[0]), /toolset is unknown/);
  });

  it('Picasso lists literal names only: no hints', async () => {
    const role =
      'name: planner\ninvocation: "@planner"\nmodel: m\ntools: [read_file, grep]\nmax_steps: 1\nmax_depth: 0\n';
    assert.deepStrictEqual((await hints(path.join(ws, 'apps/cli/agents/planner.yaml'), role)).hints, []);
  });

  it('`subagents.inlayHints.enabled: false` turns them off (and the client is asked to refresh)', async () => {
    const file = path.join(ws, '.polytoken/subagents/triage.md');
    assert.ok((await hints(file, POLY)).hints.length > 0);
    const before = refreshes;
    client.settings = { inlayHints: { enabled: false } };
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await client.until(() => refreshes > before, 8000, 'an inlay hint refresh');
    assert.deepStrictEqual((await hints(file, POLY)).hints, []);
    client.settings = {};
    await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
    await client.until(() => refreshes > before + 1, 8000, 'a second refresh');
    assert.ok((await hints(file, POLY)).hints.length > 0);
  });
});

describe('LSP inlay hints: client without support', function () {
  this.timeout(60000);
  it('is not announced', async () => {
    const { client } = await startServer({});
    try {
      assert.strictEqual(client.initializeResult!.capabilities.inlayHintProvider, undefined);
    } finally {
      await client.stop();
    }
  });
});

describe('LSP inlay hints: client without refresh support', function () {
  this.timeout(60000);
  it('gets hints, and no refresh request when a setting turns them off', async () => {
    const capabilities = { ...CAPABILITIES, workspace: DEFAULT_CAPABILITIES.workspace };
    const { client, ws } = await startServer({ '.subagents.yaml': CONFIG }, { capabilities });
    let refreshes = 0;
    client.connection.onRequest('workspace/inlayHint/refresh', () => {
      refreshes++;
      return null;
    });
    try {
      const uri = await client.open(path.join(ws, '.polytoken/subagents/triage.md'), POLY);
      const ask = () =>
        client.request<InlayHint[] | null>('textDocument/inlayHint', { textDocument: { uri }, range: WHOLE });
      assert.ok(((await ask()) ?? []).length > 0);
      client.settings = { inlayHints: { enabled: false } };
      await client.connection.sendNotification('workspace/didChangeConfiguration', { settings: {} });
      // Hints gone: the setting is in force, and a refresh would have been asked before this answer.
      for (let hints = await ask(); hints?.length; hints = await ask()) await new Promise((r) => setTimeout(r, 50));
      assert.strictEqual(refreshes, 0);
    } finally {
      await client.stop();
    }
  });
});
