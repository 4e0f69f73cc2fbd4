// `node --require bench/rss-preload.cjs …`: prints the process's peak RSS (KiB) on stderr
// at exit, for machines without /usr/bin/time. Worker threads share the process: only the
// main thread prints.
const { isMainThread } = require('worker_threads');
if (isMainThread) {
  process.on('exit', () => {
    process.stderr.write(`\nSUBAGENTS_BENCH_MAXRSS_KB=${process.resourceUsage().maxRSS}\n`);
  });
}
