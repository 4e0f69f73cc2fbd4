// Preloaded into Stryker's processes by scripts/stryker/mutate.mjs.
// Mocha 12 renamed its lib/cli/*.js internals to *.cjs; @stryker-mutator/mocha-runner 9 requires
// them without an extension (lib/cli/options, run-helpers, collect-files), which Node no longer
// finds. When such a request fails, it is retried with `.cjs`; nothing else is touched.
'use strict';
const Module = require('module');

const MOCHA_CLI = /[\\/]mocha[\\/]lib[\\/]cli[\\/][\w-]+$/;
const resolveFilename = Module._resolveFilename;

Module._resolveFilename = function (request, ...rest) {
  try {
    return resolveFilename.call(this, request, ...rest);
  } catch (error) {
    if (!MOCHA_CLI.test(request)) throw error;
    return resolveFilename.call(this, `${request}.cjs`, ...rest);
  }
};
