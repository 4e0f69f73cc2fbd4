// Mutation testing with StrykerJS: `npm run mutate` (docs/testing.md). Not part of .ci/run.
//
// The mutants are built once (mutant schemata: tsc compiles the instrumented sources to out/)
// and selected at run time. Only the suites that run the product in the test process are run:
// Stryker's per-test coverage sees nothing a child process executes, so the suites that drive
// the bundled CLI or server as processes are left out (docs/testing.md counts what they reach).

/**
 * Test files (compiled) that exercise the product in-process. Left out besides the process
 * suites: hardening/cache, hardening/properties and hardening/limits, thousands of generated or
 * huge inputs each (20 s together), which every mutant of the engine they reach would rerun.
 * Mocha runs them in this order and a mutant stops at its first failing test: the targeted
 * suites (golden fixtures, each dialect's) come first, the broad property suites last.
 */
const IN_PROCESS_SUITES = [
  // The edit builders and the applying of several fixes, each for small texts: the quickest to
  // kill a mutant of shared/fixes/edits.ts or apply-edits.ts.
  'fix-edits',
  // A fix round's decisions (verdicts, severities, analyses spent) and the parts it decides
  // with: seconds in all, before the golden suites (whose code actions and fix twins run the
  // same code for every fixture), so that a mutant they kill stops there.
  'fix-round',
  'fix-round-parts',
  'rules.golden',
  'fixes.golden',
  'core',
  'suppress',
  'config',
  'polytoken',
  'polytoken-exit-schema',
  'polytoken-template',
  'polytoken-rules',
  'picasso',
  'picasso-rules',
  'profy',
  // Profy below the rules (glob budget, passes, model) and the messages the golden fixtures leave out.
  'profy-units',
  'profy-messages',
  'completion',
  'editor-picasso',
  'editor-profy',
  'editor-polytoken',
  'editor-polytoken-hover',
  'editor-polytoken-rename',
  'resolution-render',
  'definitions-view',
  'symbols',
  'skeletons',
  'skeleton-fix',
  'corners',
  'file-names',
  'fourth-dialect/fourth-dialect',
  'lsp/key-docs',
  'lsp/cap',
  'docs',
  'folder-dialects',
  'hardening/isolation',
  'hardening/hostile',
  'check-runner',
  'agreement',
  'lsp/typing',
  'text-units',
  'lsp/quick-names',
  'yaml-fast',
  'yaml-package',
  'json-fast',
  'syntax-messages',
  'snippets',
  'memos',
  // The CLI's suites: in the mutation run the CLI runs in the test process (CLI_IN_PROCESS in
  // test/support/cli.ts), so what they reach counts; their few tests that need a process (a
  // terminal, Node flags, the language and MCP servers) run the real, unmutated dist/ bundle.
  'cli',
  'cli-around',
  'cli-cache',
  // The cache's parts on their own (the cli-cache suite runs most of its checks as processes).
  'file-digest',
  'cache-key',
  'cache-file',
  'cli-ci',
  'cli-diff',
  'diff-report',
  'cli-fix',
  'cli-output',
  'cli-stylish',
  'cli-scaffold',
  'cli-unknown-tools',
  'cli-unparsable',
  'hardening/reads',
  'hardening/file-names',
  // The hostile-repository suites: their runs without a shell or Node flags call the CLI's `main`
  // in the test process too (the writes, the special files, the forged cache).
  'hardening/writes',
  'hardening/special-files',
  'hardening/cache-file',
  'hardening/walker',
  'safe-write',
  // The MCP server's tools and workspace: in the mutation run the SDK's client talks to the server
  // built in the test process through the SDK's in-memory transport (test/mcp/harness.ts).
  'mcp/tools',
  'mcp/workspace',
  // The MCP line transport on in-memory streams.
  'mcp/stdio',
  'code-cache',
  // Last, so that a mutant it kills is one no suite above kills: the report's `killedBy`
  // tells what it added (docs/testing.md).
  'fix-plans',
];

/**
 * Suites the mutation run leaves out, and why; test/stryker-config.test.ts checks that every suite
 * is in one of the three lists, so a new one is not left out unnoticed.
 */
