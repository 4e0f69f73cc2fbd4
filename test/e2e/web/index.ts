/**
 * The web run's suite (test/e2e/driver.mjs --web): the extension's web build runs in VS Code's
 * Web Worker extension host, and this suite, in the Node extension host beside it (the runner
 * extension), drives it through the `vscode` API, whose commands (`vscode.executeHoverProvider`,
 * diagnostics, `subagents.resolve`) reach every extension host.
 */
import { runSuiteIn, type SuiteResults } from '../suite/index';

export function runSuite(): Promise<SuiteResults> {
  return runSuiteIn(__dirname);
}
