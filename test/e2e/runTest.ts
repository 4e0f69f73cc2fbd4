/**
 * `npm run test:vscode`: the integration suite in desktop VS Code downloaded by
 * @vscode/test-electron (for machines that can download it; on machines that cannot, use
 * `npm run test:e2e`, which runs the same suite in code-server). The extension is loaded from
 * the repository (extensionDevelopmentPath), the suite from out/test/e2e/suite.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { runTests } from '@vscode/test-electron';

async function main(): Promise<void> {
  const repo = path.resolve(__dirname, '../../..');
  // The suite edits files (and reverts them); it works on a copy of the fixture workspace.
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-e2e-ws-'));
  fs.cpSync(path.join(repo, 'test/e2e/workspace'), workspace, { recursive: true });
  const userData = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-e2e-ud-'));
  try {
    await runTests({
      version: process.env.VSCODE_VERSION ?? 'stable',
      extensionDevelopmentPath: repo,
      extensionTestsPath: path.join(__dirname, 'suite', 'index.js'),
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        `--user-data-dir=${userData}`,
      ],
    });
  } finally {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(userData, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
