import * as assert from 'assert';
import { analyze, resolveAnalysis } from '../../shared/engine';
import { MAX_FILE_CHARS } from '../../shared/text/limits';
import type { Analysis } from '../../shared/types';
import { defaultLoadedConfig } from '../../shared/config/config';
import { MAX_PARSE_DEPTH, parseYaml } from '../../shared/text/yaml';
import { parseJson } from '../../shared/text/json';
import { checkRanges } from './generators';

/**
 * Limits: what a pathological file does to the engine. Nothing here throws, every range
 * stays inside the document, and the work is bounded (structurally: the timings are in
 * the benchmark, not here).
 */
const WS = '/ws';
const config = defaultLoadedConfig(WS);
const PATHS = {
  polytoken: `${WS}/.polytoken/subagents/triage.md`,
  picassoMd: `${WS}/.picasso/agents/code_review.md`,
  picassoYaml: `${WS}/apps/cli/agents/code_review.yaml`,
  profy: `${WS}/bookkeeper.expert.json`,
};

function run(path: string, text: string): Analysis {
  const ruleErrors: string[] = [];
  const analysis = analyze({
    text,
    path,
    config,
    root: WS,
    onRuleError: (rule, e) => ruleErrors.push(`${rule}: ${e}`),
  });
  assert.deepStrictEqual(ruleErrors, [], 'no rule throws');
  checkRanges(text, analysis.diagnostics);
  resolveAnalysis(analysis, path); // never throws
  return analysis;
}

const codes = (a: Analysis) => a.diagnostics.map((d) => d.code);

const VALID = {
  polytoken:
    '---\nname: triage\ndescription: Sorts issues.\npolytoken:\n  model: fast\n  tools:\n    - file_read\n    - grep\n  tools_deny: [grep]\n---\nSort the issues.\n',
  picassoYaml:
    'name: code_review\ninvocation: "@code_review"\nmodel: balanced\ntools:\n  - read_file\n  - grep\nmax_steps: 10\nmax_depth: 1\noutput_schema:\n  type: object\ndescription: Reviews code.\nwhen_to_use: For reviews.\n',
  profy: JSON.stringify(
    {
      name: 'bookkeeper',
      description: 'Books.',
      delegationBrief: 'Books entries.',
      tools: ['read', 'grep'],
      subagents: [{ name: 'scanner', description: 'Scans.', system_prompt: 'Scan.', tools: ['read'] }],
    },
    null,
    2,
  ),
};

