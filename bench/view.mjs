// The workspace view's numbers over stdio (`node dist/cli.js lsp --stdio`), on a generated
// workspace (bench/generate.mjs; a Profy Expert holds several definitions): time until the
// background pass is complete, `subagents/workspace` answer times during the pass and after it
// (target: under 300 ms), the server's RSS before and after the pass, and the time from a file
// changed on disk to the `subagents/workspaceChanged` naming it.
// Prints one JSON line (the last line of stdout). Run by bench/run.mjs, or alone:
//   node bench/view.mjs [--tmp DIR] [--size 10000] [--requests 15]
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { generateWorkspace } from './generate.mjs';
import { Client, median, pct, peakRssMiB, rssMiB, uriOf } from './lsp-client.mjs';

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const size = Number(opt('--size', '10000'));
const requests = Number(opt('--requests', '15'));
const tmp = fs.mkdtempSync(path.join(opt('--tmp', os.tmpdir()), 'subagents-view-bench-'));

const result = {};
try {
  const ws = path.join(tmp, `ws-${size}`);
  const counts = generateWorkspace(ws, size);
  const client = new Client();
  const pid = client.child.pid;
  const indexed = client.wait((e) => e.type === 'progress' && e.value?.kind === 'end');
  const told = [];
  client.listeners.add((e) => e.type === 'workspaceChanged' && told.push(e));
  const t0 = performance.now();
  await client.init(ws);
  const ask = async (params = {}) => {
    const t = performance.now();
    const r = await client.c.sendRequest('subagents/workspace', params);
    return { r, ms: performance.now() - t };
  };
  // Asked at once (as the view does when it opens): the answer is incomplete, and subscribes.
  const first = await ask();
  if (first.r.complete) throw new Error('the first answer, before indexing, said complete');
  await indexed;
  const indexMs = performance.now() - t0;
  const rssBefore = rssMiB(pid);

  // As the view does: on each notification, ask again, until the answer is complete.
  const during = [];
  let ended;
  let last;
  let seen = 0;
  while (ended === undefined) {
    if (told.length === seen) await client.wait((e) => e.type === 'workspaceChanged');
    seen = told.length;
    last = await ask();
    if (last.r.complete) ended = told[seen - 1].at;
    else during.push(last.ms);
  }
  const rssAfter = rssMiB(pid);

  const answers = [];
  let bytes = 0;
  for (let i = 0; i < requests; i++) {
    const { r, ms } = await ask();
    answers.push(ms);
    bytes = JSON.stringify(r).length;
  }

  // One file changed on disk (renamed inside, so the runtime rejects it): the notification naming it.
  const file = fs
    .readdirSync(path.join(ws, 'projects/p0001/.polytoken/subagents'))
    .map((f) => path.join(ws, 'projects/p0001/.polytoken/subagents', f))[0];
  fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replace(/^name: (.*)$/m, 'name: $1-edited'));
  const uri = uriOf(file);
  const named = client.wait((e) => e.type === 'workspaceChanged' && e.uris.includes(uri), 30_000);
  const sent = performance.now();
  client.c.sendNotification('workspace/didChangeWatchedFiles', { changes: [{ uri, type: 2 }] });
  const pushMs = (await named).at - sent;

  result['definition files'] = counts.polytoken + counts.picasso + counts.profy;
  result['definitions in the answer'] = last.r.definitions.length;
  result['answer size (KiB)'] = bytes / 1024;
  result['index built (ms from initialize)'] = indexMs;
  result['complete (ms from initialize)'] = ended - t0;
  result['background pass (ms after the index)'] = ended - t0 - indexMs;
  result['answers during the pass'] = during.length;
  result['answer during the pass, median (ms)'] = during.length ? median(during) : NaN;
  result['answer during the pass, max (ms)'] = during.length ? during.reduce((a, b) => Math.max(a, b)) : NaN;
  result[`answer when complete, p50 of ${requests} (ms)`] = median(answers);
  result[`answer when complete, p90 of ${requests} (ms)`] = pct(answers, 90);
  result['file changed on disk to workspaceChanged (ms)'] = pushMs;
  result['server RSS before the pass (MiB)'] = rssBefore;
  result['server RSS after the pass (MiB)'] = rssAfter;
  result['server peak RSS (MiB)'] = peakRssMiB(pid);
  await client.stop();
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
for (const [k, v] of Object.entries(result))
  process.stderr.write(`${k}: ${typeof v === 'number' ? v.toFixed(1) : v}\n`);
console.log(JSON.stringify(result));
