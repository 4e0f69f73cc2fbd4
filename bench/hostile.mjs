// Hostile inputs, each a small workspace checked by the built CLI as a process: time and
// peak RSS of one run, and whether the outcome is the expected one (exit status, the
// hostile file's diagnostics, and the neighbouring definition's own finding, which every
// workspace holds: a Polytoken file whose name differs from its file name).
// Prints one JSON line (the last line of stdout): { case: { ms, rssMiB, ok, note } }.
//
//   node bench/hostile.mjs [--only SUBSTRING] [--keep]
import { execFileSync, spawnSync } from 'child_process';
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { fileURLToPath } from 'url';
import { measure } from './measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(path.dirname(here), 'dist', 'cli.js');
const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const TIMEOUT_MS = 120_000;

const NEIGHBOUR = [
  '.polytoken/subagents/neighbour.md',
  '---\nname: other\ndescription: d\npolytoken:\n  tools: [file_read]\n---\nBody.\n',
];
const lines = (n, line) => Array.from({ length: n }, (_, i) => line(i)).join('\n') + '\n';
const write = (ws, rel, text) => {
  fs.mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true });
  fs.writeFileSync(path.join(ws, rel), text);
};
const linux = process.platform === 'linux';
const withCache = (ws) => ['check', ws, '--format', 'json', '--no-global', '--cache'];

/**
 * Each case: `files` (relative path → text), `setup(ws)` for what is not a plain file,
 * `argv` (default: check the workspace), `neighbour: false` when the output is not a check
 * report, and `expect(report)` → a problem or undefined.
 */
