import * as assert from 'assert';
import * as path from 'path';
import { buildIndex, Runner, type Item } from '../cli/batch/check-runner';
import { defaultWorkerCount, workerCount } from '../cli/batch/check-paths';
import { defaultLoadedConfig } from '../shared/config/config';
import { withTree } from './support/tree';

/**
 * Phase 2 of checkPaths lets any thread analyze any file: a thread that did not name a file
 * in phase 1 reads it again and checks its parse against the name the index holds, as the
 * thread that named it checks its quick name.
 */
describe('check runner: a file named by another thread', () => {
  // The quick reading of its lines says `triage`; the parse loses `name` (a broken line), so the file registers as `broken`.
  const broken = '---\ndescription: d\n  tools: [a, b]\nname: triage\n---\n';

  it('is corrected when its parse contradicts the indexed name, as with a quick name', () => {
    withTree({ '.polytoken/subagents/broken.md': broken }, (root) => {
      const items: Item[] = [
        {
          path: path.posix.join(root, '.polytoken/subagents/broken.md'),
          kind: 'polytoken',
          config: defaultLoadedConfig(root),
          root,
        },
      ];
      const named = new Runner(items).indexEntry(0);
      assert.deepStrictEqual(named, { name: 'triage' });
      const workspace = buildIndex(items, new Map([[0, 'triage']]));
      // The thread that named it: its quick name is in its memory.
      const owner = new Runner(items);
      owner.indexEntry(0);
      assert.strictEqual(stripAnalysis(owner.analyzeOne(0, workspace)).corrected, 'broken');
      // Another thread: the name comes from the index.
      assert.strictEqual(stripAnalysis(new Runner(items).analyzeOne(0, workspace, 'triage')).corrected, 'broken');
      // Without it nothing would be corrected (what the check guards against).
      assert.strictEqual(stripAnalysis(new Runner(items).analyzeOne(0, workspace)).corrected, undefined);
      // A file whose parse agrees is not corrected.
      assert.strictEqual(stripAnalysis(new Runner(items).analyzeOne(0, workspace, 'broken')).corrected, undefined);
    });
  });
});

function stripAnalysis(r: ReturnType<Runner['analyzeOne']>): { corrected?: string } {
  if (!('analysis' in r)) assert.fail(`no analysis: ${JSON.stringify(r)}`);
  return { corrected: r.corrected };
}

describe('check: how many worker threads', () => {
  it('starts workers by default only where a core is left beside each thread and its V8 helpers', () => {
    const counts = [1, 2, 3, 4, 5, 6, 8, 16, 17, 64].map((cores) => [cores, defaultWorkerCount(cores)]);
    assert.deepStrictEqual(counts, [
      [1, 0],
      [2, 0],
      [3, 0],
      [4, 1],
      [5, 1],
      [6, 2],
      [8, 3],
      [16, 7],
      [17, 7],
      [64, 7],
    ]);
  });

  it('uses the count asked for (0 to 16, the option before SUBAGENTS_WORKERS), else the default above 2,000 files', () => {
    const count = (candidates: number, workers?: number, env: NodeJS.ProcessEnv = {}) =>
      workerCount(candidates, { cwd: '/', workers, env }, 8);
    assert.deepStrictEqual(
      [count(2000), count(2001), count(10, 2), count(10, 2.9), count(10, -3), count(10, 99), count(10, Infinity)],
      [0, 3, 2, 2, 0, 16, 0],
    );
    assert.deepStrictEqual(
      [
        count(10, undefined, { SUBAGENTS_WORKERS: '5' }),
        count(10, 1, { SUBAGENTS_WORKERS: '5' }),
        count(2001, undefined, { SUBAGENTS_WORKERS: 'many' }),
        count(2001, undefined, { SUBAGENTS_WORKERS: '0' }),
      ],
      [5, 1, 3, 0],
    );
  });
});
