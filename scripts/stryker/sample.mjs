// The overall mutation score estimated from a random sample of lines, for a tree whose full
// run (about 20,000 mutants) does not fit this machine (docs/testing.md).
//
//   node scripts/stryker/sample.mjs pick [--fraction 0.05] [--seed 1]   # prints a --mutate list
//   node scripts/stryker/sample.mjs score [report.json] [--seed 1]      # the estimate, with a 95 % interval
//
// `pick` draws each line of code (not blank, not only a comment) of shared/, cli/ and server/
// with probability --fraction, from a seeded generator, so a run can be repeated. `score` reads
// the report of `npm run mutate -- --mutate "$(node scripts/stryker/sample.mjs pick)"`: the share
// of mutants detected per top folder and overall. Mutants of one line are alike (often killed by
// the same test), so the interval comes from resampling the lines, not the mutants (a bootstrap
// over lines, 2,000 rounds).
import { readFileSync, readdirSync } from 'fs';
import * as path from 'path';

const ROOTS = ['shared', 'cli', 'server'];
// As stryker.config.mjs: generated from schemas/, tested by the schema tests.
const EXCLUDED = new Set(['shared/schema/validators.generated.ts']);
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const seed = Number(option('--seed', '1'));

/** mulberry32: a small seeded generator, the same draws on every machine. */
function generator(state) {
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function sources(dir, out = []) {
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) sources(full, out);
    else if (entry.isFile() && full.endsWith('.ts') && !EXCLUDED.has(full)) out.push(full);
  }
  return out;
}

const isCode = (line) => {
  const text = line.trim();
  return text !== '' && !text.startsWith('//') && !text.startsWith('*') && !text.startsWith('/*');
};

function pick() {
  const fraction = Number(option('--fraction', '0.05'));
  const random = generator(seed);
  const ranges = [];
  for (const file of ROOTS.flatMap((root) => sources(root))) {
    const lines = readFileSync(file, 'utf8').split('\n');
    let start = 0; // first line (1-based) of the open range, 0 when none
    for (let i = 0; i <= lines.length; i++) {
      const drawn = i < lines.length && isCode(lines[i]) && random() < fraction;
      if (drawn && !start) start = i + 1;
      if (!drawn && start) {
        ranges.push(`${file}:${start}-${i}`);
        start = 0;
      }
    }
  }
  console.log(ranges.join(','));
}

function score() {
  const reportPath = args.find((a, i) => i > 0 && !a.startsWith('--') && args[i - 1] !== '--seed');
  const report = JSON.parse(readFileSync(reportPath ?? 'reports/mutation/mutation.json', 'utf8'));
  // One cluster per line: [folder, detected, undetected].
  const clusters = new Map();
  for (const [file, { mutants }] of Object.entries(report.files))
    for (const mutant of mutants) {
      const detected = DETECTED.has(mutant.status);
      if (!detected && !UNDETECTED.has(mutant.status)) continue;
      const key = `${file}:${mutant.location.start.line}`;
      const cluster = clusters.get(key) ?? [file.split('/')[0], 0, 0];
      cluster[detected ? 1 : 2]++;
      clusters.set(key, cluster);
    }
  const random = generator(seed);
  for (const folder of [...ROOTS, 'all']) {
    const lines = [...clusters.values()].filter(([f]) => folder === 'all' || f === folder);
    if (!lines.length) continue;
    const share = (sample) => {
      let detected = 0;
      let total = 0;
      for (const [, d, u] of sample) {
        detected += d;
        total += d + u;
      }
      return detected / total;
    };
    const rounds = [];
    for (let r = 0; r < 2000; r++)
      rounds.push(share(Array.from(lines, () => lines[Math.floor(random() * lines.length)])));
    rounds.sort((a, b) => a - b);
    const mutants = lines.reduce((n, [, d, u]) => n + d + u, 0);
    const pct = (x) => (100 * x).toFixed(1);
    console.log(
      `${folder.padEnd(7)} ${pct(share(lines)).padStart(5)} %  (95 %: ${pct(rounds[49])}–${pct(rounds[1949])})  ` +
        `${mutants} mutants on ${lines.length} lines`,
    );
  }
}

if (args[0] === 'pick') pick();
else if (args[0] === 'score') score();
else {
  console.error('usage: sample.mjs pick [--fraction F] [--seed N] | score [report.json] [--seed N]');
  process.exit(2);
}
