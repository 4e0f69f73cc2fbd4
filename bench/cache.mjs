// `check --cache` on the generated 10,000-definition workspace: a run without cache
// (plain), a first run with an empty cache (cold), a second one on the unchanged
// workspace (warm: every file settled, so its stamp answers with one stat), and one after
// every file got a new mtime and ctime with the same contents (content: a fresh CI
// checkout, every file read and hashed again but none analyzed), then with
// `--cache-strategy content` (what CI is told to use: every file read and hashed, no stamp
// kept, the cache not rewritten), interleaved, median of --runs. Verifies that every output is the same bytes, prints a table (or, with --json,
// one JSON line for bench/run.mjs).
//
//   node bench/cache.mjs [--size 10000] [--runs 5] [--json] [--keep]
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fileURLToPath } from 'url';
import { generateWorkspace } from './generate.mjs';
import { bundleKind, measure, median } from './measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(path.dirname(here), 'dist', 'cli.js');
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const size = Number(opt('--size', '10000'));
const runs = Number(opt('--runs', '5'));
const asJson = args.includes('--json');

if (!fs.existsSync(cli)) {
  console.error('dist/cli.js is missing: run `npm run build` first');
  process.exit(2);
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-bench-cache-'));
const ws = path.join(tmp, 'ws');
const cacheFile = path.join(tmp, 'check.cache');
const outputs = {
  plain: path.join(tmp, 'plain.json'),
  cold: path.join(tmp, 'cold.json'),
  warm: path.join(tmp, 'warm.json'),
  content: path.join(tmp, 'content.json'),
  byContent: path.join(tmp, 'by-content.json'),
};
const KINDS = ['plain', 'cold', 'warm', 'content', 'byContent'];
const LABELS = { byContent: 'content, --cache-strategy content' };
const times = { plain: [], cold: [], warm: [], content: [], byContent: [] };

/** Every regular file under `dir` gets the current time as its mtime (and so a new ctime), its bytes unchanged. */
function touchAll(dir) {
  const now = new Date();
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) touchAll(full);
    else if (e.isFile()) fs.utimesSync(full, now, now);
  }
}

/** The stamps' racy-timestamp rule (cli/batch/file-digest.ts) keeps no stamp for a file changed in the last 2 s. */
const SETTLE_MS = 2100;
const sleep = (ms) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
let cacheBytes;
try {
  generateWorkspace(ws, size);
  const check = (kind, extra) => {
    // From the workspace's root, as in CI (`subagents check .`): paths are reported relative to it.
    const m = measure([cli, 'check', '.', '--format', 'json', ...extra], { stdoutFile: outputs[kind], cwd: ws });
    if (m.status !== 0 && m.status !== 1) throw new Error(`${kind} run exited ${m.status}: ${m.stderr.slice(0, 500)}`);
    times[kind].push(m);
  };
  for (let r = 0; r < runs; r++) {
    check('plain', []);
    fs.rmSync(cacheFile, { force: true });
    check('cold', ['--cache', '--cache-location', cacheFile]);
    cacheBytes = fs.statSync(cacheFile).size;
    check('warm', ['--cache', '--cache-location', cacheFile]);
    // As after a fresh checkout and the install steps before the check: new stamps, settled.
    touchAll(ws);
    sleep(SETTLE_MS);
    check('content', ['--cache', '--cache-location', cacheFile]);
    // Its cost does not depend on the stamps: it trusts none.
    check('byContent', ['--cache', '--cache-location', cacheFile, '--cache-strategy', 'content']);
    const plain = fs.readFileSync(outputs.plain);
    for (const kind of ['cold', 'warm', 'content', 'byContent'])
      if (!plain.equals(fs.readFileSync(outputs[kind])))
        throw new Error(`the ${kind} run printed other bytes than the run without cache`);
  }
} finally {
  if (!args.includes('--keep')) fs.rmSync(tmp, { recursive: true, force: true });
  else process.stderr.write(`kept ${tmp}\n`);
}

const summary = (kind) => ({
  wallMs: median(times[kind].map((m) => m.wall)),
  bestMs: times[kind].reduce((best, m) => Math.min(best, m.wall), Infinity),
  cpuMs: median(times[kind].map((m) => m.cpu ?? NaN)),
  rssMiB: times[kind].reduce((best, m) => Math.max(best, m.rss), -Infinity),
});
const result = {
  definitions: size,
  runs,
  load: os.loadavg(),
  bundle: bundleKind(),
  cacheBytes,
  plain: summary('plain'),
  cold: summary('cold'),
  warm: summary('warm'),
  content: summary('content'),
  byContent: summary('byContent'),
};
result.warmOverCold = result.warm.wallMs / result.cold.wallMs;
result.warmOverColdBest = result.warm.bestMs / result.cold.bestMs;
result.warmOverColdCpu = result.warm.cpuMs / result.cold.cpuMs;
result.contentOverWarm = result.content.wallMs / result.warm.wallMs;
result.contentOverWarmBest = result.content.bestMs / result.warm.bestMs;
result.contentOverWarmCpu = result.content.cpuMs / result.warm.cpuMs;
result.byContentOverWarm = result.byContent.wallMs / result.warm.wallMs;
result.byContentOverWarmBest = result.byContent.bestMs / result.warm.bestMs;
result.byContentOverWarmCpu = result.byContent.cpuMs / result.warm.cpuMs;

if (asJson) console.log(JSON.stringify(result));
else {
  const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  console.log(
    `check --cache on ${size.toLocaleString('en')} definitions: node ${process.version}, ${os.availableParallelism()} cores, load ${result.load.map((l) => l.toFixed(2)).join(' ')}, median of ${runs}, ${result.bundle} bundle; cache file ${(cacheBytes / 1024 / 1024).toFixed(1)} MiB`,
  );
  console.log('');
  console.log('| run | wall (ms) | best (ms) | CPU (ms) | peak RSS (MiB) |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const kind of KINDS) {
    const s = result[kind];
    console.log(
      `| ${LABELS[kind] ?? kind} | ${fmt(s.wallMs)} | ${fmt(s.bestMs)} | ${fmt(s.cpuMs)} | ${fmt(s.rssMiB)} |`,
    );
  }
  console.log(
    `| warm / cold | ${fmt(100 * result.warmOverCold, 1)} % | ${fmt(100 * result.warmOverColdBest, 1)} % | ${fmt(100 * result.warmOverColdCpu, 1)} % | |`,
  );
  console.log(
    `| content / warm | ${fmt(100 * result.contentOverWarm, 1)} % | ${fmt(100 * result.contentOverWarmBest, 1)} % | ${fmt(100 * result.contentOverWarmCpu, 1)} % | |`,
  );
  console.log(
    `| content (strategy content) / warm | ${fmt(100 * result.byContentOverWarm, 1)} % | ${fmt(100 * result.byContentOverWarmBest, 1)} % | ${fmt(100 * result.byContentOverWarmCpu, 1)} % | |`,
  );
}
