/**
 * The npm package: `npm pack` of the built checkout, installed globally into a temporary
 * prefix without network, runs `subagents check`, `subagents lsp --stdio` and `subagents mcp` from the
 * installed files (not from the checkout).
 */
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { CLI, lspSession, ROOT, Temps, VALID_POLYTOKEN } from './support/cli';
import { mcpSession } from './mcp/harness';

const temps = new Temps();
after(() => temps.remove());

/** A private npm cache, outside the checkout: the install must not need (or touch) the machine's. */
const npmCache = temps.dir('subagents-npm-cache-');

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      npm_config_cache: npmCache,
      npm_config_update_notifier: 'false',
      npm_config_fund: 'false',
      npm_config_audit: 'false',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

describe('the npm package', function () {
  this.timeout(180000);
  let prefix: string;
  let installed: string;

  before(() => {
    assert.ok(fs.existsSync(CLI), 'dist/cli.js is built (npm test builds it first)');
    const out = temps.dir('subagents-pack-');
    // --ignore-scripts: the bundles are already built; prepack would build them for production.
    const name = npm(['pack', '--ignore-scripts', '--pack-destination', out], ROOT).trim().split('\n').pop()!;
    const tarball = path.join(out, name);
    assert.ok(fs.statSync(tarball).size > 100_000, tarball);
    prefix = temps.dir('subagents-prefix-');
    npm(['install', '--global', '--prefix', prefix, '--offline', '--ignore-scripts', tarball], out);
    installed = path.join(prefix, 'bin', 'subagents');
  });

  it('installs the subagents command from the tarball, with no dependency and no source', () => {
    const real = fs.realpathSync(installed);
    assert.ok(real.startsWith(fs.realpathSync(prefix)), `${real} is inside the install prefix, not the checkout`);
    const pkg = path.dirname(path.dirname(real));
    assert.deepEqual(fs.readdirSync(path.join(pkg, 'dist')).sort(), [
      'check-worker.js',
      'cli-main.js',
      'cli.js',
      'server.js',
    ]);
    assert.ok(!fs.existsSync(path.join(pkg, 'node_modules')), 'the bundles need no dependency');
    for (const absent of ['shared', 'cli', 'test', 'client', 'out'])
      assert.ok(!fs.existsSync(path.join(pkg, absent)), absent);
    for (const present of [
      'README.md',
      'LICENSE',
      'schemas/profy.schema.json',
      'docs/rules/polytoken/name-mismatch.md',
      'docs/runtimes/profy.md',
    ])
      assert.ok(fs.existsSync(path.join(pkg, present)), present);
  });

  it('`subagents check` on a copy of the examples reports the real problems (exit 1), as the checkout does', () => {
    const copy = path.join(temps.dir(), 'examples');
    fs.cpSync(path.join(ROOT, 'examples'), copy, { recursive: true });
    // One worker thread: dist/check-worker.js must be found next to the installed bundle.
    const env = { ...process.env, XDG_CONFIG_HOME: temps.xdg, NO_COLOR: '1', SUBAGENTS_WORKERS: '1' };
    const run = (command: string, args: string[]) => {
      try {
        execFileSync(command, args, {
          cwd: path.dirname(copy),
          env,
          encoding: 'utf8',
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        return { code: 0, stdout: '' };
      } catch (e) {
        const err = e as { status: number; stdout: string };
        return { code: err.status, stdout: err.stdout };
      }
    };
    const fromPackage = run(installed, ['check', 'examples']);
    assert.equal(fromPackage.code, 1);
    assert.match(
      fromPackage.stdout,
      /^examples\/\.polytoken\/subagents\/triage\.md:\d+:\d+ error .*\[polytoken\/name-mismatch\]$/m,
    );
    assert.match(fromPackage.stdout, /^\d+ files checked: [1-9]\d* errors?, /m);
    assert.equal(fromPackage.stdout, run(process.execPath, [CLI, 'check', 'examples']).stdout);
  });

  it('`subagents mcp` answers tools/list and serves the pages from the installed package', async () => {
    const ws = temps.workspace({ '.polytoken/subagents/a.md': VALID_POLYTOKEN('b') });
    const mcp = await mcpSession(ws, temps.xdg, { command: installed, args: ['mcp'] });
    try {
      const { tools } = await mcp.client.listTools();
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        'check',
        'explain_rule',
        'fix',
        'list_definitions',
        'resolve',
      ]);
      assert.equal((await mcp.data('check')).summary.errors, 1);
      assert.match(
        (await mcp.data('explain_rule', { rule: 'polytoken/name-mismatch' })).markdown,
        /^# polytoken\/name-mismatch/,
      );
      const runtime = await mcp.client.readResource({ uri: 'subagents://runtimes/profy' });
      assert.match((runtime.contents[0] as { text: string }).text, /^# Profy Expert files/);
    } finally {
      await mcp.close();
    }
  });

  it('`subagents lsp --stdio` answers initialize and exits on shutdown/exit', async () => {
    const session = await lspSession(installed, ['lsp', '--stdio'], temps.dir(), {
      ...process.env,
      XDG_CONFIG_HOME: temps.xdg,
    });
    assert.ok(session.init.result?.capabilities?.textDocumentSync !== undefined, JSON.stringify(session.init));
    assert.equal(session.code, 0, session.stderr);
  });
});
