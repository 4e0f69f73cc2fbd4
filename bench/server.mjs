// Language-server numbers over stdio (`node dist/cli.js lsp --stdio`), as an editor sees them:
// start to first diagnostics, indexing a 10,000-definition workspace (time, peak RSS),
// edit-to-diagnostics latency over 200 edits, completion and hover latency.
// Prints one JSON line (the last line of stdout). Run by bench/run.mjs, or alone:
//   node bench/server.mjs [--tmp DIR] [--size 10000]
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateWorkspace } from './generate.mjs';
import { Client, median, pct, peakRssMiB, uriOf } from './lsp-client.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const size = Number(opt('--size', '10000'));
const tmpBase = opt('--tmp', undefined);
const tmp = fs.mkdtempSync(path.join(tmpBase ?? os.tmpdir(), 'subagents-server-bench-'));

const POLY = (name, extra = '') => `---
name: ${name}
description: Sorts incoming issues.
polytoken:
  model: fast-model
  tools:
    - file_read
    - grep
    - glob
${extra}  tools_deny: [grep]
  exit_tool_schema:
    type: object
    properties:
      status: { type: string, enum: [success, failure] }
---
Sort {{ task }} and report.
`;

const result = {};
try {
  // 1. Start to first diagnostics (small workspace), median of 3.
  const small = path.join(tmp, 'small');
  generateWorkspace(small, 20);
  const firstTimes = [];
  for (let r = 0; r < 3; r++) {
    const client = new Client();
    const file = path.join(small, 'projects/p0000/.polytoken/subagents/first.md');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, POLY('first'));
    const uri = uriOf(file);
    const got = client.wait((e) => e.type === 'diagnostics' && e.uri === uri);
    await client.init(small);
    client.c.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'markdown', version: 1, text: POLY('first') },
    });
    const e = await got;
    firstTimes.push(e.at - client.started);
    await client.stop();
  }
  result['start to first diagnostics (ms)'] = median(firstTimes);

  // 2. Indexing a large workspace.
  const big = path.join(tmp, `ws-${size}`);
  generateWorkspace(big, size);
  const client = new Client();
  const indexed = client.wait((e) => e.type === 'progress' && e.value?.kind === 'end');
  const t0 = performance.now();
  await client.init(big);
  await indexed;
  result[`index ${size.toLocaleString('en')} definitions (ms)`] = performance.now() - t0;
  result['server peak RSS after indexing (MiB)'] = peakRssMiB(client.child.pid);

  // 3. Edit-to-diagnostics latency over 200 edits, one at a time, in the indexed workspace.
  const file = path.join(big, 'projects/p0001/.polytoken/subagents/edited.md');
  const uri = uriOf(file);
  const opened = client.wait((e) => e.type === 'diagnostics' && e.uri === uri);
  client.c.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'markdown', version: 1, text: POLY('edited') },
  });
  await opened;
  const latencies = [];
  for (let v = 2; v <= 201; v++) {
    // Type one character into the name (a mismatch appears and goes), or into the tools list.
    const text = v % 2 ? POLY('edited', '') : POLY(`edited${v % 10}`, `    - file_raed${v}\n`);
    const got = client.wait((e) => e.type === 'diagnostics' && e.uri === uri && e.version === v, 30_000);
    const sent = performance.now();
    client.c.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ text }],
    });
    const e = await got;
    latencies.push(e.at - sent);
  }
  result['edit to diagnostics, median (ms)'] = median(latencies);
  result['edit to diagnostics, p90 (ms)'] = pct(latencies, 90);
  result['edit to diagnostics, max (ms)'] = Math.max(...latencies);

  // 3b. A burst of 1,000 edits sent without waiting (a macro, a multi-cursor edit): how many
  // versions get published on the way, and how long until the last one is.
  const BURST = 1000;
  const firstBurst = 202;
  const lastBurst = firstBurst + BURST - 1;
  let published = 0;
  const counting = (e) => {
    if (e.type === 'diagnostics' && e.uri === uri && e.version >= firstBurst) published++;
  };
  client.listeners.add(counting);
  const settled = client.wait((e) => e.type === 'diagnostics' && e.uri === uri && e.version === lastBurst, 60_000);
  const burstStart = performance.now();
  for (let v = firstBurst; v <= lastBurst; v++) {
    client.c.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: v },
      contentChanges: [{ text: POLY(`burst${v}`, '') }],
    });
  }
  await settled;
  result['burst of 1,000 edits: last version published after (ms)'] = performance.now() - burstStart;
  result['burst of 1,000 edits: versions published'] = published;
  client.listeners.delete(counting);

  // 4. Completion and hover latency, 100 requests each.
  const timed = async (method, params) => {
    const out = [];
    for (let i = 0; i < 100; i++) {
      const t = performance.now();
      await client.c.sendRequest(method, params);
      out.push(performance.now() - t);
    }
    return out;
  };
  const completion = await timed('textDocument/completion', {
    textDocument: { uri },
    position: { line: 6, character: 6 },
  });
  const hover = await timed('textDocument/hover', { textDocument: { uri }, position: { line: 5, character: 5 } });
  result['completion, median (ms)'] = median(completion);
  result['completion, p90 (ms)'] = pct(completion, 90);
  result['hover, median (ms)'] = median(hover);
  result['hover, p90 (ms)'] = pct(hover, 90);
  result['server peak RSS at the end (MiB)'] = peakRssMiB(client.child.pid);
  await client.stop();
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
for (const [k, v] of Object.entries(result))
  process.stderr.write(`${k}: ${typeof v === 'number' ? v.toFixed(1) : v}\n`);
console.log(JSON.stringify(result));