const CASES = {
  'Profy: 200,000 repeats of one key (1.2 MB)': {
    files: { 'dup.expert.json': '{"name":"x"' + ',"a":1'.repeat(200_000) + '}' },
    expect: (r) =>
      diag(r, 'dup.expert.json').some((d) => d.rule === 'syntax/json')
        ? 'a repeated key is not a syntax error'
        : undefined,
  },
  '130,000 folders in one folder': {
    setup: (ws) => {
      for (let i = 0; i < 130_000; i++) fs.mkdirSync(path.join(ws, 'many', `d${i}`), { recursive: true });
    },
  },
  'Picasso: 130,000 unknown tools (1.3 MB)': {
    files: { 'apps/cli/agents/huge.yaml': 'name: huge\ntools:\n' + lines(130_000, (i) => `  - t${i}`) },
    expect: (r) => expectCount(diag(r, 'apps/cli/agents/huge.yaml'), 'picasso/unknown-tool', 1001),
  },
  'JSON: `{` and 1,000,000 commas (1 MB)': {
    files: { 'commas.expert.json': '{' + ','.repeat(1_000_000) },
    expect: (r) => expectCount(diag(r, 'commas.expert.json'), 'syntax/json', 51),
  },
  'JSON: `{` and 4,000,000 commas (4 MB)': {
    files: { 'commas.expert.json': '{' + ','.repeat(4_000_000) },
    expect: (r) => expectCount(diag(r, 'commas.expert.json'), 'syntax/json', 51),
  },
  '.subagents.yaml of 4.8 MB (300,000 ignore globs)': {
    files: { '.subagents.yaml': 'ignore:\n' + lines(300_000, (i) => `  - "x${i}/**"`) },
    expect: (r) => expectCount(diag(r, '.subagents.yaml'), 'config/invalid', 1),
  },
  '.subagents.yaml of 5.5 MB (refused)': {
    files: { '.subagents.yaml': 'ignore:\n' + lines(340_000, (i) => `  - "x${i}/**"`) },
    expect: (r) => expectCount(diag(r, '.subagents.yaml'), 'config/invalid', 1),
  },
  '.subagents.yaml with NUL bytes': {
    files: { '.subagents.yaml': 'rules:\n  polytoken/name-mismatch: off\u0000\n' },
    expect: (r) => expectCount(diag(r, '.subagents.yaml'), 'config/invalid', 1),
  },
  'YAML: 16,000 aliases `*x` (109 KB)': {
    files: { 'apps/cli/agents/aliases.yaml': 'name: aliases\nx: &x 1\nl:\n' + '  - *x\n'.repeat(16_000) },
  },
  'YAML: 40,000 block keys (390 KB)': {
    files: { 'apps/cli/agents/keys.yaml': 'name: keys\n' + lines(40_000, (i) => `k${i}: 1`) },
  },
  'YAML: 80,000 block keys (790 KB)': {
    files: { 'apps/cli/agents/keys.yaml': 'name: keys\n' + lines(80_000, (i) => `k${i}: 1`) },
  },
  'YAML: 80,000 repeats of one key': {
    files: { 'apps/cli/agents/keys.yaml': 'name: keys\n' + lines(80_000, () => 'k: 1') },
    expect: (r) => expectCount(diag(r, 'apps/cli/agents/keys.yaml'), 'syntax/yaml', 51),
  },
  'YAML: 40,000 suppression comments': {
    files: {
      'apps/cli/agents/quiet.yaml':
        'name: quiet\n' + '# subagents-disable-next-line picasso/unknown-key\n'.repeat(40_000),
    },
  },
  'glob `**/*a*a*a*a*a*a*a*a*a*a*b` in ignore, 40-character names': {
    files: {
      '.subagents.yaml': 'ignore: ["**/*a*a*a*a*a*a*a*a*a*a*b"]\n',
      ...Object.fromEntries([0, 1, 2].map((i) => [`apps/cli/agents/${'a'.repeat(40)}${i}.yaml`, 'name: x\n'])),
    },
    expect: (r) => expectCount(diag(r, '.subagents.yaml'), 'config/invalid', 1),
  },
  'Profy glob `a*a*…*b` (40 stars) against a 100,000-character tool': {
    files: {
      'glob.expert.json': JSON.stringify({
        name: 'glob',
        description: 'd',
        tools: ['a'.repeat(100_000), 'read'],
        subagents: [{ name: 's', description: 'd', system_prompt: 'p', tools: ['a*'.repeat(40) + 'b', 'read'] }],
      }),
    },
    expect: (r) =>
      diag(r, 'glob.expert.json').some((d) => d.rule === 'profy/unresolved-tool')
        ? undefined
        : 'the glob that matches nothing is reported',
  },
  'Profy: 40,000 tools, one allowlist of 40,000 other names (did-you-mean for each)': {
    files: {
      'big.expert.json': JSON.stringify({
        name: 'big',
        description: 'd',
        delegationBrief: 'b',
        tools: lines(40_000, (i) => `tool_number_${i}`).split('\n'),
        subagents: [
          {
            name: 's',
            description: 'd',
            system_prompt: 'p',
            tools: lines(40_000, (i) => `other_name_${i}`).split('\n'),
          },
        ],
      }),
    },
    expect: (r) => expectCount(diag(r, 'big.expert.json'), 'profy/unresolved-tool', 1001),
  },
  'Profy: 80,000 tools of the wrong type (a path for each problem)': {
    files: {
      'typed.expert.json': JSON.stringify({
        name: 'typed',
        description: 'd',
        delegationBrief: 'b',
        tools: Array.from({ length: 80_000 }, (_, i) => i),
        subagents: [{ name: 's', description: 'd', system_prompt: 'p' }],
      }),
    },
    expect: (r) => expectCount(diag(r, 'typed.expert.json'), 'profy/invalid-value', 1001),
  },
  'Profy: 20,000 globs `*x<n>*` against 20,000 tools (past the match budget)': {
    files: {
      'globs.expert.json': JSON.stringify({
        name: 'globs',
        description: 'd',
        delegationBrief: 'b',
        tools: lines(20_000, (i) => `tool_${i}`).split('\n'),
        subagents: [
          { name: 's', description: 'd', system_prompt: 'p', tools: lines(20_000, (i) => `*x${i}*`).split('\n') },
        ],
      }),
    },
    expect: (r) => expectCount(diag(r, 'globs.expert.json'), 'profy/unknown-toolset', 1),
  },
  'Polytoken: a 50,000-value status enum': {
    files: {
      '.polytoken/subagents/triage.md': `---\nname: triage\ndescription: d\npolytoken:\n  exit_tool_schema:\n    type: object\n    properties:\n      status: { type: string, enum: [${lines(
        50_000,
        (i) => `v${i}`,
      )
        .split('\n')
        .join(', ')}] }\n---\nBody.\n`,
    },
    expect: (r) => expectCount(diag(r, '.polytoken/subagents/triage.md'), 'polytoken/invalid-exit-schema', 1),
  },
  ...(linux
    ? {
        'a FIFO and a /dev/zero link in polytoken.subagentDirs': {
          files: { '.subagents.yaml': 'polytoken:\n  subagentDirs: [vendor]\n' },
          setup: (ws) => {
            fs.mkdirSync(path.join(ws, 'vendor'));
            execFileSync('mkfifo', [path.join(ws, 'vendor/pipe.md')]);
            fs.symlinkSync('/dev/zero', path.join(ws, 'vendor/zero.md'));
          },
        },
        'resolve next to a FIFO and a /dev/zero link': {
          setup: (ws) => {
            execFileSync('mkfifo', [path.join(ws, '.polytoken/subagents/pipe.md')]);
            fs.symlinkSync('/dev/zero', path.join(ws, '.polytoken/subagents/zero.md'));
          },
          argv: (ws) => ['resolve', path.join(ws, NEIGHBOUR[0]), '--format', 'json', '--no-global'],
          neighbour: false,
          status: 0,
          expect: (r) => (r.definitions?.[0]?.status === 'rejected' ? undefined : 'the neighbour is resolved'),
        },
        'a link to / in the workspace': {
          setup: (ws) => fs.symlinkSync('/', path.join(ws, 'everything')),
        },
        'check --cache: the cache is a link to /dev/zero': {
          setup: (ws) => fs.symlinkSync('/dev/zero', path.join(ws, '.subagentscache')),
          argv: withCache,
        },
        'check --cache: --cache-location outside the workspace, a link to /dev/zero': {
          setup: (ws) => fs.symlinkSync('/dev/zero', path.join(ws, '..', 'zero.cache')),
          argv: (ws) => [...withCache(ws), '--cache-location', path.join(ws, '..', 'zero.cache')],
        },
        'check --cache: the cache is a FIFO': {
          setup: (ws) => execFileSync('mkfifo', [path.join(ws, '.subagentscache')]),
          argv: withCache,
        },
        'check --cache: a 1.5 GB sparse cache': {
          setup: (ws) => fs.ftruncateSync(fs.openSync(path.join(ws, '.subagentscache'), 'w'), 1536 * 1024 * 1024),
          argv: withCache,
        },
      }
    : {}),
  'check --cache: a forged cache (every report emptied, a plain sha256 as its first line)': {
    setup: (ws) => {
      spawnSync(process.execPath, [cli, ...withCache(ws)], { cwd: ws, env: benchEnv, stdio: 'ignore' }); // exits 1
      const file = path.join(ws, '.subagentscache');
      const text = fs.readFileSync(file, 'utf8');
      const doc = JSON.parse(text.slice(text.indexOf('\n') + 1));
      for (const entry of Object.values(doc.files)) entry[2] = [];
      const json = JSON.stringify(doc);
      fs.writeFileSync(file, `${createHash('sha256').update(json).digest('base64')}\n${json}`);
    },
    argv: withCache,
  },
};

