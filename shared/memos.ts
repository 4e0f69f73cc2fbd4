/**
 * The engine's module-level memos (compiled validators, schema verdicts, matchers, the composed
 * configuration schema), each registered with a way to forget it. The product never forgets
 * them: they depend only on code and constant inputs. A harness that runs many variants of the
 * engine in one process does (the mutation run, scripts/stryker/mocha-setup.cjs): an answer one
 * variant computed must not be served to the next.
 */
const forgetters: (() => void)[] = [];

/** Registers how to forget one memo. */
export function onForgetMemos(forget: () => void): void {
  forgetters.push(forget);
}

/** Forgets every memo: the next call computes afresh. */
export function forgetMemos(): void {
  for (const forget of forgetters) forget();
}
