import * as assert from 'assert';
import { execFileSync } from 'child_process';
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { analyze, resolveAnalysis } from '../../shared/engine';
import { defaultLoadedConfig } from '../../shared/config/config';
import { checkPaths } from '../../cli/batch/check-paths';
import { parseJson } from '../../shared/text/json';
import { toPlain } from '../../shared/text/tree';
import { parseYaml } from '../../shared/text/yaml';

/**
 * Workspace content is text, never code: templates, shell substitutions and YAML tags that
 * other loaders execute or construct are only read. And checking never writes a file.
 */
const CANARY_DIR = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-canary-')));
const canary = (n: string) => path.join(CANARY_DIR, n);
const js = (n: string) => `require('fs').writeFileSync(${JSON.stringify(canary(n))}, 'pwned')`;

const HOSTILE = {
  polytoken: `---
name: triage
description: "{{ process.exit(3) }} $(touch ${canary('sh1')}) \`touch ${canary('sh2')}\`"
polytoken:
  model: !!js/function "function () { ${js('tag1')} }"
  tools: [!!js/undefined x, !!python/object/apply:os.system ["touch ${canary('py')}"], file_read]
  tools_deny: [!<tag:yaml.org,2002:js/regexp> /x/]
  exit_tool_schema:
    type: object
    properties:
      status: { type: string, enum: [success], default: "{{ ${js('schema')} }}" }
    $ref: "file://${canary('ref')}"
---
{{ process.exit(4) }} {% for x in range(10**10) %}{{ ${js('tpl')} }}{% endfor %}
$(rm -rf ${CANARY_DIR}) \`rm -rf ${CANARY_DIR}\`
<script>${js('html')}</script>
`,
  picasso: `name: code_review
invocation: "@code_review"
model: !!js/function "function () { ${js('tag2')} }"
tools: [read_file]
max_steps: !!js/eval "${js('eval')}"
max_depth: 0
hooks: { skip: ["$(touch ${canary('hook')})"] }
system_prompt: |
  {{ process.exit(5) }} $(rm -rf ${CANARY_DIR})
output_schema: { $ref: "http://127.0.0.1:9/x" }
`,
  profy: JSON.stringify({
    name: 'bookkeeper',
    description: `$(touch ${canary('json')})`,
    constructor: { prototype: { polluted: true } },
    tools: ['read', `$(touch ${canary('tool')})`],
    subagents: [{ name: 'x', description: '{{ process.exit(6) }}', system_prompt: js('prompt'), tools: ['read'] }],
  }).replace('{"name":"bookkeeper"', '{"__proto__":{"polluted":true},"name":"bookkeeper"'),
};

const PATHS = {
  polytoken: '.polytoken/subagents/triage.md',
  picasso: 'apps/cli/agents/code_review.yaml',
  profy: 'bookkeeper.expert.json',
};

/** Every file under root with its size, mtime and hash. */
function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      const st = fs.lstatSync(full);
      if (e.isDirectory()) {
        out[path.relative(root, full) + '/'] = `${st.mtimeMs}`;
        walk(full);
      } else
        out[path.relative(root, full)] =
          `${st.size} ${st.mtimeMs} ${crypto.createHash('sha1').update(fs.readFileSync(full)).digest('hex')}`;
    }
  };
  walk(root);
  return out;
}

