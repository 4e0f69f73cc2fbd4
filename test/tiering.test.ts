/**
 * A check that analyzes files tiers functions up to TurboFan later (cli/tiering.ts): checked on V8 itself
 * (the budget set at run time keeps moderately hot functions unoptimized) and on the bundled
 * bundled CLI, through a preloaded hook that records the flags it sets.
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { INTERRUPT_BUDGET, SHORT_CHECK_FILES, optimizeOnlyWhatStaysHot } from '../cli/tiering';
import { CLI, ROOT, Temps, VALID_POLYTOKEN } from './support/cli';
import { mcpSession } from './mcp/harness';
import { flagHook, flagsIn, flagsSet } from './support/v8-flags';

const temps = new Temps();
after(() => temps.remove());

const HELPER = path.join(ROOT, 'out', 'cli', 'tiering.js');

/** How many of 50 small functions, each called 400 times, V8 optimized (synchronously, so the count is exact), after a check of the most files that still gets the budget. */
function optimizedCount(callHelper: boolean): number {
  const script = `
if (${callHelper}) require(${JSON.stringify(HELPER)}).optimizeOnlyWhatStaysHot(${SHORT_CHECK_FILES}, []);
const fns = [];
for (let k = 0; k < 50; k++) fns.push(new Function('a', 'let s = 0; for (let i = 0; i < 20; i++) s += (a * ' + k + ' + i) % 7; return s;'));
let total = 0;
for (let n = 0; n < 400; n++) for (const f of fns) total += f(n);
let optimized = 0;
for (const f of fns) if (%GetOptimizationStatus(f) & 16) optimized++;
process.stdout.write(String(optimized));`;
  const r = spawnSync(process.execPath, ['--allow-natives-syntax', '--no-concurrent-recompilation', '-e', script], {
    encoding: 'utf8',
  });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout);
}

describe('one-shot commands optimize only what stays hot', () => {
  it('a long check, one with nothing to analyze and a budget the user gave as a node flag (either spelling) keep V8’s', () => {
    assert.equal(optimizeOnlyWhatStaysHot(10, ['--interrupt-budget=1000']), false);
    assert.equal(optimizeOnlyWhatStaysHot(10, ['--max-old-space-size=4096', '--interrupt_budget=9000']), false);
    assert.equal(optimizeOnlyWhatStaysHot(SHORT_CHECK_FILES + 1, []), false);
    assert.equal(optimizeOnlyWhatStaysHot(0, []), false);
    assert.equal(SHORT_CHECK_FILES, 20_000);
    assert.equal(INTERRUPT_BUDGET, 540_672);
  });

  it('V8 reads the budget at run time: functions hot for a moment stay unoptimized', function () {
    this.timeout(30_000);
    assert.equal(optimizedCount(false), 50);
    assert.equal(optimizedCount(true), 0);
  });

  it('a check sets it when it analyzes files; a warm cache run, a user budget and the language server do not', function () {
    this.timeout(60_000);
    const flag = `--interrupt-budget=${INTERRUPT_BUDGET}`;
    const stdin = [CLI, 'check', '--stdin', '--stdin-filename', '.polytoken/subagents/x.md'];
    assert.deepEqual(flagsSet(stdin), [flag]);
    assert.deepEqual(flagsSet(['--interrupt-budget=9000', ...stdin]), []);
    // Everything reused: the few hot loops of a warm run keep V8's default tiering.
    const ws = temps.workspace({ '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer') });
    const cached = [CLI, 'check', ws, '--cache', '--cache-strategy', 'content', '--cache-location', path.join(ws, 'c')];
    assert.deepEqual(flagsSet(cached), [flag]);
    assert.deepEqual(flagsSet(cached), []);
    // The server lives for the editor's session: V8's default tiering, and only its heap flag.
    assert.deepEqual(flagsSet([CLI, 'lsp', '--stdio']), ['--semi-space-growth-factor=1']);
    assert.deepEqual(flagsSet([path.join(ROOT, 'dist', 'server.js'), '--stdio']), ['--semi-space-growth-factor=1']);
  });

  it('the MCP server keeps V8’s default: an agent waits on its first answer', async function () {
    this.timeout(60_000);
    const ws = temps.workspace({ '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer') });
    const session = await mcpSession(ws, temps.dir(), { args: ['--require', flagHook(temps.dir()), CLI, 'mcp'] });
    try {
      const checked = await session.data('check', { paths: ['.polytoken'] });
      assert.equal(checked.files.length, 1, 'the check analyzed the definition');
    } finally {
      await session.close();
    }
    assert.deepEqual(flagsIn(session.stderr()), []);
  });
});
