// Drives a real headless Neovim through the language server and asserts on what it saw.
//
// One Neovim session (one server process) on a copy of ./workspace: init.lua starts
// `node dist/cli.js lsp --stdio` the 0.7 way (vim.lsp.start_client + buf_attach_client), and
// steps/run.lua runs each step script in order; every step writes what Neovim saw to
// <out>/<step>.json. Usage: node test/e2e/nvim/driver.mjs [--nvim PATH] [--keep]
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..', '..');
const args = process.argv.slice(2);
const option = (name) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);
const NVIM = option('--nvim') ?? 'nvim';
const KEEP = args.includes('--keep');
/** The whole session is expected to take a few seconds; this only stops a hung Neovim. */
const SESSION_TIMEOUT_MS = 60_000;

const DEFINITION = path.join('.polytoken', 'subagents', 'reviewer.md');

/** Runs Neovim once over a fresh copy of the workspace; resolves with the folder holding the step files. */
async function runNeovim() {
  if (!fs.existsSync(path.join(REPO, 'dist', 'cli.js')))
    throw new Error('dist/cli.js is missing: run `npm run build` first');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-nvim-'));
  const root = path.join(tmp, 'workspace');
  const out = path.join(tmp, 'out');
  const home = path.join(tmp, 'home'); // Neovim's and Polytoken's XDG folders: nothing of the user's is read
  fs.cpSync(path.join(HERE, 'workspace'), root, { recursive: true });
  fs.mkdirSync(out);
  fs.mkdirSync(home);
  const env = {
    ...process.env,
    SUBAGENTS_REPO: REPO,
    SUBAGENTS_ROOT: root,
    SUBAGENTS_OUT: out,
    SUBAGENTS_STEPS: path.join(HERE, 'steps'),
    XDG_CONFIG_HOME: home,
    XDG_CACHE_HOME: home,
    XDG_STATE_HOME: home,
    XDG_DATA_HOME: home,
  };
  const started = Date.now();
  const child = spawn(
    NVIM,
    [
      '--headless',
      '-i',
      'NONE',
      '-u',
      path.join(HERE, 'init.lua'),
      path.join(root, DEFINITION),
      '-c',
      `luafile ${path.join(HERE, 'steps', 'run.lua')}`,
    ],
    {
      env,
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own process group, with the server it starts: stopped together on a hang
    },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const code = await new Promise((resolve) => {
    const timer = setTimeout(() => {
      output += `\n[driver] Neovim still running after ${SESSION_TIMEOUT_MS} ms: stopped`;
      process.kill(-child.pid, 'SIGKILL');
    }, SESSION_TIMEOUT_MS);
    child.on('exit', (c, signal) => {
      clearTimeout(timer);
      resolve(c ?? signal);
    });
    child.on('error', (error) => {
      clearTimeout(timer);
      output += `\n[driver] could not start ${NVIM}: ${error.message}`;
      resolve('not started');
    });
  });
  const ms = Date.now() - started;
  console.log(`[nvim] ${NVIM}: session of 7 steps took ${ms} ms (exit ${code})`);
  if (output.trim()) console.log(`[nvim] output:\n${output.trim()}`);
  if (KEEP) console.log(`[nvim] kept ${tmp}`);
  return { tmp, root, out, code };
}

let session;
/** What a step recorded; a step that threw recorded `step_error` instead. */
function step(name) {
  const file = path.join(session.out, `${name}.json`);
  assert.ok(fs.existsSync(file), `${name} wrote nothing (Neovim exited ${session.code})`);
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  assert.equal(data.step_error, undefined, `${name} failed in Neovim: ${data.step_error}`);
  return data;
}
const codes = (diagnostics) => diagnostics.map((d) => d.code);

describe('Neovim (built-in LSP client) with `subagents lsp --stdio`', () => {
  before(async () => {
    session = await runNeovim();
    process.on('exit', () => KEEP || fs.rmSync(session.tmp, { recursive: true, force: true }));
  });

  it('opening a definition: its diagnostics arrive, with codes, ranges and severities', () => {
    const s = step('01-diagnostics');
    assert.equal(s.arrived, true);
    assert.deepEqual(
      s.diagnostics.map((d) => ({ code: d.code, range: d.range, severity: d.severity })),
      [
        { code: 'polytoken/name-mismatch', range: [1, 6, 1, 13], severity: 1 },
        { code: 'polytoken/unknown-tool', range: [4, 27, 4, 33], severity: 4 },
      ],
    );
    assert.match(s.diagnostics[0].message, /`name` is `reviewr` but the file is reviewer\.md/);
  });

  it('the server advertises its resolve command and no space or dash completion trigger', () => {
    const s = step('01-diagnostics');
    assert.deepEqual(s.commands, ['subagents.server.resolve']);
    assert.ok(
      !s.trigger_characters.includes(' ') && !s.trigger_characters.includes('-'),
      JSON.stringify(s.trigger_characters),
    );
    assert.ok(
      s.trigger_characters.includes('[') && s.trigger_characters.includes(','),
      JSON.stringify(s.trigger_characters),
    );
  });

  it('hover on a tool name documents the tool', () => {
    const s = step('02-hover');
    assert.equal(s.error, undefined);
    assert.equal(s.kind, 'markdown');
    assert.match(s.value, /^\*\*grep\*\* — Polytoken tool/);
    assert.match(s.value, /Searches file contents for a pattern/);
    assert.deepEqual(s.range, { start: { line: 4, character: 21 }, end: { line: 4, character: 25 } });
  });

  it('completion after `tools: [file_read, ` offers the other tools, the configured one, not the listed one', () => {
    const s = step('03-completion');
    assert.equal(s.error, undefined);
    for (const label of ['glob', 'grep', 'shell', 'tag!ALL'])
      assert.ok(s.labels.includes(label), `${label} in ${JSON.stringify(s.labels)}`);
    assert.ok(!s.labels.includes('file_read'), 'file_read is listed already');
    assert.deepEqual(s.glob_edit, {
      range: { start: { line: 4, character: 21 }, end: { line: 4, character: 21 } },
      newText: 'glob',
    });
    assert.equal(s.restored, true, 'the diagnostics came back after the line was restored');
  });

  it('code action: "Set name to `reviewer`" applied by Neovim clears polytoken/name-mismatch; no file rename is offered', () => {
    const s = step('04-code-action');
    assert.equal(s.answered, true);
    const titles = s.offered.map((a) => a.title);
    assert.ok(titles.includes('Set name to `reviewer`'), JSON.stringify(titles));
    // Neovim 0.7 advertises resourceOperations but not documentChanges: no rename, no documentChanges.
    assert.ok(!titles.some((t) => t.startsWith('Rename the file')), JSON.stringify(titles));
    for (const a of s.offered) assert.deepEqual(a.edit_keys, ['changes'], a.title);
    assert.equal(s.applied, true);
    assert.equal(s.name_line, 'name: reviewer');
    assert.equal(s.fixed, true);
    assert.deepEqual(codes(s.diagnostics), ['polytoken/unknown-tool']);
  });

  it('code lens: Neovim runs the server command; the resolution comes as a message and a Markdown file', () => {
    const s = step('05-code-lens');
    // `deploy` is not in the catalog until step 06 declares it: counted apart.
    assert.deepEqual(s.lenses, [
      { line: 0, title: 'loads · 3 tools + 1 unknown', command: 'subagents.server.resolve' },
    ]);
    assert.equal(s.shown, true);
    assert.equal(s.message_type, 3);
    assert.match(
      s.message,
      /^subagents: \.polytoken\/subagents\/reviewer\.md \(polytoken\)\n {2}reviewer: loads · 3 tools \+ 1 unknown: deploy \(unknown\), exit_tool, file_read, grep\nFull resolution: /,
    );
    assert.ok(s.rendering_path.startsWith(os.tmpdir()), s.rendering_path);
    assert.match(s.rendering, /^# Resolved: \.polytoken\/subagents\/reviewer\.md\n/);
    assert.match(s.rendering, /\| `grep` \| tools \|/);
    assert.match(s.rendering, /\| `exit_tool` \| always registered \|/);
  });

  it('.subagents.yaml changed on disk (no watcher registration in Neovim 0.7): the definition is re-checked', () => {
    const s = step('06-config-on-disk');
    assert.equal(s.config_in_a_buffer, false, 'the configuration must not reach the server through a buffer');
    assert.deepEqual(codes(s.before), ['polytoken/unknown-tool']);
    assert.equal(
      fs.readFileSync(path.join(session.root, '.subagents.yaml'), 'utf8'),
      'tools:\n  polytoken: [shell, deploy]\n',
    );
    assert.equal(s.rechecked, true, 'polytoken/unknown-tool should go once `deploy` is configured');
    assert.deepEqual(s.after, []);
  });

  it('.subagents.yaml in a buffer: hover on a rule id, rule ids completed, and the severity fix applied by Neovim', () => {
    const s = step('07-config-buffer');
    assert.equal(s.attached, true);
    assert.equal(s.reported, true, 'config/invalid for `warn`');
    assert.match(s.hover ?? '', /^\*\*polytoken\/unknown-tool\*\* — default: warning/);
    assert.ok(
      s.labels.includes('polytoken/unknown-key') && !s.labels.includes('polytoken/unknown-tool'),
      JSON.stringify(s),
    );
    assert.ok(s.offered.includes('Change to `warning`'), JSON.stringify(s.offered));
    assert.equal(s.rule_line, '  polytoken/unknown-tool: warning');
    assert.equal(s.fixed, true);
  });
});
