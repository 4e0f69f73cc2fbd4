// Language-server numbers over stdio (`node dist/cli.js lsp --stdio`), as an editor sees them:
// start to first diagnostics, indexing a 10,000-definition workspace (time, peak RSS),
// edit-to-diagnostics latency over 200 edits, completion and hover latency, 10,000 separate
// watched-file notifications (republications of an open document, hover right after), and the
// longest hover wait while a huge folder (default `/`) is indexed after being added.
// Prints one JSON line (the last line of stdout). Run by bench/run.mjs, or alone:
//   node bench/server.mjs [--tmp DIR] [--size 10000] [--huge DIR|none] [--huge-seconds 5]
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateWorkspace } from './generate.mjs';
import { Client, median, pct, peakRssMiB, uriOf } from './lsp-client.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const size = Number(opt('--size', '10000'));
const tmpBase = opt('--tmp', undefined);
const huge = opt('--huge', '/');
const hugeSeconds = Number(opt('--huge-seconds', '5'));
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
  // Watchers registered by the client, as VS Code does (the server does not watch by itself).
  await client.init(big, { didChangeWatchedFiles: { dynamicRegistration: true } });
  await indexed;
  result[`index ${size.toLocaleString('en')} definitions (ms)`] = performance.now() - t0;
  result['server peak RSS after indexing (MiB)'] = peakRssMiB(client.child.pid);

  // 3. Edit-to-diagnostics latency over 200 edits, one at a time, in the indexed workspace.
  const uri = await openDefinition(client, path.join(big, 'projects/p0001/.polytoken/subagents/edited.md'), 'edited');
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
  result['edit to diagnostics, max (ms)'] = latencies.reduce((a, b) => Math.max(a, b), 0);

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

  // 5. Separate didChangeWatchedFiles notifications of one event each (a client that does not
  // batch them), each a definition of the open document's name coming or going: how long a
  // hover sent right after 10,000 of them waits, and how often the document is republished.
  Object.assign(result, await watchEvents(client, big));
  await client.stop();

  // 6. A huge folder (default `/`) added as a workspace folder: the longest a hover waits
  // while the server walks and indexes it.
  if (huge !== 'none') Object.assign(result, await hugeFolder(small, huge));
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
/** Opens a Polytoken definition named `name` and waits for its diagnostics; returns its URI. */
async function openDefinition(client, file, name) {
  const uri = uriOf(file);
  const opened = client.wait((e) => e.type === 'diagnostics' && e.uri === uri);
  client.c.sendNotification('textDocument/didOpen', {
    textDocument: { uri, languageId: 'markdown', version: 1, text: POLY(name) },
  });
  await opened;
  return uri;
}

async function watchEvents(client, big) {
  const EVENTS = 10_000;
  const PACED = 2_000;
  const out = {};
  const file = path.join(big, 'projects/p0002/.polytoken/subagents/watched.md');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, POLY('watched'));
  const uri = await openDefinition(client, file, 'watched');
  const created = [];
  for (let i = 0; i < EVENTS; i++) {
    const f = path.join(big, `extra/e${i}/.polytoken/subagents/watched.md`);
    fs.mkdirSync(path.dirname(f), { recursive: true });
    fs.writeFileSync(f, POLY('watched'));
    created.push(uriOf(f));
  }
  let republished = 0;
  const counting = (e) => {
    if (e.type === 'diagnostics' && e.uri === uri) republished++;
  };
  client.listeners.add(counting);
  // a. A burst (a branch switch): 10,000 notifications of one event each, then a hover.
  const t0 = performance.now();
  const writes = created.map((u) =>
    client.c.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: u, type: 1 }] }),
  );
  await Promise.all(writes); // written to the pipe: what follows measures the server, not this client's queue
  const sent = performance.now();
  await client.c.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 5, character: 5 } });
  out['10,000 watch notifications at once: hover sent after the last, answered after (ms)'] = performance.now() - sent;
  // Settled: the first and the last new definition are in the index (a closed definition of the
  // index resolves, anything else answers null), and nothing more is published for a while.
  for (const u of [created[0], created[EVENTS - 1]])
    while (!(await client.c.sendRequest('subagents/resolve', { uri: u }))) await new Promise((r) => setTimeout(r, 50));
  out['10,000 watch notifications at once: all indexed after (ms)'] = performance.now() - t0;
  await new Promise((r) => setTimeout(r, 1000));
  out['10,000 watch notifications at once: republications of the open document'] = republished;
  // b. Paced by an editor at work: 2,000 of them deleted, one notification each, every one
  // followed by a request, so the server is idle in between (a server that re-checks per
  // notification republishes the open document 2,000 times).
  for (let i = 0; i < PACED; i++) fs.rmSync(new URL(created[i]), { force: true });
  republished = 0;
  const t1 = performance.now();
  for (let i = 0; i < PACED; i++) {
    client.c.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri: created[i], type: 3 }] });
    await client.c.sendRequest('textDocument/foldingRange', { textDocument: { uri } });
  }
  out['2,000 watch notifications between requests: sent in (ms)'] = performance.now() - t1;
  while (await client.c.sendRequest('subagents/resolve', { uri: created[PACED - 1] }))
    await new Promise((r) => setTimeout(r, 50));
  await new Promise((r) => setTimeout(r, 1000));
  out['2,000 watch notifications between requests: republications of the open document'] = republished;
  client.listeners.delete(counting);
  return out;
}

async function hugeFolder(small, folder) {
  const client = new Client();
  await client.init(small, { workspaceFolders: true, didChangeWatchedFiles: { dynamicRegistration: true } });
  await client.wait((e) => e.type === 'progress' && e.value?.kind === 'end');
  const uri = await openDefinition(client, path.join(small, 'projects/p0000/.polytoken/subagents/first.md'), 'first');
  let ended = false;
  client
    .wait((e) => e.type === 'progress' && e.value?.kind === 'end', hugeSeconds * 1000 + 600_000)
    .then(
      () => (ended = true),
      () => undefined,
    );
  client.c.sendNotification('workspace/didChangeWorkspaceFolders', {
    event: { added: [{ uri: uriOf(folder), name: 'huge' }], removed: [] },
  });
  const waits = [];
  const start = performance.now();
  while (performance.now() - start < hugeSeconds * 1000 && !ended) {
    const t = performance.now();
    await client.c.sendRequest('textDocument/hover', { textDocument: { uri }, position: { line: 5, character: 5 } });
    waits.push(performance.now() - t);
    await new Promise((r) => setTimeout(r, 10));
  }
  await client.stop();
  const label = `add ${folder === '/' ? '/' : 'a huge folder'} as a workspace folder`;
  return {
    [`${label}: first hover answered after (ms)`]: waits[0],
    [`${label}: longest hover wait while indexing (ms)`]: waits.reduce((a, b) => Math.max(a, b), 0),
    [`${label}: median hover wait while indexing (ms)`]: median(waits),
    [`${label}: hovers answered in ${hugeSeconds} s`]: waits.length,
  };
}

for (const [k, v] of Object.entries(result))
  process.stderr.write(`${k}: ${typeof v === 'number' ? v.toFixed(1) : v}\n`);
console.log(JSON.stringify(result));
