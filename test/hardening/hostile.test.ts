import * as assert from 'assert';
import * as fc from 'fast-check';
import { Alias, parseDocument } from 'yaml';
import { analyze } from '../../shared/engine';
import { DIALECT_MODULES } from '../../shared/dialects';
import type { Analysis, Rule } from '../../shared/types';
import { defaultLoadedConfig, parseConfig } from '../../shared/config/config';
import { MAX_GLOBS_PER_LIST, unsafeGlobReason } from '../../shared/config/glob-guard';
import { MAX_DIAGNOSTICS_PER_RULE } from '../../shared/diagnostics-cap';
import { expandGlob, globMatches } from '../../shared/dialects/profy/glob';
import { dialectOf } from '../../shared/recognition';
import { parseJsonFile } from '../../shared/text/document';
import { MAX_FILE_CHARS } from '../../shared/text/limits';
import { MAX_SYNTAX_ERRORS } from '../../shared/text/syntax-errors';
import { parseYaml } from '../../shared/text/yaml';
import { toPlain } from '../../shared/text/tree';

/**
 * Hostile inputs, small enough for `npm test`: what each does to the engine (no crash,
 * bounded output, the right answer). The full-size cases, timed, are in
 * `npm run bench` (bench/hostile.mjs).
 */
const WS = '/ws';
const config = defaultLoadedConfig(WS);
const ROLE = `${WS}/apps/cli/agents/code_review.yaml`;
const EXPERT = `${WS}/bookkeeper.expert.json`;

function run(path: string, text: string, loaded = config): Analysis {
  const errors: string[] = [];
  const analysis = analyze({
    text,
    path,
    config: loaded,
    root: WS,
    onRuleError: (rule, e) => errors.push(`${rule}: ${e}`),
  });
  assert.deepStrictEqual(errors, [], 'no rule throws');
  return analysis;
}

const count = (a: Analysis, rule: string) => a.diagnostics.filter((d) => d.code === rule).length;

