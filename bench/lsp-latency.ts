/**
 * Language-server latency: starts the real server over stdio on a generated workspace and
 * prints how long indexing, diagnostics after a keystroke, completion, hover, code actions
 * and `subagents/resolve` take, as an editor sees them (round trips included).
 *
 *   npm run build && npx tsc -p . && node out/bench/lsp-latency.js [--files 1000] [--edits 100]
 */
import * as fs from 'fs';
import * as path from 'path';
import { pathToFileURL } from 'url';
import type { Diagnostic } from 'vscode-languageserver-types';
import { cursor, makeWorkspace, REPO, TestClient } from '../test/lsp/harness';

const args = process.argv.slice(2);
const opt = (name: string, fallback: number) => {
  const i = args.indexOf(name);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};

function stats(samples: number[]): string {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return `p50 ${q(0.5).toFixed(2)} ms  p95 ${q(0.95).toFixed(2)} ms  max ${s[s.length - 1].toFixed(2)} ms  (n=${s.length})`;
}

const TEXT = (i: number) => `---
name: triage
description: Sorts issues ${i}.
polytoken:
  model: fast
  tools: [file_read, glob, grep, mcp__github, deploy]
  tools_deny: [mcp__github__list_issues]
  undeferred_tools: [grep]
  exit_tool_schema:
    type: object
    properties:
      status:
        type: string
        enum: [ok, failed, weird]
---
You triage issues. {{ prompt }}
`;

async function main() {
  const files = opt('--files', 1000);
  const edits = opt('--edits', 100);
  const generate = (await import(pathToFileURL(path.join(REPO, 'bench', 'generate.mjs')).href)) as {
    generateWorkspace(root: string, total: number, options?: object): unknown;
  };
  const ws = makeWorkspace({});
  generate.generateWorkspace(ws, files);
  fs.mkdirSync(path.join(ws, '.polytoken', 'subagents'), { recursive: true });
  const client = new TestClient();
  const t0 = performance.now();
  await client.start([ws]);
  await client.indexed();
  const indexMs = performance.now() - t0;
  console.log(`workspace: ${files} generated definitions`);
  console.log(`start-up + index: ${indexMs.toFixed(0)} ms`);

  const file = path.join(ws, '.polytoken', 'subagents', 'triage.md');
  const openStart = performance.now();
  const uri = await client.open(file, TEXT(0));
  await client.diagnosticsFor(uri);
  console.log(`open → diagnostics: ${(performance.now() - openStart).toFixed(2)} ms`);

  const keystroke: number[] = [];
  for (let i = 1; i <= edits; i++) {
    const start = performance.now();
    await client.change(uri, TEXT(i));
    await client.diagnosticsFor(uri, (d: Diagnostic[]) => d.length >= 0);
    keystroke.push(performance.now() - start);
  }
  console.log(`keystroke → diagnostics: ${stats(keystroke)}`);

  const measure = async (label: string, method: string, params: () => unknown) => {
    const samples: number[] = [];
    for (let i = 0; i < edits; i++) {
      const start = performance.now();
      await client.request(method, params());
      samples.push(performance.now() - start);
    }
    console.log(`${label}: ${stats(samples)}`);
  };
  const tools = cursor(TEXT(edits).replace('tools: [file_read,', 'tools: [file_read, |'));
  await client.change(uri, tools.text);
  await client.diagnosticsFor(uri);
  await measure('completion (tools list)', 'textDocument/completion', () => ({ textDocument: { uri }, position: tools.position }));
  const hoverAt = cursor(tools.text.replace('mcp__github,', 'mcp__git|hub,'));
  await measure('hover (shorthand)', 'textDocument/hover', () => ({ textDocument: { uri }, position: hoverAt.position }));
  const diags = await client.diagnosticsFor(uri);
  await measure('code actions (all diagnostics)', 'textDocument/codeAction', () => ({
    textDocument: { uri },
    range: { start: { line: 0, character: 0 }, end: { line: 20, character: 0 } },
    context: { diagnostics: diags },
  }));
  await measure('subagents/resolve', 'subagents/resolve', () => ({ uri }));
  await measure('workspace/symbol', 'workspace/symbol', () => ({ query: 'rev' }));
  await client.stop();
  fs.rmSync(ws, { recursive: true, force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
