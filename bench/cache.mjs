// `check --cache` on the generated 10,000-definition workspace: a run without cache
// (plain), a first run with an empty cache (cold) and a second one on the unchanged
// workspace (warm), interleaved, median of --runs. Verifies that every output is the
// same bytes, prints a table (or, with --json, one JSON line for bench/run.mjs).
//
//   node bench/cache.mjs [--size 10000] [--runs 5] [--json] [--keep]
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fileURLToPath } from 'url';
import { generateWorkspace } from './generate.mjs';
import { measure, median } from './measure.mjs';

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
};
const times = { plain: [], cold: [], warm: [] };
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
    const plain = fs.readFileSync(outputs.plain);
    for (const kind of ['cold', 'warm'])
      if (!plain.equals(fs.readFileSync(outputs[kind])))
        throw new Error(`the ${kind} run printed other bytes than the run without cache`);
  }
} finally {
  if (!args.includes('--keep')) fs.rmSync(tmp, { recursive: true, force: true });
  else process.stderr.write(`kept ${tmp}\n`);
}

const summary = (kind) => ({
  wallMs: median(times[kind].map((m) => m.wall)),
  bestMs: Math.min(...times[kind].map((m) => m.wall)),
  cpuMs: median(times[kind].map((m) => m.cpu ?? NaN)),
  rssMiB: Math.max(...times[kind].map((m) => m.rss)),
});
const result = {
  definitions: size,
  runs,
  load: os.loadavg(),
  cacheBytes,
  plain: summary('plain'),
  cold: summary('cold'),
  warm: summary('warm'),
};
result.warmOverCold = result.warm.wallMs / result.cold.wallMs;
result.warmOverColdBest = result.warm.bestMs / result.cold.bestMs;
result.warmOverColdCpu = result.warm.cpuMs / result.cold.cpuMs;

if (asJson) console.log(JSON.stringify(result));
else {
  const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : 'n/a');
  console.log(
    `check --cache on ${size.toLocaleString('en')} definitions: node ${process.version}, ${os.availableParallelism()} cores, load ${result.load.map((l) => l.toFixed(2)).join(' ')}, median of ${runs}; cache file ${(cacheBytes / 1024 / 1024).toFixed(1)} MiB`,
  );
  console.log('');
  console.log('| run | wall (ms) | best (ms) | CPU (ms) | peak RSS (MiB) |');
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const kind of ['plain', 'cold', 'warm']) {
    const s = result[kind];
    console.log(`| ${kind} | ${fmt(s.wallMs)} | ${fmt(s.bestMs)} | ${fmt(s.cpuMs)} | ${fmt(s.rssMiB)} |`);
  }
  console.log(
    `| warm / cold | ${fmt(100 * result.warmOverCold, 1)} % | ${fmt(100 * result.warmOverColdBest, 1)} % | ${fmt(100 * result.warmOverColdCpu, 1)} % | |`,
  );
}
