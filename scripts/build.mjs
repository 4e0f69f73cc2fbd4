// Bundles the CLI, the language server and the extension client with esbuild.
import { build } from 'esbuild';
import { existsSync, mkdirSync, writeFileSync } from 'fs';
import { dirname, join, relative } from 'path';

const production = process.argv.includes('--production');
// `--web`: only the two web bundles; `--out <dir>`: instead of dist/ (test/web-bundles.test.ts measures them there).
const webOnly = process.argv.includes('--web');
const outAt = process.argv.indexOf('--out');
const out = (file) => (outAt > 0 ? join(process.argv[outAt + 1], relative('dist', file)) : file);
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
  { entryPoints: ['client/node.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
];

// VS Code for the web (package.json `browser`): the extension in the browser's extension host
// (CommonJS, `vscode` provided) and the server in a Web Worker (a plain script). No Node built-in
// may reach them (test/web-bundles.test.ts scans the output and esbuild's metafile): `path` is
// path-browserify (posix paths only), everything else the server would read comes through the client.
const web = {
  ...common,
  platform: 'browser',
  target: 'es2022',
  mainFields: ['browser', 'module', 'main'],
  alias: { path: 'path-browserify' },
  // Both are loaded by VS Code, never minified by it: production builds are minified here.
  metafile: true,
};
const webEntries = [
  { entryPoints: ['client/browser.ts'], outfile: 'dist/web/extension.js', format: 'cjs', external: ['vscode'] },
  { entryPoints: ['server/browser-main.ts'], outfile: 'dist/web/server.js', format: 'iife' },
];

const [, webResults] = await Promise.all([
  Promise.all(
    (webOnly ? [] : entries)
      .filter((e) => existsSync(e.entryPoints[0]))
      .map((e) => build({ ...common, ...e, outfile: out(e.outfile) })),
  ),
  Promise.all(webEntries.map((e) => build({ ...web, ...e, outfile: out(e.outfile) }))),
]);
// The web bundles' inputs, for the test that no Node built-in is among them.
const meta = out('dist/web/meta.json');
mkdirSync(dirname(meta), { recursive: true });
writeFileSync(
  meta,
  JSON.stringify(Object.fromEntries(webEntries.map((e, i) => [e.outfile, Object.keys(webResults[i].metafile.inputs)]))),
);
