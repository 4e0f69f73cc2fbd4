#!/usr/bin/env node
// Runs the integration suite in a real VS Code (code-server 4.100.3 = VS Code 1.100.3) opened in
// headless Chromium, then takes screenshots. Usage (see run.sh):
//   node test/e2e/driver.mjs --code-server <cache>/node_modules/code-server --vsix subagents-tooling.vsix
// Steps: fresh extensions dir ← the .vsix (so a file missing from the package fails the suite)
// and the test-runner extension; code-server on 127.0.0.1:<free port>; Chromium opens a copy
// of test/e2e/workspace; the runner extension runs the mocha suite in the extension host and
// writes results.json; the driver prints them, plays the screenshot scenes into test-results/,
// stops every process it started (by id) and exits non-zero when a test failed or none ran.
// `--web`: VS Code for the web instead. The installed extension loses its `main` (so VS Code runs
// its `browser` entry in the Web Worker extension host, as vscode.dev and github.dev do), the
// workspace is `memfs:/ws` (the runner extension's in-memory file system, seeded from the copy),
// and the suite is test/e2e/web/ (it drives the extension from the Node extension host).
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const codeServerDir = path.resolve(opt('code-server', ''));
const vsix = path.resolve(repo, opt('vsix', 'subagents-tooling.vsix'));
const resultsDir = path.resolve(repo, opt('out', 'test-results'));
const chromiumPath = opt('chromium', process.env.CHROMIUM_PATH || '/usr/bin/chromium');
const suiteTimeoutMs = Number(opt('timeout', '600')) * 1000;
const keep = args.includes('--keep');
const web = args.includes('--web');

const log = (...a) => console.log('[e2e]', ...a);
const entry = path.join(codeServerDir, 'out/node/entry.js');
if (!fs.existsSync(entry)) throw new Error(`code-server not found at ${codeServerDir} (run test/e2e/setup.sh)`);
if (!fs.existsSync(vsix)) throw new Error(`${vsix} not found (run npm run package)`);
const suite = path.join(repo, web ? 'out/test/e2e/web/index.js' : 'out/test/e2e/suite/index.js');
if (!fs.existsSync(suite)) throw new Error(`${suite} not found (compile with tsc -p test/e2e)`);

const runId = randomUUID();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-e2e-'));
const dirs = {
  ws: path.join(tmp, 'workspace'),
  ud: path.join(tmp, 'user-data'),
  ext: path.join(tmp, 'extensions'),
  scenes: path.join(tmp, 'scenes'),
};
const resultsFile = path.join(tmp, 'results.json');
fs.mkdirSync(resultsDir, { recursive: true });
fs.cpSync(path.join(here, 'workspace'), dirs.ws, { recursive: true });
fs.mkdirSync(path.join(dirs.ud, 'User'), { recursive: true });
fs.writeFileSync(
  path.join(dirs.ud, 'User/settings.json'),
  JSON.stringify(
    {
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'workbench.enableExperiments': false,
      'workbench.colorTheme': 'Default Dark Modern',
      'security.workspace.trust.enabled': false,
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'extensions.ignoreRecommendations': true,
      'telemetry.telemetryLevel': 'off',
      'update.mode': 'none',
      'window.restoreWindows': 'none',
      'chat.commandCenter.enabled': false,
      'workbench.secondarySideBar.defaultVisibility': 'hidden',
      'editor.minimap.enabled': false,
    },
    null,
    2,
  ),
);

const started = []; // { name, pid } of every process group we start
let browser;
let cleaning = false;
const sceneFailures = []; // checks of required scenes (e.g. the grammar's scopes in the real editor)

