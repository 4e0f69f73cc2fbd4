/**
 * The CI integrations at the repository root: the pre-commit hook (.pre-commit-hooks.yaml)
 * and the GitHub composite action (action.yml). Their structure is checked, and their
 * command lines are run against the built CLI.
 */
import { strict as assert } from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { parse } from 'yaml';
import { CLI, ROOT, Temps } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

const PKG = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };

/** Every file below a folder, relative, `/` separators. */
function filesBelow(dir: string, rel = ''): string[] {
  return fs.readdirSync(path.join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const p = rel ? `${rel}/${e.name}` : e.name;
    return e.isDirectory() ? filesBelow(dir, p) : [p];
  });
}

/** A folder with a `subagents` command that runs the built CLI, for PATH. */
function binFolder(): string {
  const bin = temps.dir('subagents-bin-');
  fs.writeFileSync(path.join(bin, 'subagents'), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`, {
    mode: 0o755,
  });
  return bin;
}

describe('.pre-commit-hooks.yaml', function () {
  this.timeout(60000);
  const hooks = parse(fs.readFileSync(path.join(ROOT, '.pre-commit-hooks.yaml'), 'utf8'));

  it('declares hooks with the keys pre-commit requires, running the package bin with language node', () => {
    assert.ok(Array.isArray(hooks) && hooks.length >= 1);
    for (const hook of hooks) {
      for (const key of ['id', 'name', 'entry', 'language']) assert.equal(typeof hook[key], 'string', key);
      assert.equal(hook.language, 'node');
      assert.ok(Object.keys(PKG.bin).includes(hook.entry.split(' ')[0]), `${hook.entry} runs a bin of the package`);
      assert.doesNotThrow(() => new RegExp(hook.files));
    }
  });

  it('selects the definition files of the examples, and its command line checks them (exit 1)', () => {
    const hook = hooks[0];
    const files = new RegExp(hook.files);
    const all = filesBelow(path.join(ROOT, 'examples'));
    const selected = all.filter((f) => files.test(f));
    const listed = JSON.parse(
      spawnSync(process.execPath, [CLI, 'check', '-f', 'json'], {
        cwd: path.join(ROOT, 'examples'),
        encoding: 'utf8',
        env: { ...process.env, XDG_CONFIG_HOME: temps.xdg },
      }).stdout,
    ).files.map((f: { path: string }) => f.path);
    assert.deepEqual(selected.sort(), listed.sort(), 'the hook selects exactly what `subagents check` recognizes');
    assert.ok(!files.test('README.md') && !files.test('docs/agents.md'));
    const [command, ...args] = hook.entry.split(' ');
    const r = spawnSync(command, [...args, ...selected, '../README.md'], {
      cwd: path.join(ROOT, 'examples'),
      encoding: 'utf8',
      env: { ...process.env, PATH: `${binFolder()}:${process.env.PATH}`, XDG_CONFIG_HOME: temps.xdg },
    });
    assert.equal(r.status, 1, r.stderr);
    assert.match(r.stdout, /\[polytoken\/name-mismatch\]/);
    // A file the configuration ignores, or one named by a wider `files`, is no reason to fail.
    assert.equal(r.stderr, '');
  });
});

describe('action.yml', function () {
  this.timeout(60000);
  const text = fs.readFileSync(path.join(ROOT, 'action.yml'), 'utf8');
  const action = parse(text);
  const steps: {
    id?: string;
    name?: string;
    uses?: string;
    run?: string;
    shell?: string;
    env?: Record<string, string>;
    with?: Record<string, string>;
  }[] = action.runs.steps;

  it('is a composite action: name, description, inputs with descriptions, a shell for every run step', () => {
    assert.equal(typeof action.name, 'string');
    assert.equal(typeof action.description, 'string');
    assert.equal(action.runs.using, 'composite');
    for (const [name, input] of Object.entries<{ description?: string }>(action.inputs))
      assert.equal(typeof input.description, 'string', name);
    for (const step of steps) {
      assert.ok(!!step.uses !== !!step.run, `${step.name}: either uses or run`);
      if (step.run) assert.equal(step.shell, 'bash', step.name);
    }
    // Every input the file uses is declared, and every output names a step that exists.
    for (const [, name] of text.matchAll(/inputs\.([\w-]+)/g))
      assert.ok(name in action.inputs, `input ${name} is declared`);
    for (const [name, output] of Object.entries<{ value: string }>(action.outputs)) {
      const step = /steps\.([\w-]+)\./.exec(output.value)?.[1];
      if (step)
        assert.ok(
          steps.some((s) => s.id === step),
          `output ${name}: step ${step}`,
        );
    }
  });

  it('installs the package, checks to SARIF and uploads it with github/codeql-action/upload-sarif', () => {
    assert.ok(steps.some((s) => s.uses?.startsWith('actions/setup-node@')));
    assert.ok(steps.some((s) => /npm install --global .*subagents-tooling-\*\.tgz/.test(s.run ?? '')));
    const upload = steps.find((s) => s.uses?.startsWith('github/codeql-action/upload-sarif@'));
    assert.ok(upload, 'an upload step');
    assert.equal(upload!.with?.sarif_file, '${{ inputs.sarif-file }}');
    assert.match(steps.find((s) => s.id === 'check')!.run!, /subagents check .*--format sarif -o "\$SUBAGENTS_SARIF"/);
  });

  it('its check step writes a SARIF report and records the exit status, without failing on findings itself', () => {
    const check = steps.find((s) => s.id === 'check')!;
    const ws = temps.dir();
    fs.cpSync(path.join(ROOT, 'examples'), path.join(ws, 'examples'), { recursive: true });
    const output = path.join(ws, 'github-output');
    const run = (paths: string) =>
      spawnSync('bash', ['-e', '-c', check.run!], {
        cwd: ws,
        encoding: 'utf8',
        env: {
          ...process.env,
          PATH: `${binFolder()}:${process.env.PATH}`,
          XDG_CONFIG_HOME: temps.xdg,
          GITHUB_OUTPUT: output,
          SUBAGENTS_PATHS: paths,
          SUBAGENTS_ARGS: action.inputs.args.default,
          SUBAGENTS_SARIF: action.inputs['sarif-file'].default,
        },
      });
    const r = run(action.inputs.paths.default);
    assert.equal(r.status, 0, r.stderr);
    assert.match(fs.readFileSync(output, 'utf8'), /^exit-code=1$/m);
    const sarif = JSON.parse(fs.readFileSync(path.join(ws, 'subagents.sarif'), 'utf8'));
    assert.equal(sarif.version, '2.1.0');
    assert.ok(sarif.runs[0].results.length > 0);
    // A usage error fails the step (exit 2).
    assert.equal(run('missing-folder').status, 2);
  });
});