describe('hardening: limits', function () {
  this.timeout(60_000);

  it('a file above 5 MB is reported on its first line, not parsed', () => {
    const big = '---\nname: triage\n' + 'x'.repeat(MAX_FILE_CHARS) + '\n---\n';
    for (const [path, text] of [
      [PATHS.polytoken, big],
      [PATHS.picassoYaml, 'name: x\n# ' + 'y'.repeat(MAX_FILE_CHARS)],
      [PATHS.profy, '{"name": "' + 'z'.repeat(MAX_FILE_CHARS) + '"}'],
    ]) {
      const a = run(path, text);
      assert.strictEqual(a.diagnostics.length, 1, path);
      assert.match(String(a.diagnostics[0].message), /above the 5 MB limit/);
      assert.strictEqual(a.diagnostics[0].range.start.line, 0);
      assert.strictEqual(a.context, undefined, 'not parsed');
    }
  });

  it('a 10 MB file is reported the same way', () => {
    const text = 'name: code_review\ntools: [read_file]\n'.repeat(Math.ceil((10 * 1024 * 1024) / 37));
    const a = run(PATHS.picassoYaml, text);
    assert.deepStrictEqual(codes(a), ['syntax/yaml']);
    assert.match(String(a.diagnostics[0].message), /10\.0 MB/);
  });

  it('a file just under the limit is parsed', () => {
    const text = VALID.picassoYaml + '# ' + 'p'.repeat(MAX_FILE_CHARS - VALID.picassoYaml.length - 3) + '\n';
    assert.ok(text.length <= MAX_FILE_CHARS);
    const a = run(PATHS.picassoYaml, text);
    assert.ok(a.context, 'parsed');
    assert.ok(!a.diagnostics.some((d) => /limit/.test(String(d.message))));
  });

  it('alias bombs are bounded: the copied tree stops at the budget', () => {
    const levels = 'abcdefghij'.split('');
    let yaml = `${levels[0]}: &${levels[0]} [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n`;
    for (let i = 1; i < levels.length; i++)
      yaml += `${levels[i]}: &${levels[i]} [${Array(9)
        .fill('*' + levels[i - 1])
        .join(', ')}]\n`;
    // 9^10 ≈ 3.5 billion nodes if expanded.
    const parsed = parseYaml(yaml + 'tools: *j\n');
    let count = 0;
    const walk = (n: any) => {
      count++;
      for (const i of n.items ?? []) walk(i);
      for (const p of n.properties ?? []) walk(p.value);
    };
    walk(parsed.root);
    assert.ok(count < 50_000, `tree of ${count} nodes`);
    assert.ok(parsed.errors.some((e) => /Aliases expand to too many nodes/.test(e.message)));
    for (const [path, text] of [
      [PATHS.picassoYaml, yaml + 'tools: *j\ndeny: *j\nhooks: *j\nmemory: *j\noutput_schema: *j\n'],
      [PATHS.picassoMd, `---\n${yaml}tools: *j\n---\n`],
      [
        PATHS.polytoken,
        `---\nname: triage\npolytoken:\n${yaml.replace(/^/gm, '  ').trimEnd()}\n  tools: *j\n  tools_deny: *j\n  exit_tool_schema: *j\n---\n`,
      ],
    ]) {
      const a = run(path, text);
      assert.ok(codes(a).includes('syntax/yaml'), path);
    }
  });

  it('NUL bytes: binary, skipped', () => {
    for (const [path, text] of [
      [PATHS.polytoken, '---\nname: triage\u0000\n---\n'],
      [PATHS.picassoYaml, 'name: code_review\n\u0000\u0001\u0002'],
      [PATHS.profy, '{"name": "a\u0000"}'],
    ]) {
      const a = run(path, text);
      assert.strictEqual(a.diagnostics.length, 1);
      assert.match(String(a.diagnostics[0].message), /binary/);
      assert.strictEqual(a.context, undefined);
    }
  });

  describe('CRLF, BOM and tabs', () => {
    const variants = (text: string) => ({
      crlf: text.replace(/\n/g, '\r\n'),
      bom: '\ufeff' + text,
      both: '\ufeff' + text.replace(/\n/g, '\r\n'),
      cr: text.replace(/\n/g, '\r'),
    });
    const summary = (a: Analysis) =>
      a.diagnostics.map(
        (d) =>
          `${d.code}@${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character}`,
      );
    for (const [name, path, text] of [
      ['polytoken', PATHS.polytoken, VALID.polytoken + 'Body {{ x }} with {% if a %}\n'],
      ['picasso', PATHS.picassoYaml, VALID.picassoYaml + 'memory: none\ntoolz: [x]\n'],
      ['picasso .md', PATHS.picassoMd, `---\n${VALID.picassoYaml}---\nBody.\n`],
      [
        'profy',
        PATHS.profy,
        VALID.profy.replace('"name": "bookkeeper",', '"name": "bookkeeper",\n  "nme": 1,\n  "tools2": "x",'),
      ],
    ] as const) {
      it(`${name}: the same diagnostics at the same places with CRLF and with a BOM`, () => {
        const plain = run(path, text);
        assert.ok(plain.diagnostics.length > 0, 'the sample has findings to compare');
        for (const [variant, t] of Object.entries(variants(text))) {
          if (variant === 'cr' && name === 'profy') continue; // JSON treats a lone CR as white space too, but keep the comparison to real line ends
          const other = run(path, t);
          if (variant === 'cr') continue; // old Mac line ends: only no crash and ranges inside (run checks both)
          assert.deepStrictEqual(summary(other), summary(plain), `${name} ${variant}`);
        }
      });
    }

    it('tab indentation in YAML is a syntax error, not a crash; tabs inside values are fine', () => {
      const tabbed = run(PATHS.picassoYaml, VALID.picassoYaml.replace(/^ {2}/gm, '\t'));
      assert.ok(codes(tabbed).includes('syntax/yaml'));
      const inValue = run(PATHS.picassoYaml, VALID.picassoYaml.replace('Reviews code.', '"Reviews\tcode."'));
      assert.ok(!codes(inValue).includes('syntax/yaml'));
      const json = run(PATHS.profy, JSON.stringify(JSON.parse(VALID.profy), null, '\t'));
      assert.ok(!codes(json).includes('syntax/json'));
    });
  });

  describe('deep nesting does not overflow the stack', () => {
    const N = 100_000;
    it('YAML: 100,000 `[` in a frontmatter, a YAML role and a Markdown role', () => {
      for (const [path, text] of [
        [PATHS.polytoken, `---\nname: triage\npolytoken:\n  tools: ${'['.repeat(N)}\n---\n`],
        [PATHS.picassoYaml, `tools: ${'['.repeat(N)}`],
        [PATHS.picassoYaml, `tools: ${'['.repeat(N)}${']'.repeat(N)}\n`],
        [PATHS.picassoMd, `${'- '.repeat(N / 10)}x\n`],
        [PATHS.picassoYaml, `${'{a: '.repeat(N / 10)}1${'}'.repeat(N / 10)}\n`],
        [PATHS.picassoYaml, Array.from({ length: 2000 }, (_, i) => ' '.repeat(i) + 'a:').join('\n') + ' 1\n'],
      ]) {
        const a = run(path, text);
        assert.ok(
          a.diagnostics.some((d) => /nested deeper than \d+ levels/.test(String(d.message))),
          `${path}: ${a.diagnostics.map((d) => d.message).join(' | ')}`,
        );
        assert.ok(a.diagnostics.length <= 80, `syntax errors are capped (${a.diagnostics.length})`);
      }
      // Past the parse cap nothing is composed; below it the value is read up to the conversion cap.
      assert.ok(
        parseYaml(`x: ${'['.repeat(MAX_PARSE_DEPTH + 1)}`).errors.some((e) => /so it is not read/.test(e.message)),
      );
      assert.ok(parseYaml(`x: ${'['.repeat(MAX_PARSE_DEPTH - 1)}${']'.repeat(MAX_PARSE_DEPTH - 1)}`).root);
    });

    it('JSON: 100,000 `[` and 100,000 nested objects', () => {
      for (const text of [
        '['.repeat(N),
        `{"tools": ${'['.repeat(N)}${']'.repeat(N)}}`,
        `${'{"a":'.repeat(N)}1${'}'.repeat(N)}`,
      ]) {
        const a = run(PATHS.profy, text);
        assert.ok(codes(a).includes('syntax/json'));
      }
      assert.ok(
        parseJson('['.repeat(600) + ']'.repeat(600)).errors.some((e) => /nested deeper than 500/.test(e.message)),
      );
    });

    it('a depth just inside the cap is read', () => {
      const deep = `${'['.repeat(400)}${']'.repeat(400)}`;
      assert.deepStrictEqual(parseJson(deep).errors, []);
      assert.deepStrictEqual(parseYaml(`x: ${deep}\n`).errors, []);
    });
  });

  it('empty files', () => {
    const poly = run(PATHS.polytoken, '');
    assert.deepStrictEqual(codes(poly), ['syntax/frontmatter']);
    const profy = run(PATHS.profy, '');
    assert.deepStrictEqual(codes(profy), ['syntax/json']);
    run(PATHS.picassoYaml, '');
    run(PATHS.picassoMd, '');
    run(PATHS.picassoMd, '---\n---\n');
    run(PATHS.polytoken, '---\n---\n');
    run(PATHS.polytoken, '\ufeff');
    run(PATHS.profy, '   \n\t');
  });

  it('values the tree does not model (`!!binary`) are invalid values, not absent ones (found by the fuzzer)', () => {
    for (const key of [
      'tools:\n  picasso: !!binary aGk=',
      'polytoken:\n  facetTools: !!binary aGk=',
      'rules: !!binary aGk=',
      'mcp:\n  github: !!binary aGk=',
    ]) {
      const a = run(`${WS}/.subagents.yaml`, `${key}\n`);
      assert.deepStrictEqual(codes(a), ['config/invalid'], key);
    }
    assert.ok(
      codes(run(PATHS.picassoYaml, VALID.picassoYaml.replace('max_steps: 10', 'max_steps: !!binary aGk='))).includes(
        'picasso/invalid-value',
      ),
    );
    run(PATHS.polytoken, VALID.polytoken.replace('tools_deny: [grep]', 'tools_deny: !!binary aGk='));
  });

  it('a definition that is a list or a scalar is reported, not a crash', () => {
    for (const [path, text] of [
      [PATHS.picassoYaml, '- name: code_review\n- tools: [grep]\n'],
      [PATHS.picassoYaml, 'just a string\n'],
      [PATHS.picassoYaml, '42\n'],
      [PATHS.picassoYaml, 'null\n'],
      [PATHS.picassoMd, '---\n- a\n- b\n---\n'],
      [PATHS.polytoken, '---\n- name\n- polytoken\n---\nBody\n'],
      [PATHS.polytoken, '---\ntriage\n---\n'],
      [PATHS.profy, '[{"name": "bookkeeper"}]'],
      [PATHS.profy, '"bookkeeper"'],
      [PATHS.profy, '42'],
      [PATHS.profy, 'null'],
    ]) {
      const a = run(path, text);
      assert.ok(
        a.diagnostics.some((d) => d.severity === 1),
        `${path} ${JSON.stringify(text)}: an error is reported (${codes(a).join(', ')})`,
      );
    }
  });
});
