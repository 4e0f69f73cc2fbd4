/**
 * Syntax messages in the runtime's terms: what the parser says about a second YAML document or
 * an unquoted `@` value is said as what the runtime does and how to fix it (never the parser
 * library's API), per dialect where the runtime matters, with the quick fix where one is obvious.
 */
import * as assert from 'assert';
import type { Diagnostic } from 'vscode-languageserver-types';
import { defaultLoadedConfig } from '../shared/config/config';
import { analyze } from '../shared/engine';
import { fixAll } from '../shared/fixes/apply';
import { fixPlansFor } from '../shared/fixes/registry';
import { parseJson } from '../shared/text/json';

const WS = '/ws';
const ROLE =
  'name: planner\ninvocation: "@planner"\nmodel: m\ndescription: d\nwhen_to_use: w\noutput_schema: s\ntools: [read_file]\nmax_steps: 3\nmax_depth: 0\n';

const messageOf = (d: Diagnostic) => (typeof d.message === 'string' ? d.message : d.message.value);
const input = (text: string, path: string) => ({ text, path, config: defaultLoadedConfig(WS), root: WS });
const syntax = (text: string, path: string) =>
  analyze(input(text, path)).diagnostics.filter((d) => String(d.code).startsWith('syntax/'));

describe('syntax messages in the runtime terms', () => {
  it('a second document in a Picasso role file: Picasso reads one document per role file', () => {
    const [d] = syntax(`${ROLE}---\nname: other\n`, '/ws/apps/cli/agents/planner.yaml');
    assert.strictEqual(d.code, 'syntax/yaml');
    assert.match(messageOf(d), /^Picasso reads one YAML document per role file/);
    assert.doesNotMatch(messageOf(d), /parseAllDocuments|YAML\./);
    assert.strictEqual(d.range.start.line, 9);
  });

  it('a second document elsewhere (the configuration) gets the generic wording, not the API', () => {
    const [d] = analyze(input('rules: {}\n---\nrules: {}\n', '/ws/.subagents.yaml')).diagnostics;
    assert.match(messageOf(d), /starts a second YAML document/);
    assert.doesNotMatch(messageOf(d), /parseAllDocuments|Picasso/);
  });

  it('an unquoted `@` value: quote it, with a quick fix the rule proposes as preferred', () => {
    const text = ROLE.replace('"@planner"', '@planner  # the handle');
    const path = '/ws/apps/cli/agents/planner.yaml';
    const analysis = analyze(input(text, path));
    const [d] = analysis.diagnostics;
    assert.strictEqual(d.code, 'syntax/yaml');
    assert.match(messageOf(d), /starts with `@` must be quoted/);
    assert.doesNotMatch(messageOf(d), /Plain value|reserved character @/);
    const [plan] = fixPlansFor(analysis, d);
    assert.strictEqual(plan.title, 'Quote `@planner`');
    assert.ok(plan.preferred);
  });

  it('"Fix all" quotes it where the role then grants nothing new, and leaves it to the author where it would load with tools', () => {
    const path = '/ws/apps/cli/agents/planner.yaml';
    const bare = ROLE.replace('tools: [read_file]', 'tools: []');
    const quiet = fixAll(input(bare.replace('"@planner"', '@planner  # the handle'), path));
    assert.strictEqual(quiet.text, bare.replace('"@planner"', '"@planner"  # the handle'));
    assert.deepStrictEqual(quiet.analysis.diagnostics, []);
    // A file that does not parse grants nothing; quoting would make it load with read_file.
    const text = ROLE.replace('"@planner"', '@planner  # the handle');
    const granting = fixAll(input(text, path));
    assert.strictEqual(granting.text, text);
    assert.deepStrictEqual(granting.demoted, [
      { rule: 'syntax/yaml', title: 'Quote `@planner`', reason: 'it would grant `read_file` to `planner`' },
    ]);
  });

  it('no quick fix where the end of the value is not certain (a flow list)', () => {
    const text = '---\nname: a\ndescription: d\npolytoken:\n  tools: [@a, b]\n---\nBody.\n';
    const analysis = analyze(input(text, '/ws/.polytoken/subagents/a.md'));
    const d = analysis.diagnostics.find((x) => x.code === 'syntax/yaml');
    assert.ok(d);
    assert.deepStrictEqual(
      fixPlansFor(analysis, d).map((p) => p.title),
      [],
    );
  });
});

describe('syntax messages of a JSON file, in words', () => {
  it('a second value after the top-level one, on the value', () => {
    for (const extra of ['1', '{}'])
      assert.deepStrictEqual(
        syntax(`{ "name": "a" } ${extra}`, `${WS}/experts/book.expert.json`).map((d) => [
          messageOf(d),
          d.range.start.character,
        ]),
        [['Nothing may follow the top-level value.', 16]],
        extra,
      );
  });
});

describe('JSON syntax messages', () => {
  const messages = (text: string) => parseJson(text).errors.map((e) => [e.message, text.slice(e.start, e.end)]);

  it('say what is wrong in words, on the offending characters', () => {
    const cases: [string, string[][]][] = [
      ['{ "a": 1 # }', [['Unexpected character.', '#']]],
      ['{ "a" 1 }', [['A colon is expected.', '1']]],
      ['{ "a": 1 // c\n}', [['JSON does not allow comments.', '// c']]],
      ['{ "a": "\\u12" }', [['Invalid unicode escape.', '"\\u12"']]],
      ['{ "a": "\\q" }', [['Invalid escape character.', '"\\q"']]],
      ['{ "a": "x\ty" }', [['Invalid character in a string.', '"x\ty"']]],
      ['[1,]', [['A value is expected.', ']']]],
      ['', [['A value is expected.', '']]],
    ];
    for (const [text, expected] of cases) assert.deepStrictEqual(messages(text), expected, text);
    assert.strictEqual(messages('{ "a": 1.e5 }')[0][0], 'Unterminated number.');
  });

  it('values nested past 500 levels are not checked, and say so once: the root array is level 0, an object value one deeper', () => {
    const TOO_DEEP = [['Values nested deeper than 500 levels are not checked.', '']];
    const arrays = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
    const objects = (n: number) => `${'{"a":'.repeat(n)}1${'}'.repeat(n)}`;
    assert.deepStrictEqual(messages(arrays(501)), []);
    assert.deepStrictEqual(messages(arrays(502)), TOO_DEEP);
    assert.deepStrictEqual(messages(objects(500)), []);
    assert.deepStrictEqual(messages(objects(501)), TOO_DEEP);
  });
});