async function cleanup() {
  if (cleaning) return;
  cleaning = true;
  if (browser) await browser.close().catch(() => undefined);
  for (const p of started.reverse()) {
    try {
      process.kill(-p.pid, 'SIGTERM');
    } catch {}
  }
  const deadline = Date.now() + 5000;
  while (Date.now() < deadline && started.some((p) => alive(p.pid))) await delay(100);
  for (const p of started) {
    try {
      process.kill(-p.pid, 'SIGKILL');
    } catch {}
  }
  // Anything that left our process groups (an extension host, a server) still carries our run id.
  for (const pid of pidsWithRunId()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {}
  }
  if (!keep) fs.rmSync(tmp, { recursive: true, force: true });
}
const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
function pidsWithRunId() {
  const out = [];
  for (const d of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(d) || Number(d) === process.pid) continue;
    try {
      if (fs.readFileSync(`/proc/${d}/environ`, 'latin1').includes(`SUBAGENTS_E2E_RUN=${runId}`)) out.push(Number(d));
    } catch {}
  }
  return out;
}
const delay = (ms) => new Promise((r) => setTimeout(r, ms));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void cleanup().then(() => process.exit(130)));

async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

async function waitUntil(what, probe, timeoutMs, intervalMs = 200) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await delay(intervalMs);
  }
}

function installExtensions() {
  const t = Date.now();
  const r = spawnSync(
    process.execPath,
    [entry, '--extensions-dir', dirs.ext, '--user-data-dir', dirs.ud, '--install-extension', vsix],
    { encoding: 'utf8', timeout: 120000 },
  );
  const out = `${r.stdout}\n${r.stderr}`.trim();
  if (r.status !== 0 || !/successfully installed/i.test(out))
    throw new Error(`installing ${path.basename(vsix)} failed (exit ${r.status}):\n${out}`);
  log(`installed ${path.basename(vsix)} into a fresh extensions dir (${Date.now() - t} ms)`);
  if (web) webOnly();
  // The runner extension (tests only) goes beside it as an unpacked folder.
  // VS Code only loads what extensions.json lists (an unlisted folder is marked removed): list it.
  const folder = 'subagents-e2e.e2e-runner-0.0.1';
  const location = path.join(dirs.ext, folder);
  fs.cpSync(path.join(here, 'runner-extension'), location, { recursive: true });
  const listFile = path.join(dirs.ext, 'extensions.json');
  const list = JSON.parse(fs.readFileSync(listFile, 'utf8'));
  if (!list.some((e) => e.identifier?.id === 'subagents-tooling.subagents-tooling'))
    throw new Error(`the .vsix is not listed in ${listFile}`);
  list.push({
    identifier: { id: 'subagents-e2e.e2e-runner' },
    version: '0.0.1',
    location: { $mid: 1, fsPath: location, external: `file://${location}`, path: location, scheme: 'file' },
    relativeLocation: folder,
    metadata: { installedTimestamp: Date.now(), source: 'resource' },
  });
  fs.writeFileSync(listFile, JSON.stringify(list));
}

/** The installed extension without its Node entry: VS Code then runs its web build in the Web Worker extension host. */
function webOnly() {
  const folder = fs.readdirSync(dirs.ext).find((f) => f.startsWith('subagents-tooling.subagents-tooling-'));
  if (!folder) throw new Error('the installed extension was not found');
  const manifest = path.join(dirs.ext, folder, 'package.json');
  const pkg = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  if (!pkg.browser) throw new Error('the package has no browser entry');
  delete pkg.main;
  fs.writeFileSync(manifest, JSON.stringify(pkg, null, 2));
  log(`web run: ${folder} keeps only its browser entry (${pkg.browser})`);
}

/** The web run's workspace file: one folder, `memfs:/ws`. */
function webWorkspace() {
  const file = path.join(tmp, 'web.code-workspace');
  fs.writeFileSync(file, JSON.stringify({ folders: [{ uri: 'memfs:/ws', name: 'ws (memfs)' }] }, null, 2));
  return file;
}

