// Pathological inputs, timed through the CLI: each file alone in a workspace, checked by
// `node dist/cli.js check FILE --format json`, minus a tiny valid file's time (start-up).
// Prints one JSON line (the last line of stdout): milliseconds per case, median of 3.
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(path.dirname(here), 'dist', 'cli.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-limits-'));
const N = 100_000;
const levels = 'abcdefghij'.split('');
let bomb = `${levels[0]}: &${levels[0]} [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n`;
for (let i = 1; i < levels.length; i++)
  bomb += `${levels[i]}: &${levels[i]} [${Array(9)
    .fill('*' + levels[i - 1])
    .join(', ')}]\n`;
const noisy = ['name: huge', 'tools:'];
for (let i = 0, size = 0; size < 1024 * 1024; i++) {
  noisy.push(`  - tol_${i}`);
  size += noisy[noisy.length - 1].length + 1;
}
const CASES = {
  'baseline: a small valid role': [
    'apps/cli/agents/code_review.yaml',
    'name: code_review\ninvocation: "@code_review"\nmodel: m\ntools: [read_file]\nmax_steps: 3\nmax_depth: 0\n',
  ],
  'alias bomb (9^10 nodes if expanded)': [
    'apps/cli/agents/bomb.yaml',
    bomb + 'tools: *j\ndeny: *j\noutput_schema: *j\n',
  ],
  'YAML: 100,000 nested [': ['apps/cli/agents/deep.yaml', `tools: ${'['.repeat(N)}${']'.repeat(N)}\n`],
  'JSON: 100,000 nested [': ['deep.expert.json', `{"tools": ${'['.repeat(N)}${']'.repeat(N)}}`],
  'Markdown: 100,000 nested [ in a frontmatter': [
    '.polytoken/subagents/deep.md',
    `---\nname: deep\npolytoken:\n  tools: ${'['.repeat(N)}\n---\n`,
  ],
  '1 MB role, ~75,000 findings': ['apps/cli/agents/huge.yaml', noisy.join('\n')],
  '5 MB + 1 (reported, not parsed)': ['apps/cli/agents/big.yaml', 'name: big\n# ' + 'x'.repeat(5 * 1024 * 1024)],
  '10 MB (reported, not parsed)': ['apps/cli/agents/big10.yaml', 'name: big\n# ' + 'x'.repeat(10 * 1024 * 1024)],
  'NUL bytes (binary, skipped)': ['apps/cli/agents/bin.yaml', 'name: x\n\u0000\u0001'],
};
const result = {};
try {
  let baseline = 0;
  for (const [label, [rel, text]] of Object.entries(CASES)) {
    const ws = path.join(tmp, String(Object.keys(result).length));
    fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
    fs.writeFileSync(path.join(ws, rel), text);
    const times = [];
    for (let r = 0; r < 3; r++) {
      const t = performance.now();
      const out = spawnSync(process.execPath, [cli, 'check', path.join(ws, rel), '--format', 'json', '--no-global'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      times.push(performance.now() - t);
      if (out.status !== 0 && out.status !== 1) throw new Error(`${label}: exit ${out.status} ${out.stderr}`);
    }
    const ms = times.sort((a, b) => a - b)[1];
    if (!baseline) baseline = ms;
    result[label] = label.startsWith('baseline') ? ms : Math.max(0, ms - baseline);
    process.stderr.write(`${label}: ${result[label].toFixed(0)} ms\n`);
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
