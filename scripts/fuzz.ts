/**
 * `npm run fuzz [-- --runs N] [--seed S] [--kind polytoken|picasso|profy|config]`: the
 * hardening properties (test/hardening/generators.ts) over many more cases than `npm test`;
 * 1,000,000 by default, split over the dialects and configuration files. The seed is printed
 * first: pass it back with --seed to replay. A failure prints the shrunk counterexample.
 */
import fc from 'fast-check';
import { CASES, checkInvariants, loadedConfig, workspaceIndex } from '../test/hardening/generators';
import type { FileKind } from '../shared/types';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const total = Number(opt('--runs') ?? 1_000_000);
const seed = Number(opt('--seed') ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0);
const only = opt('--kind') as FileKind | undefined;
const share: Record<FileKind, number> = { polytoken: 0.32, picasso: 0.28, profy: 0.28, config: 0.12 };
const kinds = (Object.keys(share) as FileKind[]).filter((k) => !only || k === only);

console.log(`fuzz: ${total.toLocaleString('en')} cases, seed ${seed}${only ? `, ${only} only` : ''}`);
let failed = false;
const start = Date.now();
for (const kind of kinds) {
  const runs = only ? total : Math.round(total * share[kind]);
  const t = Date.now();
  let done = 0;
  const result = fc.check(
    fc.property(CASES[kind], loadedConfig, workspaceIndex, (c, loaded, workspace) => {
      if (++done % 50_000 === 0)
        process.stdout.write(`  ${kind}: ${done.toLocaleString('en')}/${runs.toLocaleString('en')}\n`);
      checkInvariants(c, loaded, workspace);
    }),
    { numRuns: runs, seed },
  );
  if (result.failed) {
    failed = true;
    console.log(fc.defaultReportMessage(result));
  } else {
    console.log(`${kind}: ${runs.toLocaleString('en')} cases passed in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  }
}
console.log(`${failed ? 'FAILED' : 'passed'} in ${((Date.now() - start) / 1000).toFixed(1)} s (seed ${seed})`);
process.exitCode = failed ? 1 : 0;
