/**
 * The release workflow (.github/workflows/release.yml). Publishing needs tokens and the network,
 * so CI cannot run it: this holds its steps to what CI does run. Every command it calls exists
 * (an npm script, or a tool of devDependencies), the steps before publishing are the ones .ci/run
 * runs, and its tag check is run here for real.
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { ROOT } from './support/cli';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  env?: Record<string, string>;
}

const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  version: string;
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};
const workflow = parse(fs.readFileSync(path.join(ROOT, '.github/workflows/release.yml'), 'utf8'));
const steps: Step[] = workflow.jobs.release.steps;
const CI_RUN = fs.readFileSync(path.join(ROOT, '.ci/run'), 'utf8');

/** The package that provides each tool the workflow runs with npx. */
const TOOLS: Record<string, string> = { vsce: '@vscode/vsce', ovsx: 'ovsx' };

const isPublish = (s: Step) => /\b(publish|release create)\b/.test(s.run ?? '');

describe('the release workflow', () => {
  it('runs on a version tag, with a name and a run or uses on every step', () => {
    assert.deepStrictEqual(workflow.on.push.tags, ['v*']);
    assert.ok(steps.length > 0);
    for (const s of steps) assert.ok(s.run || s.uses, JSON.stringify(s));
  });

  it('calls only npm scripts that exist and tools of devDependencies, never a download at release time', () => {
    const runs = steps.flatMap((s) => (s.run ? [s.run] : []));
    const scripts = runs.flatMap((r) => [...r.matchAll(/\bnpm (?:run )?([\w:-]+)/g)].map((m) => m[1]));
    assert.ok(scripts.length >= 2, scripts.join(' '));
    for (const script of scripts)
      if (!['ci', 'test', 'publish'].includes(script)) assert.ok(PKG.scripts[script], `npm run ${script}`);
    assert.ok(PKG.scripts.test);
    const tools = runs.flatMap((r) => [...r.matchAll(/\bnpx (\S+)(?: (\S+))?/g)].map((m) => m.slice(1)));
    assert.ok(tools.length >= 2, JSON.stringify(tools));
    for (const [flag, tool] of tools) {
      assert.strictEqual(flag, '--no-install', 'npx runs what npm ci installed');
      assert.ok(TOOLS[tool!] && PKG.devDependencies[TOOLS[tool!]!], `${tool} comes from devDependencies`);
    }
  });

  it('publishes to both marketplaces with their tokens from secrets, after the checks', () => {
    const publish = steps.filter(isPublish);
    assert.deepStrictEqual(
      publish.map((s) => s.run!.match(/npx --no-install (\w+)|gh release/)![0]),
      ['npx --no-install vsce', 'npx --no-install ovsx', 'gh release'],
    );
    assert.match(publish[0]!.env!.VSCE_PAT!, /secrets\.VSCE_PAT/);
    assert.match(publish[1]!.env!.OVSX_PAT!, /secrets\.OVSX_PAT/);
    const first = steps.indexOf(publish[0]!);
    assert.ok(steps.slice(first).every(isPublish), 'nothing but publishing after the first publish step');
  });

  it('checks before publishing what .ci/run checks: the format, the tests, the package', () => {
    const before = steps.slice(0, steps.findIndex(isPublish)).flatMap((s) => (s.run ? [s.run] : []));
    for (const command of ['npm run format:check', 'npm test', 'npm run package:check']) {
      assert.ok(before.includes(command), `the workflow runs ${command}`);
      assert.ok(CI_RUN.includes(command), `.ci/run runs ${command}`);
    }
  });

  it("refuses a tag that is not package.json's version (its check step, run here)", () => {
    const check = steps.find((s) => /GITHUB_REF_NAME/.test(s.run ?? '') && !isPublish(s));
    assert.ok(check, 'a step checks the tag');
    const run = (tag: string) =>
      spawnSync('bash', ['-c', check.run!], { cwd: ROOT, env: { ...process.env, GITHUB_REF_NAME: tag } }).status;
    assert.strictEqual(run(`v${PKG.version}`), 0);
    assert.strictEqual(run('v999.0.0'), 1);
    assert.strictEqual(run(PKG.version), 1);
  });
});
