// Runs `node …argv` once and measures it: wall ms, peak RSS (MiB), CPU ms (user + system),
// exit status. Peak RSS comes from /usr/bin/time -v's "maximum resident set size", or,
// without it, from bench/rss-preload.cjs (process.resourceUsage().maxRSS at exit).
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const timeBin = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
// spawnSync's timeout kills only its own child (time(1)), leaving node running: GNU timeout
// kills the whole process group.
const timeoutBin = fs.existsSync('/usr/bin/timeout') ? '/usr/bin/timeout' : undefined;

/** `timeout` (ms): the run is killed past it and `timedOut` is set. */
export function measure(argv, { env = {}, stdoutFile = '/dev/null', cwd, timeout } = {}) {
  const out = fs.openSync(stdoutFile, 'w');
  const nodeArgs = timeBin ? argv : ['--require', path.join(here, 'rss-preload.cjs'), ...argv];
  let [cmd, cmdArgs] = timeBin
    ? [timeBin, ['-f', 'BENCH_TIME %e %M %U %S', process.execPath, ...nodeArgs]]
    : [process.execPath, nodeArgs];
  const grouped = timeout !== undefined && timeoutBin !== undefined;
  if (grouped) [cmd, cmdArgs] = [timeoutBin, ['-s', 'KILL', `${timeout / 1000}s`, cmd, ...cmdArgs]];
  const start = performance.now();
  const r = spawnSync(cmd, cmdArgs, {
    stdio: ['ignore', out, 'pipe'],
    env: { ...process.env, ...env },
    cwd,
    timeout: grouped ? timeout + 10_000 : timeout,
    killSignal: 'SIGKILL',
    maxBuffer: 1 << 28,
  });
  const wall = performance.now() - start;
  fs.closeSync(out);
  const stderr = r.stderr?.toString() ?? '';
  let rssKb;
  let cpu;
  const t = /BENCH_TIME ([\d.]+) (\d+) ([\d.]+) ([\d.]+)/.exec(stderr);
  if (t) {
    rssKb = Number(t[2]);
    cpu = (Number(t[3]) + Number(t[4])) * 1000;
  } else {
    const m = /SUBAGENTS_BENCH_MAXRSS_KB=(\d+)/.exec(stderr);
    rssKb = m ? Number(m[1]) : NaN;
  }
  // time(1) exits with the child's status; its own line is not part of the child's stderr.
  const childStderr = stderr
    .replace(/^(Command exited with non-zero status \d+|Command terminated by signal \d+)\n/m, '')
    .replace(/BENCH_TIME .*\n?/, '')
    .replace(/\nSUBAGENTS_BENCH_MAXRSS_KB=\d+\n/, '');
  return {
    wall,
    rss: rssKb / 1024,
    cpu,
    status: r.status,
    stderr: childStderr,
    timedOut: r.error?.code === 'ETIMEDOUT' || r.signal === 'SIGKILL' || (grouped && r.status === 137),
  };
}

export const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Which build of the CLI `dist/` holds: `production` (minified, ASCII: what `npm pack` ships and
 * `npm run bench` builds) or `development` (`npm run build`: source maps, non-ASCII comments that
 * the launcher decodes as UTF-8, ≈ 25–50 ms more on every run).
 */
export function bundleKind(dist = path.join(here, '..', 'dist')) {
  try {
    const text = fs.readFileSync(path.join(dist, 'cli-main.js'), 'latin1');
    return text.trimEnd().endsWith('.js.map') ? 'development' : 'production';
  } catch {
    return 'missing';
  }
}
