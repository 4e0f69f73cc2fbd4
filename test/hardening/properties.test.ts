import * as assert from 'assert';
import fc from 'fast-check';
import { CASES, checkInvariants, checkRanges, loadedConfig, workspaceIndex } from './generators';
import type { FileKind } from '../../shared/types';
import { DIALECT_MODULES } from '../../shared/engine';
import { defaultLoadedConfig } from '../../shared/config/config';

/**
 * Property tests over analyze + resolveAnalysis: generated and mutated definitions of every
 * dialect (and configuration files) never throw, never make a rule throw, keep every range
 * inside the document, give the same output twice, and never grant a denied tool.
 * 2,000 cases in all; `npm run fuzz` runs the same properties a million times.
 * FC_SEED=<n> replays a run (the seed is printed on failure).
 */
const RUNS: Record<FileKind, number> = { polytoken: 650, picasso: 550, profy: 550, config: 250 };
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;

describe('hardening: properties of analyze and resolve', function () {
  this.timeout(120_000);
  for (const kind of Object.keys(RUNS) as FileKind[]) {
    it(`${kind}: ${RUNS[kind]} generated and mutated files keep every invariant`, () => {
      fc.assert(
        fc.property(CASES[kind], loadedConfig, workspaceIndex, (c, loaded, workspace) => {
          checkInvariants(c, loaded, workspace);
        }),
        { numRuns: RUNS[kind], seed, endOnFailure: false },
      );
    });
  }

  it('the invariant checks can fail', () => {
    const diag = (line: number, character: number) => ({ range: { start: { line: 0, character: 0 }, end: { line, character } }, message: 'm', source: 'subagents', code: 'x/y' });
    assert.doesNotThrow(() => checkRanges('ab\r\ncd', [diag(1, 2)]));
    assert.throws(() => checkRanges('ab\r\ncd', [diag(1, 3)]), /outside/);
    assert.throws(() => checkRanges('ab\r\ncd', [diag(2, 0)]), /outside/);
    assert.throws(() => checkRanges('\ufeffab', [diag(0, 3)]), /outside/); // the BOM is not a character of the line
    // A resolver that grants a denied tool is caught.
    const module = DIALECT_MODULES.picasso;
    const original = module.resolve;
    module.resolve = (ctx, diagnostics) => original(ctx, diagnostics).map((d) => ({ ...d, tools: [...d.tools, 'write_memory'].sort() }));
    try {
      const text = 'name: code_review\ninvocation: "@code_review"\nmodel: m\ntools: [read_file]\nmax_steps: 3\nmax_depth: 0\nmemory: none\n';
      assert.throws(() => checkInvariants({ kind: 'picasso', path: '/ws/apps/cli/agents/code_review.yaml', text }, defaultLoadedConfig('/ws')), /memory: none denies `write_memory`/);
    } finally {
      module.resolve = original;
    }
  });
});