describe('hardening: hostile inputs', function () {
  this.timeout(60_000);

  describe('JSON', () => {
    it('5,000 repeats of one key: the last value is read, the earlier keys are recorded, nothing is a syntax error', () => {
      const text = '{"name":"x"' + ',"a":1'.repeat(4999) + ',"a":2}';
      const file = parseJsonFile(text);
      assert.deepStrictEqual(file.syntax, []);
      assert.deepStrictEqual(toPlain(file.root), { name: 'x', a: 2 });
      assert.strictEqual(file.duplicateKeys?.length, 4999);
      assert.deepStrictEqual(file.duplicateKeys?.[0], { key: 'a', start: 12, end: 15, next: 18 });
      assert.ok(!run(EXPERT, text).diagnostics.some((d) => d.code === 'syntax/json'));
    });

    it('nested objects keep their own keys; the last occurrence stays at its place in text order', () => {
      const text = '{"a": {"k": 1, "j": 0, "k": 2}, "b": 1, "a": {"k": 3}}';
      const file = parseJsonFile(text);
      assert.deepStrictEqual(toPlain(file.root), { b: 1, a: { k: 3 } });
      assert.deepStrictEqual(
        file.root?.properties?.map((p) => p.key),
        ['b', 'a'],
      );
      assert.deepStrictEqual(
        file.duplicateKeys?.map((d) => [d.key, text.slice(d.start, d.end)]),
        [['a', '"a"']],
        'the inner object that was overridden is not read at all',
      );
    });

    it('`{` and 100,000 commas: the syntax errors are capped, with the count of the rest', () => {
      const file = parseJsonFile('{' + ','.repeat(100_000));
      assert.strictEqual(file.syntax.length, MAX_SYNTAX_ERRORS + 1);
      assert.match(file.syntax[MAX_SYNTAX_ERRORS].message, /^\d+ more JSON syntax errors follow/);
      const kept = file.syntax.slice(0, MAX_SYNTAX_ERRORS).map((f) => f.range.start.character);
      assert.deepStrictEqual(
        kept,
        [...kept].sort((a, b) => a - b),
        'the first ones, in position order',
      );
      assert.ok(kept[0] <= 2);
    });
  });

  describe('YAML', () => {
    it('duplicate keys: the same error as the yaml package reports, on the later key, without its pairwise check', () => {
      const texts = [
        'a: 1\nb: 2\na: 3\n',
        '{a: 1, b: 2, "a": 3}\n',
        'x:\n  - {k: 1, k: 2}\n  - k: 1\n    j: 1\n    k: 2\n',
        '1: a\n1.0: b\n"1": c\n',
        '? a\n: 1\n? a\n: 2\n',
        '!!str a: 1\n!!str a: 2\n',
      ];
      for (const text of texts) {
        const theirs = parseDocument(text, { uniqueKeys: true, strict: true, prettyErrors: false }).errors.filter(
          (e) => e.code === 'DUPLICATE_KEY',
        );
        const ours = parseYaml(text).errors.filter((e) => e.message === 'Map keys must be unique');
        assert.ok(theirs.length > 0, text);
        assert.deepStrictEqual(
          ours.map((e) => [e.start, e.end]),
          theirs.map((e) => e.pos),
          text,
        );
      }
      // The package puts it at the line break before the key when the previous value is empty; ours is on the key.
      const afterEmpty = 'a:\na: 1\n';
      assert.deepStrictEqual(
        parseYaml(afterEmpty).errors.map((e) => afterEmpty.slice(e.start, e.end)),
        ['a'],
      );
      assert.deepStrictEqual(parseYaml('.nan: 1\n.nan: 2\n').errors, [], 'NaN keys never equal each other');
    });

    it('5,000 repeats of one key: one error each, capped (80,000: npm run bench)', () => {
      const errors = parseYaml('k: 1\n'.repeat(5000)).errors;
      assert.strictEqual(errors.length, MAX_SYNTAX_ERRORS + 1);
      assert.match(errors[MAX_SYNTAX_ERRORS].message, /^4949 more YAML syntax errors follow/);
    });

    it('aliases: each one finds its anchor in one pass (Alias.resolve, which walks the whole document, is never called)', () => {
      const resolve = Alias.prototype.resolve;
      let calls = 0;
      Alias.prototype.resolve = function (this: Alias, ...args: Parameters<Alias['resolve']>) {
        calls++;
        return resolve.apply(this, args);
      };
      try {
        const { root, errors } = parseYaml(
          'a: &x 1\nb: *x\nc: &x [2, 3]\nd: *x\ne: *missing\nl:\n' + '  - *x\n'.repeat(2000),
        );
        assert.deepStrictEqual(errors, []);
        const plain = toPlain(root) as Record<string, unknown>;
        assert.deepStrictEqual(
          [plain.a, plain.b, plain.c, plain.d, plain.e],
          [1, 1, [2, 3], [2, 3], null],
          'the last anchor before the alias counts',
        );
        assert.strictEqual((plain.l as unknown[]).length, 2000);
        const recursive = parseYaml('a: &a [*a]\n');
        assert.ok(recursive.errors.length > 0, 'a self-referencing anchor stops at a cap');
      } finally {
        Alias.prototype.resolve = resolve;
      }
      assert.strictEqual(calls, 0);
    });
  });

  describe('many findings of one rule', () => {
    const tools = (n: number) =>
      'name: code_review\ntools:\n' + Array.from({ length: n }, (_, i) => `  - tol_${i}\n`).join('');

    it(`keeps the first ${MAX_DIAGNOSTICS_PER_RULE} per rule, in position order, and says how many more`, () => {
      const a = run(ROLE, tools(MAX_DIAGNOSTICS_PER_RULE + 1500));
      const unknown = a.diagnostics.filter((d) => d.code === 'picasso/unknown-tool');
      assert.strictEqual(unknown.length, MAX_DIAGNOSTICS_PER_RULE + 1);
      assert.deepStrictEqual(
        unknown.slice(0, 3).map((d) => d.range.start.line),
        [2, 3, 4],
      );
      const summary = unknown[MAX_DIAGNOSTICS_PER_RULE];
      assert.strictEqual(
        summary.message,
        '1,500 more `picasso/unknown-tool` problems in this file are not shown (only the first 1,000 are); fix those first.',
      );
      assert.deepStrictEqual(summary.data, { rule: 'picasso/unknown-tool', omitted: 1500 });
      assert.strictEqual(summary.range.start.line, MAX_DIAGNOSTICS_PER_RULE + 2, 'where the first left-out one was');
      assert.strictEqual(summary.severity, unknown[0].severity);
    });

    it('at the limit nothing is summed up; rules turned off or suppressed do not count', () => {
      assert.strictEqual(
        count(run(ROLE, tools(MAX_DIAGNOSTICS_PER_RULE)), 'picasso/unknown-tool'),
        MAX_DIAGNOSTICS_PER_RULE,
      );
      const off = parseConfig('rules:\n  picasso/unknown-tool: off\n', `${WS}/.subagents.yaml`, WS);
      assert.strictEqual(count(run(ROLE, tools(3000), off), 'picasso/unknown-tool'), 0);
      assert.strictEqual(
        count(run(ROLE, '# subagents-disable picasso/unknown-tool\n' + tools(3000)), 'picasso/unknown-tool'),
        0,
      );
    });

    it('130,000 findings of one rule are not lost (a spread of them overflowed the stack)', () => {
      // A rule that returns that many, cheaply (the real 130,000 unknown tools: npm run bench).
      const module = DIALECT_MODULES.picasso;
      const original = module.rules;
      const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 4 } };
      const flood: Rule = {
        ids: ['picasso/unknown-tool'],
        check: () => Array.from({ length: 130_000 }, () => ({ rule: 'picasso/unknown-tool', range, message: 'm' })),
      };
      (module as { rules: readonly Rule[] }).rules = [...original, flood];
      try {
        const a = run(ROLE, 'name: code_review\n');
        assert.strictEqual(count(a, 'picasso/unknown-tool'), MAX_DIAGNOSTICS_PER_RULE + 1);
        assert.match(
          String(a.diagnostics.find((d) => (d.data as { omitted?: number }).omitted)?.message),
          /^129,000 more/,
        );
      } finally {
        (module as { rules: readonly Rule[] }).rules = original;
      }
    });
  });

  describe('the configuration', () => {
    const CONFIG = `${WS}/.subagents.yaml`;

    it('NUL bytes and a size above the limit: config/invalid, and the defaults', () => {
      for (const [text, message] of [
        ['ignore: ["a\u0000"]\nrules:\n  picasso/unknown-tool: off\n', /NUL bytes, so it is binary/],
        ['rules:\n  picasso/unknown-tool: off\n# ' + 'x'.repeat(MAX_FILE_CHARS), /5\.0 MB, above the 5 MB limit/],
      ] as const) {
        const loaded = parseConfig(text, CONFIG, WS);
        assert.deepStrictEqual(
          loaded.findings.map((f) => [f.rule, f.range.start.line]),
          [['config/invalid', 0]],
        );
        assert.match(loaded.findings[0].message, message);
        assert.deepStrictEqual(loaded.config.rules, {}, 'the defaults');
      }
    });

    it('a glob with too many wildcards is reported on its entry and left out; the rest applies', () => {
      const text =
        'ignore:\n  - "**/*a*a*a*a*a*a*a*a*a*a*b"\n  - "vendor/**"\nfiles:\n  picasso: ["roles/*.yaml", "x*y*z*w*.yaml"]\nrules:\n  picasso/unknown-tool: off\n';
      const loaded = parseConfig(text, CONFIG, WS);
      assert.deepStrictEqual(
        loaded.findings.map((f) => [f.rule, f.range.start.line, f.range.start.character]),
        [
          ['config/invalid', 1, 4],
          ['config/invalid', 4, 28],
        ],
      );
      assert.match(loaded.findings[0].message, /has 12 wildcards and at most 3 are allowed/);
      assert.deepStrictEqual(loaded.config.ignore, ['vendor/**']);
      assert.deepStrictEqual(loaded.config.files, { picasso: ['roles/*.yaml'] });
      assert.deepStrictEqual(loaded.config.rules, { 'picasso/unknown-tool': 'off' });
      // Matching with what is left is instant, also for a long adversarial name.
      assert.strictEqual(dialectOf(`${WS}/apps/cli/agents/${'a'.repeat(200)}.yaml`, loaded, WS), 'picasso');
      assert.strictEqual(dialectOf(`${WS}/vendor/apps/cli/agents/x.yaml`, loaded, WS), undefined);
    });

    it(`past ${MAX_GLOBS_PER_LIST} globs in a list the rest is reported once and left out`, () => {
      const text =
        'ignore:\n' +
        Array.from({ length: MAX_GLOBS_PER_LIST + 5 }, (_, i) => `  - "x${i}/**"\n`).join('') +
        'files:\n  profy: ["a/*.json"]\n';
      const loaded = parseConfig(text, CONFIG, WS);
      assert.deepStrictEqual(
        loaded.findings.map((f) => [f.rule, f.range.start.line]),
        [['config/invalid', MAX_GLOBS_PER_LIST + 1]],
      );
      assert.match(
        loaded.findings[0].message,
        /^This glob and the 4 after it are ignored: a list may hold at most 1,000 globs/,
      );
      assert.strictEqual(loaded.config.ignore.length, MAX_GLOBS_PER_LIST);
      assert.strictEqual(loaded.config.ignore[MAX_GLOBS_PER_LIST - 1], `x${MAX_GLOBS_PER_LIST - 1}/**`);
      assert.deepStrictEqual(loaded.config.files, { profy: ['a/*.json'] });
    });

    it('which globs are refused', () => {
      for (const ok of [
        '**/*.md',
        'test/fixtures/**',
        '**/.polytoken/**/*.md',
        'agents/*-*.md',
        '**/*.{md,yaml}',
        '?????.md',
      ])
        assert.strictEqual(unsafeGlobReason(ok), undefined, ok);
      for (const bad of ['**/a/**/b/**/*.md', '*a*b*c*d', '+(a|b)/**/*x*y', 'x'.repeat(1001)])
        assert.ok(unsafeGlobReason(bad), bad);
    });
  });

  describe('Profy allowlist globs', () => {
    /** The former implementation: a regular expression (exponential on `a*a*…b`). */
    const reference = (pattern: string, name: string) => {
      let source = '';
      for (const ch of pattern)
        source += ch === '*' ? '[\\s\\S]*' : ch === '?' ? '[\\s\\S]' : ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      return new RegExp(`^${source}$`, 'u').test(name);
    };

    it('match exactly as the regular expression did (property)', () => {
      const text = (chars: string[], max: number) =>
        fc.array(fc.constantFrom(...chars), { maxLength: max }).map((a) => a.join(''));
      fc.assert(
        fc.property(
          text(['a', 'b', '*', '?', '😀', '_'], 10),
          text(['a', 'b', '😀', '_'], 12),
          (pattern, name) => globMatches(pattern, name) === reference(pattern, name),
        ),
        { numRuns: 5000 },
      );
    });

    it('`a*a*…*b` against a long tool name answers at once', () => {
      const pattern = 'a*'.repeat(40) + 'b';
      assert.strictEqual(globMatches(pattern, 'a'.repeat(10_000)), false);
      assert.deepStrictEqual(expandGlob(pattern, ['a'.repeat(5000), 'a'.repeat(100) + 'b']), ['a'.repeat(100) + 'b']);
    });
  });
});
