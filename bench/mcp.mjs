// `subagents mcp` latencies through the SDK's client over stdio, in a generated workspace
// (bench/generate.mjs): start (spawn → initialize answered), the first `check` of one unsaved
// definition and the warm ones after it (target: under 50 ms), `list_definitions` and a whole
// workspace `check`, and the server's peak RSS. Warm checks are also timed inside the server
// (wall and CPU: a busy machine changes CPU time less). The start and first call are measured both
// through dist/cli.js (the launcher, with its V8 code cache) and dist/cli-main.js directly.
// Prints one JSON line (the last line of stdout). Run by bench/run.mjs, or alone:
//   node bench/mcp.mjs [--tmp DIR] [--size 1000] [--warm 50] [--starts 5]
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fileURLToPath } from 'url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { generateWorkspace } from './generate.mjs';
import { median, pct, peakRssMiB } from './lsp-client.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const dist = path.join(here, '..', 'dist');
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const size = Number(opt('--size', '1000'));
const warmCalls = Number(opt('--warm', '50'));
const starts = Number(opt('--starts', '5'));
const tmp = fs.mkdtempSync(path.join(opt('--tmp', os.tmpdir()), 'subagents-mcp-bench-'));

/** One unsaved definition beside the generated ones: a name mismatch and an unknown tool. */
const UNSAVED = {
  path: 'projects/p0000/.polytoken/subagents/bench-new.md',
  text: '---\nname: bench-neu\ndescription: Reviews a change.\npolytoken:\n  tools: [file_read, grpe]\n---\nReview {{ prompt }}.\n',
};

async function connect(ws, entry) {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [path.join(dist, entry), 'mcp'],
    cwd: ws,
    env: { ...process.env, XDG_CONFIG_HOME: path.join(tmp, 'xdg'), SUBAGENTS_MCP_TIMING: '1' },
    stderr: 'pipe',
  });
  // The server's own time per call (SUBAGENTS_MCP_TIMING): `check: 12.3 ms, cpu 10.1 ms`.
  const serverTimes = [];
  let pending = '';
  transport.stderr.on('data', (d) => {
    pending += d;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const m = /: (\w+): ([\d.]+) ms, cpu ([\d.]+) ms$/.exec(pending.slice(0, nl));
      if (m) serverTimes.push({ tool: m[1], wall: Number(m[2]), cpu: Number(m[3]) });
      pending = pending.slice(nl + 1);
    }
  });
  const client = new Client({ name: 'subagents-bench', version: '0' });
  const t0 = performance.now();
  await client.connect(transport);
  return { client, pid: transport.pid, startMs: performance.now() - t0, serverTimes };
}

async function timed(fn) {
  const t0 = performance.now();
  const r = await fn();
  if (r.isError) throw new Error(JSON.stringify(r.content));
  return { ms: performance.now() - t0, r };
}

const checkUnsaved = (client) => client.callTool({ name: 'check', arguments: { files: [UNSAVED] } });

const result = { definitions: size };
try {
  const ws = path.join(tmp, 'ws');
  generateWorkspace(ws, size);
  fs.mkdirSync(path.join(tmp, 'xdg'));

  for (const entry of ['cli.js', 'cli-main.js']) {
    const startMs = [];
    const firstMs = [];
    for (let i = 0; i < starts; i++) {
      const { client, startMs: s } = await connect(ws, entry);
      startMs.push(s);
      firstMs.push((await timed(() => checkUnsaved(client))).ms);
      await client.close();
    }
    const key = entry === 'cli.js' ? 'launcher' : 'bundle';
    result[`${key}StartMs`] = median(startMs);
    result[`${key}FirstCheckMs`] = median(firstMs);
  }

  const { client, pid, serverTimes } = await connect(ws, 'cli.js');
  const first = await timed(() => checkUnsaved(client));
  const rules = first.r.structuredContent.files[0].diagnostics.map((d) => d.rule).sort();
  if (rules.join() !== 'polytoken/name-mismatch,polytoken/unknown-tool') throw new Error(`unexpected: ${rules}`);
  const warm = [];
  for (let i = 0; i < warmCalls; i++) warm.push((await timed(() => checkUnsaved(client))).ms);
  result.firstCheckMs = first.ms;
  result.warmCheckMedianMs = median(warm);
  result.warmCheckP95Ms = pct(warm, 95);
  result.warmCheckMaxMs = warm.reduce((a, b) => Math.max(a, b), 0);
  // Let the last log lines arrive.
  await new Promise((resolve) => setTimeout(resolve, 100));
  const inServer = serverTimes.filter((t) => t.tool === 'check').slice(1, 1 + warmCalls);
  result.warmCheckServerMs = median(inServer.map((t) => t.wall));
  result.warmCheckServerCpuMs = median(inServer.map((t) => t.cpu));
  const list = await timed(() => client.callTool({ name: 'list_definitions', arguments: {} }));
  result.listDefinitionsMs = list.ms;
  result.listedDefinitions = list.r.structuredContent.definitions.length;
  const all = await timed(() => client.callTool({ name: 'check', arguments: {} }));
  result.checkWorkspaceMs = all.ms;
  result.checkedFiles = all.r.structuredContent.summary.files;
  const fix = await timed(() => client.callTool({ name: 'fix', arguments: UNSAVED }));
  result.fixUnsavedMs = fix.ms;
  result.peakRssMiB = peakRssMiB(pid);
  await client.close();
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
const fmt = (v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toFixed(1)) : v);
for (const [k, v] of Object.entries(result)) process.stderr.write(`${k.padEnd(22)} ${fmt(v)}\n`);
console.log(JSON.stringify(Object.fromEntries(Object.entries(result).map(([k, v]) => [k, fmt(v)]))));
