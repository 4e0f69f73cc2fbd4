/**
 * The Node servers keep V8's young generation at its first size (server/node-heap.ts): checked
 * on V8 itself (the growth factor set at run time holds the new space) and on both bundled
 * entries, through a preloaded hook that records the flags they set.
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { keepYoungGenerationSmall } from '../server/node-heap';
import { CLI, ROOT } from './support/cli';
import { flagsSet } from './support/v8-flags';

const HELPER = path.join(ROOT, 'out', 'server', 'node-heap.js');

/** The largest new space (MiB, both semi-spaces) while a script allocates, keeping a third for a while. */
function newSpacePeak(callHelper: boolean): number {
  const script = `
const v8 = require('v8');
if (${callHelper}) require(${JSON.stringify(HELPER)}).keepYoungGenerationSmall([], undefined);
const kept = [];
let peak = 0;
for (let i = 0; i < 200000; i++) {
  const o = { a: i, b: 'x' + i, c: [i, i + 1] };
  if (i % 3 === 0) kept.push(o);
  if (kept.length > 20000) kept.splice(0, 10000);
  if (i % 2000 === 0) peak = Math.max(peak, v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size);
}
process.stdout.write(String(peak / 1048576));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  return Number(r.stdout);
}

describe('the language server keeps a small young generation', () => {
  it('a size the user gave (node flags or NODE_OPTIONS, either spelling) is kept', () => {
    assert.equal(keepYoungGenerationSmall(['--max-semi-space-size=32'], undefined), false);
    assert.equal(keepYoungGenerationSmall([], '--max-old-space-size=4096 --max_semi_space_size=64'), false);
    assert.equal(keepYoungGenerationSmall(['--semi-space-growth-factor=4'], ''), false);
  });

  it('V8 reads the growth factor at run time: the new space stays at its first size', function () {
    this.timeout(30_000);
    const free = newSpacePeak(false);
    const held = newSpacePeak(true);
    assert.ok(held <= 2, `held to ${held} MiB`);
    assert.ok(free > held * 2, `without it the new space grew to ${free} MiB (held: ${held})`);
  });

  it("`subagents lsp --stdio` and the extension's server set it at start-up, unless NODE_OPTIONS sizes it", function () {
    this.timeout(60_000);
    const flag = '--semi-space-growth-factor=1';
    assert.deepEqual(flagsSet([CLI, 'lsp', '--stdio']), [flag]);
    assert.deepEqual(flagsSet([path.join(ROOT, 'dist', 'server.js'), '--stdio']), [flag]);
    assert.deepEqual(flagsSet([CLI, 'lsp', '--stdio'], { NODE_OPTIONS: '--max-semi-space-size=8' }), []);
    // A one-shot command is not a server: its throughput wants the young generation V8 chooses.
    const check = flagsSet([CLI, 'check', '--stdin', '--stdin-filename', '.polytoken/subagents/x.md']);
    assert.deepEqual(
      check.filter((flag) => /semi/.test(flag)),
      [],
    );
  });
});
