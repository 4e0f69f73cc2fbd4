/**
 * `subagents` entry (bundled to dist/cli-main.js, which dist/cli.js runs: cli/launch.ts). Everything else is loaded
 * inside the
 * try below, so that even a failure while loading prints one line and exits 2.
 */
import pkg from '../package.json';
import { printable } from '../shared';

function fail(e: unknown): never {
  const text = e instanceof Error ? e.message || e.name : String(e);
  process.stderr.write(`subagents: internal error: ${printable(text.split('\n')[0])}\n`);
  process.exit(2);
}

process.on('uncaughtException', fail);
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  // A closed pipe (`subagents check | head`) is not an error of ours.
  if (e.code === 'EPIPE') process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  process.stderr.write(`subagents: cannot write the output: ${printable(e.message.split('\n')[0])}\n`);
  process.exit(2);
});

try {
  const { main } = require('./run') as typeof import('./run');
  const code = main(process.argv.slice(2), {
    cwd: process.cwd(),
    env: process.env,
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
    version: pkg.version,
    stdoutIsTTY: process.stdout.isTTY === true,
    columns: process.stdout.isTTY === true ? process.stdout.columns : undefined,
    readStdin: () => require('fs').readFileSync(0, 'utf8'),
  });
  if (code !== undefined) process.exitCode = code;
} catch (e) {
  fail(e);
}
