/**
 * Loads and runs the integration suite inside the extension host.
 * - `run()` is the entry point @vscode/test-electron calls (`extensionTestsPath`): it rejects when a test fails.
 * - `runSuite()` is what the e2e runner extension (test/e2e/runner-extension) calls under code-server:
 *   it returns the results, which the runner writes to a file the driver reads.
 */
import * as fs from 'fs';
import * as path from 'path';
import Mocha from 'mocha';
import { extensionApi } from './helpers';

export interface TestResult {
  title: string;
  state: 'passed' | 'failed' | 'pending';
  durationMs?: number;
  error?: string;
}
export interface SuiteResults {
  tests: TestResult[];
  passes: number;
  failures: number;
  pending: number;
  durationMs: number;
  timings?: { serverReadyMs?: number; firstResolveMs?: number };
  vscodeVersion?: string;
}

export function runSuite(): Promise<SuiteResults> {
  return runSuiteIn(__dirname, async () => (await extensionApi()).timings());
}

/**
 * Runs every `*.e2e.js` of `dir`; `timings` asks the extension for its start-up times (the web
 * run cannot: the extension is in another extension host, test/e2e/web/).
 */
export async function runSuiteIn(dir: string, timings?: () => Promise<SuiteResults['timings']>): Promise<SuiteResults> {
  const started = Date.now();
  const mocha = new Mocha({ ui: 'bdd', timeout: 90000, color: false, reporter: 'spec' });
  for (const f of fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.e2e.js'))
    .sort())
    mocha.addFile(path.join(dir, f));
  const tests: TestResult[] = [];
  await new Promise<void>((resolve) => {
    const runner = mocha.run(() => resolve());
    runner.on('pass', (t) => tests.push({ title: t.fullTitle(), state: 'passed', durationMs: t.duration }));
    runner.on('fail', (t, err: Error) =>
      tests.push({ title: t.fullTitle(), state: 'failed', durationMs: t.duration, error: err?.stack ?? String(err) }),
    );
    runner.on('pending', (t) => tests.push({ title: t.fullTitle(), state: 'pending' }));
  });
  let measured: SuiteResults['timings'];
  try {
    measured = await timings?.();
  } catch {
    measured = undefined;
  }
  const vscode = await import('vscode');
  return {
    tests,
    passes: tests.filter((t) => t.state === 'passed').length,
    failures: tests.filter((t) => t.state === 'failed').length,
    pending: tests.filter((t) => t.state === 'pending').length,
    durationMs: Date.now() - started,
    timings: measured,
    vscodeVersion: vscode.version,
  };
}

export async function run(): Promise<void> {
  const r = await runSuite();
  console.log(
    `[e2e] ${r.passes} passing, ${r.failures} failing, ${r.pending} pending; server ready ${r.timings?.serverReadyMs} ms after activation`,
  );
  if (r.failures > 0 || r.passes === 0) throw new Error(`${r.failures} integration test(s) failed, ${r.passes} passed`);
}
