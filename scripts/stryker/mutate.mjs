// `npm run mutate [-- stryker options]`: StrykerJS with the Mocha 12 shim preloaded in every
// process it starts (its test runners and checkers inherit NODE_OPTIONS). See docs/testing.md.
import { spawnSync } from 'child_process';
import { createRequire } from 'module';
import * as path from 'path';
import { fileURLToPath } from 'url';

const here = path.dirname(fileURLToPath(import.meta.url));
const shim = path.join(here, 'mocha12-cli.cjs');
const core = path.dirname(createRequire(import.meta.url).resolve('@stryker-mutator/core/package.json'));
const stryker = path.join(core, 'bin', 'stryker.js');
const nodeOptions = [process.env.NODE_OPTIONS, `--require ${JSON.stringify(shim)}`].filter(Boolean).join(' ');

// dist/ is copied into Stryker's sandbox as it is: the few tests that need the CLI as a process run it.
const build = spawnSync(process.execPath, [path.join(here, '..', 'build.mjs')], { stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
// out/ compiled here too: --incremental diffs the test files it reads from the project folder (stryker.config.mjs).
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
const compile = spawnSync(process.execPath, [tsc, '-p', path.join(here, '..', '..')], { stdio: 'inherit' });
if (compile.status !== 0) process.exit(compile.status ?? 1);

const args = process.argv.slice(2);
// The language server's suites join the run only when server/ is mutated (stryker.config.mjs):
// `--mutate` naming it, or no `--mutate` (everything).
const at = args.indexOf('--mutate');
const mutatesServer = at < 0 || /(^|,)server\//.test(args[at + 1] ?? '');
const run = spawnSync(process.execPath, [stryker, ...(args[0] === 'run' ? args : ['run', ...args])], {
  stdio: 'inherit',
  env: { ...process.env, NODE_OPTIONS: nodeOptions, ...(mutatesServer ? { SUBAGENTS_MUTATE_SERVER: '1' } : {}) },
});
if (run.error) throw run.error;
process.exit(run.status ?? 1);