const LEFT_OUT = [
  // They read the sources, the packaging or this file, not run the product.
  'architecture',
  'cycles',
  'memo-registration',
  'package',
  'release-workflow',
  'ci-integrations',
  'web-bundles',
  // It compares the generated validators with schemas/ byte for byte; the sandbox marks every
  // source `// @ts-nocheck` (disableTypeChecks), so the comparison would fail there.
  'schema-validators',
  // The product as a process (the CLI bundle, the server's exit): per-test
  // coverage sees nothing a child process executes.
  'cli-code-cache',
  'lsp/lifecycle',
  'node-heap',
  'tiering',
  'hardening/security',
  'hardening/server-load',
  // Thousands of generated or huge inputs each, rerun for every mutant they reach.
  'hardening/cache',
  'hardening/fix-property',
  'hardening/limits',
  'hardening/properties',
  'stryker-config',
];

/**
 * The language server's suites, the server in the test process (SERVER_IN_PROCESS in
 * test/lsp/harness.ts, set by scripts/stryker/mocha-setup.cjs). Only in a run that mutates
 * server/ (scripts/stryker/mutate.mjs sets SUBAGENTS_MUTATE_SERVER when a --mutate pattern names
 * it): each test starts a server and reaches much of the engine, so in a run of shared/ every
 * survivor would rerun them all. Left out: lsp/lifecycle (the server process's own exit).
 */
const SERVER_SUITES = [
  'lsp/diagnostics',
  'lsp/features',
  'lsp/actions',
  'lsp/client-capabilities',
  'lsp/closed-analyses',
  'lsp/commands',
  'lsp/config-file',
  'lsp/declare-tool',
  'lsp/directives',
  'lsp/identity',
  'lsp/guard',
  'lsp/mirror',
  'lsp/inlay-hints',
  'lsp/live-config',
  'lsp/new-subagent',
  'lsp/new-subagent-nested',
  'lsp/removed-tools',
  'lsp/rename',
  'lsp/rule-docs-action',
  'lsp/skeleton-fix',
  'lsp/structure',
  'lsp/watch',
  'lsp/virtual-workspace',
  'lsp/watch-folders',
  'lsp/workspace-problems',
  'lsp/workspace-view',
];
const MUTATES_SERVER = process.env.SUBAGENTS_MUTATE_SERVER === '1';

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  mutate: [
    'shared/**/*.ts',
    'cli/**/*.ts',
    'server/**/*.ts',
    // Generated by scripts/gen-validators.mjs from schemas/: its test is the schema tests.
    '!shared/schema/validators.generated.ts',
  ],
  // The instrumented sources do not type-check; tsc still compiles them to out/.
  disableTypeChecks: '{shared,cli,server}/**/*.ts',
  buildCommand: 'npx tsc -p .',
  // Mutants that do not compile are dropped before any test runs.
  checkers: ['typescript'],
  tsconfigFile: 'tsconfig.json',
  testRunner: 'mocha',
  mochaOptions: {
    'no-config': true,
    spec: [...IN_PROCESS_SUITES, ...(MUTATES_SERVER ? SERVER_SUITES : [])].map((suite) => `out/test/${suite}.test.js`),
    require: ['scripts/stryker/mocha-setup.cjs'],
    // Left out: a bound on wall-clock time, which does not hold for instrumented code (12 s instead
    // of 0.3 s), the 130,000 planted links of hardening/writes (8 s), which would rerun for
    // every surviving mutant of the engine, since every check covers it, and the worker killed
    // mid-run of hardening/walker, whose check runs in a child process (6 s, covering nothing).
    grep: '^(?!.*(stays linear on pathological nesting|links planted at every temporary name|a worker that dies mid-run))',
  },
  coverageAnalysis: 'perTest',
  // A mutant in code that runs when a module loads (a table, a regular expression) would need a
  // fresh process and every test for each: ignored, and counted apart in the report.
  ignoreStatic: true,
  // The machine is shared: two test runners at most.
  concurrency: 2,
  // Generous: on a loaded machine a tighter limit turns slow runs into timeouts, counted as detected
  // (at 5 s and factor 1.5, a quarter of the mutants of shared/fixes/ timed out from load alone).
  timeoutMS: 20000,
  timeoutFactor: 3,
  incrementalFile: 'reports/stryker-incremental.json',
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportScoreTable: true },
  // dist/ is copied as built (npm run mutate builds it first): the tests that need the CLI as a process run it.
  // out/ is not ignored: --incremental matches tests by their files (out/test/*.js, compiled by npm run mutate
  // before the run), and a test file Stryker did not read counts as removed, so nothing would be reused.
  ignorePatterns: ['bench/work', '.vscode-test', 'test-results', '*.vsix', 'reports'],
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
