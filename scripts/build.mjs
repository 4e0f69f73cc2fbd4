// Bundles the CLI, the language server and the extension client with esbuild.
import { build } from 'esbuild';
import { existsSync } from 'fs';

const production = process.argv.includes('--production');
// mainFields: jsonc-parser's `main` is a UMD build whose dynamic require esbuild cannot bundle; its ESM build can.
const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  mainFields: ['module', 'main'],
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
};

const entries = [
  // `subagents`: a small launcher that runs the CLI's bundle with a V8 code cache (cli/launch.ts).
  { entryPoints: ['cli/launch.ts'], outfile: 'dist/cli.js', banner: { js: '#!/usr/bin/env node' } },
  { entryPoints: ['cli/main.ts'], outfile: 'dist/cli-main.js' },
  { entryPoints: ['server/main.ts'], outfile: 'dist/server.js' },
  // checkPaths' worker threads (cli/batch/check-paths.ts looks for it next to the bundle).
  { entryPoints: ['cli/batch/check-worker.ts'], outfile: 'dist/check-worker.js' },
  { entryPoints: ['client/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
];

await Promise.all(entries.filter((e) => existsSync(e.entryPoints[0])).map((e) => build({ ...common, ...e })));
