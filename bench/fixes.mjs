// "Fix all" on files with many findings: how many rounds, how many analyses the verification
// of the fixes costs (docs/fixes.md), and how long it takes. Uses the compiled engine in out/
// (`npx tsc -p .` first). Prints a table and one JSON line (the last line of stdout).
//   node bench/fixes.mjs [--runs 3]
import { createRequire } from 'module';
import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(path.dirname(here), 'out');
if (!fs.existsSync(path.join(out, 'shared/fixes/apply.js'))) {
  console.error('out/ is missing: run `npx tsc -p .` first');
  process.exit(2);
}
const require = createRequire(import.meta.url);
const { fixAll } = require(path.join(out, 'shared/fixes/apply.js'));
const { analyze } = require(path.join(out, 'shared/engine.js'));
const { defaultLoadedConfig } = require(path.join(out, 'shared/config/config.js'));
const args = process.argv.slice(2);
const runs = Number(args.includes('--runs') ? args[args.indexOf('--runs') + 1] : 3);

const tools = Array.from({ length: 500 }, (_, i) => `t${i}`);
const pairs = [];
for (let i = 0; i < 500; i++)
  for (const sep of [' ', '\\t'])
    pairs.push(`{ "name": "a${sep}${i}", "description": "d", "system_prompt": "p", "tools": ["read"] }`);
const CASES = {
  'Picasso role listing 500 tools it also denies (every fix holds)': [
    '/ws/apps/cli/agents/big.yaml',
    `name: big\ninvocation: "@big"\nmodel: m\nmax_steps: 3\nmax_depth: 0\ntools:\n${tools.map((t) => `  - ${t}`).join('\n')}\ndeny:\n${tools.map((t) => `  - ${t}`).join('\n')}\n`,
  ],
  'Profy Expert, 1,000 names in pairs one fix makes equal (half the fixes fail)': [
    '/ws/big.expert.json',
    `{\n  "name": "big",\n  "description": "d",\n  "delegationBrief": "b",\n  "tools": ["read"],\n  "subagents": [\n    ${pairs.join(',\n    ')}\n  ]\n}\n`,
  ],
  'Picasso role with 10 findings (each fix checked alone)': [
    '/ws/apps/cli/agents/small.yaml',
    'name: small\ninvocation: "@small"\nmodel: m\nmax_steps: 3\nmax_depth: 0\ntools: [t0, t1, t2, t3, t4]\ndeny: [t0, t1, t2, t3, t4]\n',
  ],
};

const median = (xs) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1];
const result = {};
for (const [label, [file, text]] of Object.entries(CASES)) {
  const input = { text, path: file, config: defaultLoadedConfig('/ws'), root: '/ws' };
  const analyseMs = [];
  const fixMs = [];
  let last;
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    const findings = analyze(input).findings.length;
    analyseMs.push(performance.now() - t);
    t = performance.now();
    last = { findings, fix: fixAll(input) };
    fixMs.push(performance.now() - t);
  }
  const { findings, fix } = last;
  result[label] = {
    findings,
    rounds: fix.rounds,
    analyses: fix.analyses,
    applied: fix.applied.length,
    left: fix.demoted.length,
    analyseMs: Math.round(median(analyseMs)),
    fixAllMs: Math.round(median(fixMs)),
  };
}
console.log('| file | findings | rounds | analyses to verify | applied | left | one analysis (ms) | Fix all (ms) |');
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const [label, r] of Object.entries(result))
  console.log(
    `| ${label} | ${r.findings} | ${r.rounds} | ${r.analyses} | ${r.applied} | ${r.left} | ${r.analyseMs} | ${r.fixAllMs} |`,
  );
console.log(JSON.stringify(result));