async function main() {
  installExtensions();
  const port = await freePort();
  const serverLog = fs.openSync(path.join(tmp, 'code-server.log'), 'w');
  const env = {
    ...process.env,
    SUBAGENTS_E2E_RUN: runId,
    SUBAGENTS_E2E_SUITE: suite,
    SUBAGENTS_E2E_RESULTS: resultsFile,
    SUBAGENTS_E2E_SCENES: dirs.scenes,
    ...(web ? { SUBAGENTS_E2E_MEMFS: dirs.ws } : {}),
  };
  const opened = web ? webWorkspace() : dirs.ws;
  delete env.VSCODE_IPC_HOOK_CLI;
  const cs = spawn(
    process.execPath,
    [
      entry,
      '--auth',
      'none',
      '--bind-addr',
      `127.0.0.1:${port}`,
      '--user-data-dir',
      dirs.ud,
      '--extensions-dir',
      dirs.ext,
      '--disable-telemetry',
      '--disable-update-check',
      '--disable-workspace-trust',
      '--disable-getting-started-override',
      opened,
    ],
    { env, detached: true, stdio: ['ignore', serverLog, serverLog] },
  );
  started.push({ name: 'code-server', pid: cs.pid });
  let exited = false;
  cs.on('exit', (code) => {
    exited = true;
    if (!cleaning) log(`code-server exited early (code ${code})`);
  });
  const t0 = Date.now();
  await waitUntil(
    'code-server to listen',
    async () => {
      if (exited) throw new Error('code-server exited; see its log');
      try {
        const r = await fetch(`http://127.0.0.1:${port}/healthz`);
        return r.ok;
      } catch {
        return false;
      }
    },
    60000,
  );
  log(`code-server listening on 127.0.0.1:${port} (${Date.now() - t0} ms)`);

  const { chromium } = require('playwright-core');
  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
  const page = await browser.newPage({ viewport: { width: 1360, height: 820 } });
  page.on('pageerror', (e) => fs.appendFileSync(path.join(tmp, 'browser.log'), `${e}\n`));
  // The page's and its workers' console (the web extension host logs there): kept in browser.log.
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning' || /subagents/i.test(m.text()))
      fs.appendFileSync(path.join(tmp, 'browser.log'), `[${m.type()}] ${m.text()}\n`);
  });
  await page.goto(`http://127.0.0.1:${port}/?${web ? 'workspace' : 'folder'}=${encodeURIComponent(opened)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 120000 });
  log(`workbench loaded (${Date.now() - t0} ms); waiting for the suite in the extension host`);
  // A fresh window shows the Subagents view's own entry in the activity bar (the suite opens it and checks it expanded).
  await page
    .locator('.part.activitybar [aria-label^="Subagents"]')
    .first()
    .waitFor({ state: 'visible', timeout: 60000 })
    .catch(() => sceneFailures.push('the Subagents entry is not in the activity bar of a fresh window'));

  const results = await waitUntil(
    'the suite results',
    () => {
      if (exited) throw new Error('code-server exited before the suite finished');
      if (!fs.existsSync(resultsFile)) return undefined;
      return JSON.parse(fs.readFileSync(resultsFile, 'utf8'));
    },
    suiteTimeoutMs,
    250,
  ).catch((e) => ({ tests: [], passes: 0, failures: 0, pending: 0, error: e.message }));
  fs.writeFileSync(path.join(resultsDir, 'e2e-results.json'), JSON.stringify(results, null, 2));

  console.log('\n  Integration suite, inside the VS Code extension host:');
  for (const t of results.tests)
    console.log(
      `    ${t.state === 'passed' ? '✓' : t.state === 'failed' ? '✗' : '-'} ${t.title}${t.durationMs !== undefined ? ` (${t.durationMs} ms)` : ''}`,
    );
  console.log('');
  for (const t of results.tests) if (t.state === 'failed') console.log(`FAILED: ${t.title}\n${t.error}\n`);
  if (results.error) console.log(`suite error: ${results.error}`);
  log(
    `VS Code ${results.vscodeVersion ?? '?'}: ${results.passes} passing, ${results.failures} failing, ${results.pending} pending (${results.durationMs ?? '?'} ms)`,
  );
  if (results.timings)
    log(
      `activation: language server ready ${results.timings.serverReadyMs} ms after activate(); first resolve answered at ${results.timings.firstResolveMs} ms`,
    );

  if (!results.error && !args.includes('--no-screenshots')) await screenshots(page);
  for (const f of sceneFailures) console.log(`FAILED scene: ${f}`);
  const ok = results.passes > 0 && results.failures === 0 && !results.error && sceneFailures.length === 0;
  return ok;
}

async function frameTexts(page) {
  const texts = [];
  for (const f of page.frames()) {
    try {
      texts.push(await f.evaluate(() => document.body?.innerText ?? ''));
    } catch {}
  }
  // Editors (the Output view is one) lay out spaces as no-break spaces.
  return texts.join('\n').replace(/\u00a0/g, ' ');
}

async function screenshots(page) {
  const deadline = Date.now() + 300000;
  const done = new Set();
  for (;;) {
    if (fs.existsSync(path.join(dirs.scenes, 'all.done'))) break;
    if (Date.now() > deadline) {
      sceneFailures.push('the screenshot scenes did not finish');
      break;
    }
    const ready = fs.existsSync(dirs.scenes) ? fs.readdirSync(dirs.scenes).filter((f) => f.endsWith('.ready')) : [];
    const next = ready.map((f) => f.slice(0, -'.ready'.length)).find((n) => !done.has(n));
    if (!next) {
      await delay(150);
      continue;
    }
    let spec;
    try {
      spec = JSON.parse(fs.readFileSync(path.join(dirs.scenes, `${next}.ready`), 'utf8'));
    } catch {
      // Still being written (an older runner extension writes it in place): read it again next turn.
      await delay(150);
      continue;
    }
    done.add(next);
    const problems = [];
    // A click the API cannot do (e.g. collapsing a pane by its header), before the checks.
    if (spec.click)
      await page
        .locator(spec.click)
        .first()
        .click({ timeout: 20000 })
        .catch(() => problems.push(`${spec.click} not clickable`));
    if (spec.selector)
      await page
        .locator(spec.selector)
        .first()
        .waitFor({ state: 'visible', timeout: 20000 })
        .catch(() => problems.push(`${spec.selector} not visible`));
    for (const text of spec.text ?? []) {
      await waitUntil(`"${text}"`, async () => (await frameTexts(page)).includes(text), 20000, 250).catch(() =>
        problems.push(`"${text}" not shown`),
      );
    }
    const file = path.join(resultsDir, `${next}.png`);
    await page.screenshot({ path: file });
    log(
      `screenshot ${path.relative(repo, file)}${problems.length ? ` (${spec.required ? 'FAILED' : 'warning'}: ${problems.join('; ')})` : spec.required ? ' (checked)' : ''}`,
    );
    if (spec.required && problems.length) sceneFailures.push(`${next}: ${problems.join('; ')}`);
    fs.writeFileSync(path.join(dirs.scenes, `${next}.done`), '');
  }
}

let ok = false;
try {
  ok = await main();
} catch (e) {
  console.error(`[e2e] ${e instanceof Error ? e.message : e}`);
  for (const f of ['code-server.log', 'browser.log']) {
    const p = path.join(tmp, f);
    if (fs.existsSync(p)) fs.copyFileSync(p, path.join(resultsDir, f));
  }
} finally {
  for (const f of ['code-server.log', 'browser.log'])
    if (fs.existsSync(path.join(tmp, f))) fs.copyFileSync(path.join(tmp, f), path.join(resultsDir, f));
  await cleanup();
}
log(ok ? 'PASSED' : 'FAILED');
process.exit(ok ? 0 : 1);
