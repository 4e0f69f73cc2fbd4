/**
 * A definition file that does not parse, run through the real CLI: `check` reports the syntax
 * problem and nothing else, `resolve` (JSON and text) gives one definition with the runtime's
 * verdict (Polytoken and Picasso: rejected; Profy: dropped, the Expert cannot load), named from
 * the file when no name can be read.
 */
import { strict as assert } from 'assert';
import { Temps } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

interface Case {
  file: string;
  text: string;
  name: string;
  status: 'rejected' | 'dropped';
  rule: string;
}

const CASES: Record<string, Case> = {
  // An unknown key, an unknown tool and a name that is not the file's: rules that would fire on a file that parses.
  polytoken: {
    file: '.polytoken/subagents/triage.md',
    text: '---\nname: triager\ndescription: [Sorts\nbogus: 1\npolytoken:\n  tools: [grpe, exit_tool]\n---\n{% if %}\n',
    name: 'triager',
    status: 'rejected',
    rule: 'syntax/yaml',
  },
  'polytoken, empty': {
    file: '.polytoken/subagents/empty.md',
    text: '',
    name: 'empty',
    status: 'rejected',
    rule: 'syntax/frontmatter',
  },
  picasso: {
    file: 'apps/cli/agents/Planner.yaml',
    text: 'name: Planner\ninvocation: @Planner\ntools: [grpe]\n',
    name: 'Planner',
    status: 'rejected',
    rule: 'syntax/yaml',
  },
  // Delegatable without a brief (profy/missing-delegation-brief), a subagent without fields, then broken.
  profy: {
    file: 'experts/ledger.expert.json',
    text: '{ "name": "ledger-auditor", "description": "d", "tools": ["read"],\n  "subagents": [ { "name": "a", "tools": ["read"] },\n',
    name: 'ledger-auditor',
    status: 'dropped',
    rule: 'syntax/json',
  },
  'profy without a name': {
    file: 'experts/books.expert.json',
    text: '{ "subagents": [ { "name": "a" ',
    name: 'books',
    status: 'dropped',
    rule: 'syntax/json',
  },
};

describe('a definition that does not parse (CLI)', function () {
  this.timeout(60000);

  for (const [label, c] of Object.entries(CASES)) {
    it(`${label}: check reports the syntax problem only; resolve says ${c.status}, named ${c.name}`, () => {
      const ws = temps.workspace({ [c.file]: c.text });
      const check = temps.run(['check', '-f', 'json'], ws);
      assert.equal(check.code, 1, check.stderr);
      const report = JSON.parse(check.stdout) as { files: { path: string; diagnostics: { rule: string }[] }[] };
      assert.deepEqual(
        report.files.map((f) => [f.path, [...new Set(f.diagnostics.map((d) => d.rule))]]),
        [[c.file, [c.rule]]],
      );

      const json = temps.run(['resolve', c.file, '-f', 'json'], ws);
      assert.equal(json.code, 0, json.stderr);
      const resolution = JSON.parse(json.stdout);
      assert.equal(resolution.file, c.file);
      assert.deepEqual(
        resolution.definitions.map((d: any) => [d.name, d.status, d.reasons, d.tools]),
        [[c.name, c.status, [c.rule], []]],
      );

      const text = temps.run(['resolve', c.file], ws);
      assert.equal(text.code, 0, text.stderr);
      assert.match(text.stdout, /: 1 definition\n/);
      assert.match(text.stdout, new RegExp(`^${c.name}: ${c.status} \\(${c.rule}\\)$`, 'm'));
    });
  }

  it('a file too large to read is resolved the same way, named from the file', () => {
    const ws = temps.workspace({ '.polytoken/subagents/huge.md': `---\nname: huge\n---\n${'x'.repeat(6_000_000)}\n` });
    const r = temps.run(['resolve', '.polytoken/subagents/huge.md', '-f', 'json'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(
      JSON.parse(r.stdout).definitions.map((d: any) => [d.name, d.status, d.tools]),
      [['huge', 'rejected', []]],
    );
  });
});
