/**
 * Time limits for tests that do a great deal of work on purpose (a budget's millions of comparisons). In a
 * mutation run (scripts/stryker/mocha-setup.cjs) the first run counts every statement executed, which makes
 * such a test about 100 times slower: its limit grows with it.
 */
export function workLimit(ms: number): number {
  return process.env.SUBAGENTS_MUTATION_RUN ? ms * 30 : ms;
}
