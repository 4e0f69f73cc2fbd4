/**
 * The web build (package.json `browser`): the extension for the browser's extension host and the
 * server for a Web Worker, built for production as the package ships them. Neither may need a
 * Node built-in (a browser has none: the bundle would fail to load), and together they stay within
 * 1.5 MB minified. The manifest points at them and the package includes them.
 */
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import { builtinModules } from 'module';
import * as os from 'os';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..', '..');
const LIMIT_BYTES = 1.5 * 1024 * 1024;
const BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/** Every `require("x")` / `import ... from "x"` / `import("x")` of a bare module name left in a bundle. */
function requiredModules(code: string): string[] {
  const found = new Set<string>();
  for (const re of [
    /\brequire\(\s*["']([^"']+)["']\s*\)/g,
    /\bimport\s*\(\s*["']([^"']+)["']\s*\)/g,
    /\bfrom\s*["']([^"']+)["']/g,
  ])
    for (const m of code.matchAll(re)) found.add(m[1]);
  return [...found];
}

/** The Node built-ins among the modules a bundle requires (`require("fs")` in code, not in a string). */
const builtinsIn = (code: string) => requiredModules(code).filter((m) => BUILTINS.has(m));

describe('the web bundles (dist/web/extension.js, dist/web/server.js)', function () {
  this.timeout(120000);
  let dir: string;
  let bundles: Record<string, string>;
  let inputs: Record<string, string[]>;

  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-web-'));
    execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.mjs'), '--production', '--web', '--out', dir], {
      cwd: ROOT,
      stdio: 'pipe',
    });
    bundles = {
      'dist/web/extension.js': fs.readFileSync(path.join(dir, 'web/extension.js'), 'utf8'),
      'dist/web/server.js': fs.readFileSync(path.join(dir, 'web/server.js'), 'utf8'),
    };
    inputs = JSON.parse(fs.readFileSync(path.join(dir, 'web/meta.json'), 'utf8'));
  });
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('require no Node built-in: none among their inputs, none required by their code', () => {
    for (const [file, code] of Object.entries(bundles)) {
      assert.deepEqual(builtinsIn(code), [], `${file} requires a Node built-in`);
      const nodeOnly = inputs[file].filter(
        (i) =>
          BUILTINS.has(i) ||
          i.startsWith('shared/node/') ||
          /^server\/(main|node-platform|connection|watch)\.ts$/.test(i),
      );
      assert.deepEqual(nodeOnly, [], `${file} bundles Node-only modules`);
    }
    // The extension requires only `vscode` (provided by the extension host); the server nothing at all.
    assert.deepEqual(requiredModules(bundles['dist/web/extension.js']), ['vscode']);
    assert.ok(inputs['dist/web/server.js'].includes('server/browser-main.ts'));
    assert.ok(inputs['dist/web/server.js'].some((i) => i.includes('path-browserify')));
  });

  it('the check can fail: a require of fs or node:os is found, one quoted inside a string literal is not', () => {
    assert.deepEqual(builtinsIn('var a=require("fs"),b=require( "node:os" );'), ['fs', 'node:os']);
    assert.deepEqual(builtinsIn('import x from "child_process";'), ['child_process']);
    assert.deepEqual(builtinsIn('var s = "require(\\"fs\\")";'), []);
  });

  it('weigh at most 1.5 MB together, minified', () => {
    const sizes = Object.fromEntries(Object.entries(bundles).map(([f, code]) => [f, Buffer.byteLength(code)]));
    const total = Object.values(sizes).reduce((a, b) => a + b, 0);
    console.log(
      `      ${Object.entries(sizes)
        .map(([f, n]) => `${f} ${(n / 1024).toFixed(0)} KB`)
        .join(', ')}; together ${(total / 1024).toFixed(0)} KB of ${LIMIT_BYTES / 1024} KB`,
    );
    assert.ok(total <= LIMIT_BYTES, `${total} bytes`);
  });

  it('the manifest names the browser entry beside main, and the package includes both web bundles', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    assert.equal(pkg.main, './dist/extension.js');
    assert.equal(pkg.browser, './dist/web/extension.js');
    assert.equal(pkg.capabilities.virtualWorkspaces, true);
    const ignore = fs.readFileSync(path.join(ROOT, '.vscodeignore'), 'utf8').split('\n');
    for (const f of ['dist/web/extension.js', 'dist/web/server.js']) assert.ok(ignore.includes(`!${f}`), f);
  });
});