function diag(report, rel) {
  return report.files?.find((f) => f.path === rel)?.diagnostics ?? [];
}

function expectCount(diagnostics, rule, n) {
  const got = diagnostics.filter((d) => d.rule === rule).length;
  return got === n ? undefined : `${got} ${rule}, expected ${n}`;
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-hostile-'));
// The key of `check --cache` is made here, not in the user's own cache folder.
const benchEnv = { ...process.env, XDG_CACHE_HOME: path.join(tmp, 'xdg-cache') };
const result = {};
try {
  let index = 0;
  for (const [label, c] of Object.entries(CASES)) {
    if (only && !label.includes(only)) continue;
    const ws = path.join(tmp, String(index++));
    fs.mkdirSync(ws);
    write(ws, ...NEIGHBOUR);
    for (const [rel, text] of Object.entries(c.files ?? {})) write(ws, rel, text);
    c.setup?.(ws);
    const out = path.join(tmp, 'out.json');
    const argv = c.argv ? c.argv(ws) : ['check', ws, '--format', 'json', '--no-global'];
    const m = measure([cli, ...argv], { stdoutFile: out, cwd: ws, timeout: TIMEOUT_MS, env: benchEnv });
    let note;
    if (m.timedOut) note = `did not finish in ${TIMEOUT_MS / 1000} s`;
    else if (m.status !== (c.status ?? 1)) note = `exit ${m.status}: ${m.stderr.trim().split('\n')[0]}`;
    else {
      try {
        const report = JSON.parse(fs.readFileSync(out, 'utf8'));
        note =
          c.neighbour === false ? undefined : expectCount(diag(report, NEIGHBOUR[0]), 'polytoken/name-mismatch', 1);
        note ??= c.expect?.(report);
      } catch (e) {
        note = `no report: ${String(e).split('\n')[0]}`;
      }
    }
    result[label] = { ms: Math.round(m.wall), rssMiB: Math.round(m.rss), ok: !note, ...(note ? { note } : {}) };
    process.stderr.write(
      `${label}: ${Math.round(m.wall)} ms, ${Math.round(m.rss)} MiB${note ? ` — PROBLEM: ${note}` : ''}\n`,
    );
    if (!args.includes('--keep')) fs.rmSync(ws, { recursive: true, force: true });
  }
} finally {
  if (!args.includes('--keep')) fs.rmSync(tmp, { recursive: true, force: true });
}
console.log(JSON.stringify(result));
process.exitCode = Object.values(result).every((r) => r.ok) ? 0 : 1;
