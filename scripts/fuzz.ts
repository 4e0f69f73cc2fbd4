/**
 * `npm run fuzz [-- --runs N] [--seed S] [--kind polytoken|picasso|profy|config|yaml]`: the
 * hardening properties (test/hardening/generators.ts) over many more cases than `npm test`;
 * 1,000,000 by default, split over the dialects and configuration files. The seed is printed
 * first: pass it back with --seed to replay. A failure prints the shrunk counterexample.
 * `--kind yaml`: the fast YAML reader against the yaml package on generated texts
 * (test/support/yaml-gen.ts), the first differences printed.
 */
import fc from 'fast-check';
import { CASES, checkInvariants, loadedConfig, workspaceIndex } from '../test/hardening/generators';
import { compareWithPackage } from '../test/support/parse-diff';
import { loadPrng, randomYaml } from '../test/support/yaml-gen';
import type { FileKind } from '../shared/types';

const args = process.argv.slice(2);
const opt = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const total = Number(opt('--runs') ?? 1_000_000);
const seed = Number(opt('--seed') ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0);
const kind = opt('--kind');
if (kind === 'yaml') {
  void fuzzYaml().then(() => process.exit(process.exitCode ?? 0));
} else fuzzDefinitions();
/** The hardening properties of every dialect and configuration files. */
function fuzzDefinitions(): void {
  const only = kind as FileKind | undefined;
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
}

/** The fast YAML reader against the yaml package on `total` generated texts. */
async function fuzzYaml(): Promise<void> {
  console.log(`fuzz: ${total.toLocaleString('en')} YAML texts, seed ${seed}`);
  const rand = (await loadPrng())(seed);
  let fast = 0;
  let differences = 0;
  const t = Date.now();
  for (let i = 0; i < total; i++) {
    const text = randomYaml(rand);
    const r = compareWithPackage(text, i % 3);
    if (r.fast) fast++;
    if (r.difference && ++differences <= 10) console.log(`${r.difference}\n  ${JSON.stringify(text)}`);
  }
  console.log(
    `${differences ? 'FAILED' : 'passed'}: ${differences} differences; the fast reader answered ${fast.toLocaleString('en')} texts; ${((Date.now() - t) / 1000).toFixed(1)} s (seed ${seed})`,
  );
  process.exitCode = differences ? 1 : 0;
}
