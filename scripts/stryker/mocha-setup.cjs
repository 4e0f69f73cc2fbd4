// Required by the mutation run's test runner (stryker.config.mjs): every fast-check property
// runs from one fixed seed, so a mutant is killed or not the same way on every run and an
// incremental run can reuse the last result. Suites that pass their own `seed` read FC_SEED.
'use strict';
const fc = require('fast-check');

const seed = Number(process.env.FC_SEED ?? 23);
process.env.FC_SEED = String(seed);
fc.configureGlobal({ seed });

// The CLI's suites call its `main` in this process instead of running dist/cli.js (test/support/cli.ts):
// per-test coverage sees only what the test process executes.
process.env.SUBAGENTS_CLI_IN_PROCESS = '1';

// Instrumented code counts every statement it runs in the first, coverage-taking run: a test that
// makes millions of comparisons (the glob budget's) takes 100 times as long there, and reads this to
// allow it (test/support/slow.ts).
process.env.SUBAGENTS_MUTATION_RUN = '1';

// The language server's suites start it in this process on a pair of streams (test/lsp/harness.ts).
process.env.SUBAGENTS_SERVER_IN_PROCESS = '1';

// A mutation run reuses one process for every mutant: a memo the engine filled under one mutant (or
// none) would answer for the next, and the mutated code would never run. Each test starts without
// them (shared/memos.ts).
const path = require('path');
exports.mochaHooks = {
  beforeEach() {
    require(path.resolve('out/shared/memos.js')).forgetMemos();
  },
};