describe('hardening: workspace content is never executed, nothing is written', function () {
  this.timeout(60_000);
  after(() => fs.rmSync(CANARY_DIR, { recursive: true, force: true }));

  it('the engine reads hostile definitions as text', () => {
    for (const [dialect, rel] of Object.entries(PATHS) as [keyof typeof PATHS, string][]) {
      const file = path.join('/ws', rel);
      const a = analyze({
        text: HOSTILE[dialect],
        path: file,
        config: defaultLoadedConfig('/ws'),
        root: '/ws',
        onRuleError: (r, e) => assert.fail(`${r}: ${e}`),
      });
      assert.strictEqual(a.kind, dialect);
      resolveAnalysis(a, file);
    }
    assert.deepStrictEqual(fs.readdirSync(CANARY_DIR), [], 'no canary file was written');
    assert.strictEqual(({} as Record<string, unknown>).polluted, undefined, 'no prototype pollution');
  });

  it('`__proto__`, `constructor` and `toString` are keys like any other', () => {
    const yaml = parseYaml('constructor: 1\n__proto__: { polluted: true }\ntoString: x\nhasOwnProperty: 2\n');
    const plain = toPlain(yaml.root) as Record<string, unknown>;
    assert.deepStrictEqual(Object.keys(plain), ['constructor', '__proto__', 'toString', 'hasOwnProperty']);
    assert.strictEqual(Object.getPrototypeOf(plain), Object.prototype);
    assert.deepStrictEqual(
      JSON.parse(JSON.stringify(plain)),
      JSON.parse('{"constructor":1,"__proto__":{"polluted":true},"toString":"x","hasOwnProperty":2}'),
    );
    const json = toPlain(
      parseJson('{"__proto__": {"polluted": true}, "constructor": {"prototype": 1}}').root,
    ) as Record<string, unknown>;
    assert.deepStrictEqual(Object.keys(json), ['__proto__', 'constructor']);
    assert.strictEqual(({} as Record<string, unknown>).polluted, undefined);
    // The dialects see them as unknown keys.
    const a = analyze({
      text: 'name: code_review\nconstructor: 1\n__proto__: 2\n',
      path: '/ws/apps/cli/agents/code_review.yaml',
      config: defaultLoadedConfig('/ws'),
      root: '/ws',
    });
    assert.strictEqual(a.diagnostics.filter((d) => d.code === 'picasso/unknown-key').length, 2);
  });

  it('`subagents check` on a hostile workspace writes nothing, executes nothing', () => {
    const cli = path.resolve(__dirname, '../../../dist/cli.js');
    if (!fs.existsSync(cli)) throw new Error('dist/cli.js is missing: run `npm run build`');
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-hostile-')));
    try {
      for (const [dialect, rel] of Object.entries(PATHS) as [keyof typeof PATHS, string][]) {
        fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
        fs.writeFileSync(path.join(root, rel), HOSTILE[dialect]);
      }
      fs.writeFileSync(
        path.join(root, '.subagents.yaml'),
        `tools:\n  polytoken: [!!js/function "function () { ${js('config')} }"]\nrules: { $(touch ${canary('rules')}): off }\n`,
      );
      const before = snapshot(root);
      let out = '';
      for (const format of ['json', 'text', 'sarif']) {
        try {
          out = execFileSync(process.execPath, [cli, 'check', '.', '--format', format], {
            cwd: root,
            encoding: 'utf8',
            env: { ...process.env, HOME: root, XDG_CONFIG_HOME: path.join(root, 'xdg') },
          });
        } catch (e) {
          const err = e as { status: number; stdout: string; stderr: string };
          assert.strictEqual(err.status, 1, `exit status 1 (errors found), not a crash: ${err.stderr}`);
          out = err.stdout;
        }
        assert.ok(out.length > 0);
      }
      const json = JSON.parse(execFileSyncStatus(cli, root));
      assert.strictEqual(json.files.length, 4, 'three definitions and the configuration');
      assert.deepStrictEqual(snapshot(root), before, 'no file was created, changed or touched');
      assert.deepStrictEqual(fs.readdirSync(CANARY_DIR), [], 'no canary file was written');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it('checkPaths in this process writes nothing either (one thread and worker threads)', () => {
    const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-hostile-')));
    try {
      for (let i = 0; i < 30; i++) {
        for (const [dialect, rel] of Object.entries(PATHS) as [keyof typeof PATHS, string][]) {
          const target = path.join(root, `p${i}`, rel);
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, HOSTILE[dialect]);
        }
      }
      const before = snapshot(root);
      const one = checkPaths([root], { cwd: root, noGlobal: true, workers: 0, keepAnalysis: false });
      const two = checkPaths([root], { cwd: root, noGlobal: true, workers: 1, keepAnalysis: false });
      assert.strictEqual(one.files.length, 90);
      assert.strictEqual(JSON.stringify(two.files), JSON.stringify(one.files));
      assert.deepStrictEqual(snapshot(root), before);
      assert.deepStrictEqual(fs.readdirSync(CANARY_DIR), []);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

function execFileSyncStatus(cli: string, cwd: string): string {
  try {
    return execFileSync(process.execPath, [cli, 'check', '.', '--format', 'json', '--no-global'], {
      cwd,
      encoding: 'utf8',
    });
  } catch (e) {
    return (e as { stdout: string }).stdout;
  }
}
