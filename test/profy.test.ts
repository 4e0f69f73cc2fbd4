import * as assert from 'assert';
import * as fc from 'fast-check';
import * as fs from 'fs';
import * as path from 'path';
import type { Diagnostic } from 'vscode-languageserver-types';
import { globMatches } from '../shared/dialects/profy/glob';
import { RULES } from '../shared/rules/registry';
import { itForEach } from './support/cases';
import { withFixture } from './support/fixtures';
import { def, expert, of, rules, run, sub } from './support/profy';

/** The text a diagnostic's range covers. */
function covered(text: string, d: Diagnostic): string {
  const lines = text.split('\n');
  const offset = (p: { line: number; character: number }) =>
    lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
  return text.slice(offset(d.range.start), offset(d.range.end));
}

describe('profy: glob matcher', () => {
  it('`*` matches any run, also none; `?` exactly one character', () => {
    assert.ok(globMatches('*', ''));
    assert.ok(globMatches('*', 'read'));
    assert.ok(globMatches('mcp__ledger__*', 'mcp__ledger__'));
    assert.ok(globMatches('mcp__ledger__*', 'mcp__ledger__post_entry'));
    assert.ok(!globMatches('mcp__ledger__*', 'mcp__ledgers__post_entry'));
    assert.ok(globMatches('gr?p', 'grep'));
    assert.ok(!globMatches('gr?p', 'grp'));
    assert.ok(!globMatches('gr?p', 'greep'));
  });
  it('is anchored, case-sensitive, and nothing else is special', () => {
    assert.ok(!globMatches('rea*', 'xread'));
    assert.ok(!globMatches('Read*', 'read'));
    assert.ok(globMatches('a.b', 'a.b'));
    assert.ok(!globMatches('a.b', 'axb'));
    assert.ok(globMatches('[x]+(y)|^$\\', '[x]+(y)|^$\\'));
    assert.ok(!globMatches('[ab]', 'a'));
  });
});

describe('profy: ranges', () => {
  it('not-an-object covers the entry; missing-field an absent field the opening brace', () => {
    const text =
      '{\n  "delegationBrief": "b",\n  "tools": ["read"],\n  "subagents": [\n    "scanner",\n    { "name": "x", "description": "d", "tools": ["read"] }\n  ]\n}';
    const { diagnostics } = run(text);
    assert.deepStrictEqual(rules(diagnostics), ['profy/missing-field', 'profy/not-an-object']);
    assert.strictEqual(covered(text, of(diagnostics, 'profy/not-an-object')[0]), '"scanner"');
    const missing = of(diagnostics, 'profy/missing-field')[0];
    assert.strictEqual(covered(text, missing), '{');
    assert.deepStrictEqual(missing.range.start, { line: 5, character: 4 });
    assert.match(String(missing.message), /system_prompt/);
  });

  it('invalid-name and duplicate-name cover the name value; tools-not-array the tools value', () => {
    const text = expert([sub('a b', ['read']), sub('scanner', ['read']), sub('scanner', 'read')]);
    const { diagnostics } = run(text);
    assert.deepStrictEqual(rules(diagnostics), ['profy/duplicate-name', 'profy/invalid-name', 'profy/tools-not-array']);
    assert.strictEqual(covered(text, of(diagnostics, 'profy/invalid-name')[0]), '"a b"');
    assert.strictEqual(
      of(diagnostics, 'profy/invalid-name')[0].data &&
        (of(diagnostics, 'profy/invalid-name')[0].data as any).replacement,
      '"a_b"',
    );
    const dup = of(diagnostics, 'profy/duplicate-name')[0];
    assert.strictEqual(covered(text, dup), '"scanner"');
    assert.ok(
      dup.range.start.line > text.split('\n').findIndex((l) => l.includes('"scanner"')),
      'the later one is reported',
    );
    const notArray = of(diagnostics, 'profy/tools-not-array')[0];
    assert.strictEqual(covered(text, notArray), '"read"');
    assert.strictEqual((notArray.data as any).replacement, '["read"]');
  });

  it('reserved-tool and unresolved-tool cover the entry, with quick-fix data', () => {
    const text = expert([sub('scanner', ['read', 'delegate', 'reed', 'mcp__ledgr__*'])]);
    const { diagnostics } = run(text);
    assert.deepStrictEqual(rules(diagnostics), [
      'profy/reserved-tool',
      'profy/unresolved-tool',
      'profy/unresolved-tool',
    ]);
    const reserved = of(diagnostics, 'profy/reserved-tool')[0];
    assert.strictEqual(covered(text, reserved), '"delegate"');
    assert.strictEqual((reserved.data as any).removable, true);
    const [reed, glob] = of(diagnostics, 'profy/unresolved-tool');
    assert.strictEqual(covered(text, reed), '"reed"');
    assert.strictEqual((reed.data as any).replacement, '"read"');
    assert.strictEqual(covered(text, glob), '"mcp__ledgr__*"');
    assert.strictEqual((glob.data as any).replacement, '"mcp__ledger__*"');
    assert.strictEqual(reed.severity, 2);
  });

  it('whitelist-cap: one diagnostic on each entry past the tenth', () => {
    const policy = Array.from({ length: 13 }, (_, i) => `expert-${i + 1}`);
    const text = expert([sub('scanner', ['read'])], { delegationPolicy: policy });
    const caps = of(run(text).diagnostics, 'profy/whitelist-cap');
    assert.deepStrictEqual(
      caps.map((d) => covered(text, d)),
      ['"expert-11"', '"expert-12"', '"expert-13"'],
    );
  });

  it('unknown-key covers the key and suggests the nearest', () => {
    const text = expert([sub('scanner', ['read'], { systemPromt: 'x' })], { delegation_brief: 'x' });
    const keys = of(run(text).diagnostics, 'profy/unknown-key');
    assert.deepStrictEqual(keys.map((d) => covered(text, d)).sort(), ['"delegation_brief"', '"systemPromt"']);
    // Both suggested keys are there already: renaming onto them would write a key twice, so only removal is offered.
    assert.deepStrictEqual(
      keys.map((d) => (d.data as any).replacement),
      [undefined, undefined],
    );
    const absent = JSON.stringify(
      {
        name: 'b',
        description: 'd',
        delegation_brief: 'x',
        tools: ['read'],
        subagents: [{ name: 's', description: 'd', systemPromt: 'p', tools: ['read'] }],
      },
      null,
      2,
    );
    const renames = of(run(absent).diagnostics, 'profy/unknown-key').map((d) => (d.data as any).replacement);
    assert.deepStrictEqual(renames.sort(), ['"delegationBrief"', '"system_prompt"']);
  });

  it('file-level problems sit on the first line; an empty brief on its value', () => {
    const text =
      '{\n  "description": "Books.",\n  "subagents": [{ "name": "s", "description": "d", "system_prompt": "p", "tools": ["read"] }]\n}';
    const { diagnostics } = run(text);
    assert.deepStrictEqual(rules(diagnostics), ['profy/missing-delegation-brief', 'profy/unknown-toolset']);
    for (const d of diagnostics)
      assert.deepStrictEqual(d.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } });
    const empty = '{\n  "delegationBrief": "",\n  "tools": ["read"]\n}';
    const brief = of(run(empty).diagnostics, 'profy/missing-delegation-brief');
    assert.strictEqual(covered(empty, brief[0]), '""');
    assert.deepStrictEqual(run('{ "delegatable": false }').diagnostics, []);
  });

  it('every drop message says Profy skips the subagent without an error', () => {
    const text = expert([
      5,
      sub(''),
      sub('a b', ['read']),
      sub('task', ['read']),
      sub('x', 'read'),
      sub('y', []),
      sub('y', ['read']),
    ]);
    const drops = [
      'not-an-object',
      'missing-field',
      'invalid-name',
      'reserved-name',
      'tools-not-array',
      'no-tools',
      'duplicate-name',
    ].map((r) => `profy/${r}`);
    const { diagnostics } = run(text);
    for (const rule of drops) {
      const found = of(diagnostics, rule);
      assert.ok(found.length, `${rule} fires`);
      for (const d of found) assert.match(String(d.message), /skips this subagent without raising any error/);
    }
  });

  it('rules: severity overrides apply', () => {
    const text = expert([sub('scanner', ['read', 'delegate'])]);
    const d = of(run(text, 'rules:\n  profy/reserved-tool: error\n').diagnostics, 'profy/reserved-tool');
    assert.strictEqual(d[0].severity, 1);
    assert.deepStrictEqual(
      of(run(text, 'rules:\n  profy/reserved-tool: "off"\n').diagnostics, 'profy/reserved-tool'),
      [],
    );
  });
});

describe('profy: resolution', () => {
  it('pass 1 drops reserved names, pass 2 expands globs, pass 3 keeps known literals', () => {
    const text = expert([sub('s', ['Task', 'gr?p', 'mcp__ledger__*', 'read', 'write', 'read', 'g*'])]);
    const { definitions } = run(text);
    const s = def(definitions, 's');
    assert.strictEqual(s.status, 'loads');
    assert.deepStrictEqual(s.tools, ['glob', 'grep', 'mcp__ledger__list_accounts', 'mcp__ledger__post_entry', 'read']);
    assert.deepStrictEqual(s.removed, [{ tool: 'Task', by: 'reserved' }]);
    assert.deepStrictEqual(s.dropped, [{ entry: 'write', reason: 'not in the main toolset' }]);
    assert.deepStrictEqual(s.provenance?.grep, ['tools: gr?p', 'tools: g*']);
    assert.deepStrictEqual(s.provenance?.read, ['tools: read', 'tools: read']);
    assert.deepStrictEqual(s.reasons, []);
  });

  it('`*` never grants a reserved tool, even when the main agent has it', () => {
    const { definitions, diagnostics } = run(expert([sub('all', ['*'])]));
    const all = def(definitions, 'all');
    assert.ok(!all.tools.includes('delegate') && !all.tools.includes('Task'));
    assert.deepStrictEqual(all.tools, [
      'glob',
      'grep',
      'mcp__ledger__list_accounts',
      'mcp__ledger__post_entry',
      'read',
    ]);
    assert.deepStrictEqual(all.removed.map((r) => r.tool).sort(), ['Task', 'delegate']);
    assert.deepStrictEqual(diagnostics, []);
  });

  it('a glob that matches only reserved tools resolves to nothing', () => {
    const { definitions, diagnostics } = run(expert([sub('d', ['delegat?'])]));
    assert.strictEqual(def(definitions, 'd').status, 'dropped');
    assert.deepStrictEqual(def(definitions, 'd').reasons, ['profy/no-tools']);
    assert.deepStrictEqual(rules(diagnostics), ['profy/no-tools', 'profy/unresolved-tool']);
  });

  it('one definition per entry in file order; non-objects dropped as #index', () => {
    const { definitions } = run(expert([sub('a', ['read']), 'text', null, sub('b', ['nope'])]));
    assert.deepStrictEqual(
      definitions.map((d) => [d.name, d.status]),
      [
        ['a', 'loads'],
        ['#1', 'dropped'],
        ['#2', 'dropped'],
        ['b', 'dropped'],
      ],
    );
    assert.deepStrictEqual(definitions[1].reasons, ['profy/not-an-object']);
    assert.deepStrictEqual(definitions[3].reasons, ['profy/no-tools']);
    assert.deepStrictEqual(definitions[3].dropped, [{ entry: 'nope', reason: 'not in the main toolset' }]);
  });

  it('duplicates: first wins, builtins come first', () => {
    const text = expert([sub('general', ['read']), sub('scan', ['read']), sub('scan', ['grep'])]);
    const { definitions, diagnostics } = run(text, 'profy:\n  builtinSubagents: [general]\n');
    assert.deepStrictEqual(
      definitions.map((d) => d.status),
      ['dropped', 'loads', 'dropped'],
    );
    assert.deepStrictEqual(
      definitions.map((d) => d.reasons),
      [['profy/duplicate-name'], [], ['profy/duplicate-name']],
    );
    assert.strictEqual(of(diagnostics, 'profy/duplicate-name').length, 2);
    assert.match(String(of(diagnostics, 'profy/duplicate-name')[0].message), /builtin/);
    // Without the builtin, `general` loads.
    assert.strictEqual(run(text).definitions[0].status, 'loads');
  });

  it('the drop status does not depend on the rule being turned off', () => {
    const text = expert([sub('s', [])]);
    const { definitions, diagnostics } = run(text, 'rules:\n  profy/no-tools: "off"\n');
    assert.deepStrictEqual(diagnostics, []);
    assert.strictEqual(definitions[0].status, 'dropped');
  });

  it('main toolset: the Expert `tools` wins over profy.mainTools, which stands in when absent', () => {
    const yaml = 'profy:\n  mainTools: [edit]\n';
    const withOwn = run(expert([sub('s', ['edit', 'read'])]), yaml);
    assert.deepStrictEqual(withOwn.definitions[0].tools, ['read']);
    const withoutOwn = run(JSON.stringify({ delegatable: false, subagents: [sub('s', ['edit', 'read'])] }), yaml);
    assert.deepStrictEqual(withoutOwn.definitions[0].tools, ['edit']);
    assert.deepStrictEqual(rules(withoutOwn.diagnostics), ['profy/unresolved-tool']);
  });

  it('unknown toolset: nothing is claimed, one information diagnostic, toolset-independent drops still count', () => {
    const text = JSON.stringify(
      {
        delegatable: false,
        subagents: [sub('s', ['read', 'mcp__x__*', 'delegate']), sub('t', ['task']), sub('u'), sub('a b', ['read'])],
      },
      null,
      2,
    );
    const { definitions, diagnostics } = run(text);
    assert.deepStrictEqual(rules(diagnostics), [
      'profy/invalid-name',
      'profy/no-tools',
      'profy/no-tools',
      'profy/reserved-tool',
      'profy/reserved-tool',
      'profy/unknown-toolset',
    ]);
    const unknown = of(diagnostics, 'profy/unknown-toolset')[0];
    assert.strictEqual(unknown.severity, 3);
    assert.strictEqual(unknown.range.start.line, 0);
    const s = def(definitions, 's');
    assert.strictEqual(s.status, 'loads');
    assert.deepStrictEqual(s.tools, []);
    assert.deepStrictEqual(s.unexpanded, ['read', 'mcp__x__*']);
    assert.ok(((s as any).notes as string[]).length);
    assert.deepStrictEqual(def(definitions, 't').reasons, ['profy/no-tools']);
    assert.deepStrictEqual(def(definitions, 'u').reasons, ['profy/no-tools']);
    assert.deepStrictEqual(def(definitions, 'a b').reasons, ['profy/invalid-name']);
  });

  it('no unknown-toolset for an Expert whose allowlists need no toolset', () => {
    assert.deepStrictEqual(run(JSON.stringify({ delegatable: false })).diagnostics, []);
    assert.deepStrictEqual(
      rules(run(JSON.stringify({ delegatable: false, subagents: [sub('s', ['Task'])] })).diagnostics),
      ['profy/no-tools', 'profy/reserved-tool'],
    );
  });

  it("a repeated key: the last value counts, as in Profy's reader; the earlier key is recorded, not a syntax error", () => {
    const text =
      '{ "delegatable": false, "tools": ["read"], "subagents": [{ "name": "a", "description": "d", "system_prompt": "p", "tools": ["grep"], "tools": ["read"] }] }';
    const { analysis, definitions, diagnostics } = run(text);
    // Only profy/duplicate-key: the first `tools` would be an unresolved tool, but it is not read.
    assert.deepStrictEqual(rules(diagnostics), ['profy/duplicate-key']);
    assert.deepStrictEqual(
      definitions.map((d) => [d.status, d.tools]),
      [['loads', ['read']]],
    );
    const earlier = text.indexOf('"tools": ["grep"]');
    const later = text.indexOf('"tools": ["read"] }');
    assert.deepStrictEqual(analysis.context?.file.duplicateKeys, [
      { key: 'tools', start: earlier, end: earlier + '"tools"'.length, next: later },
    ]);
    // The other way round the later (unresolvable) value is the one checked.
    const swapped = run(text.replace('["grep"], "tools": ["read"]', '["read"], "tools": ["grep"]'));
    assert.deepStrictEqual(rules(swapped.diagnostics), [
      'profy/duplicate-key',
      'profy/no-tools',
      'profy/unresolved-tool',
    ]);
  });

  it('broken JSON: the Expert cannot load, so it is one dropped definition and no rule but the syntax one reports', () => {
    // Without delegationBrief and with an unknown key: rules that would fire on a file that parses.
    const text = expert([sub('s', ['read'])])
      .replace('"name": "bookkeeper",', '"name": "bookkeeper" "bogus": 1,')
      .replace(/"delegationBrief": "[^"]*",/, '');
    const { definitions, diagnostics } = run(text);
    assert.deepStrictEqual([...new Set(rules(diagnostics))], ['syntax/json']);
    assert.deepStrictEqual(
      definitions.map((d) => [d.name, d.status, d.reasons, d.tools]),
      [['bookkeeper', 'dropped', ['syntax/json'], []]],
    );
    // Without a name to read, the file names it.
    const nameless = run('{ "subagents": [ { "name": "s" ');
    assert.deepStrictEqual(
      nameless.definitions.map((d) => [d.name, d.status]),
      [['bookkeeper', 'dropped']],
    );
  });
});

describe('profy: bad input never throws', () => {
  const cases: Record<string, string> = {
    'empty file': '',
    'white space only': '  \n',
    'array root': '[{ "name": "x" }, 5]',
    'scalar root': '42',
    'string root': '"bookkeeper"',
    'null root': 'null',
    'subagents: 5': '{ "subagents": 5 }',
    'subagents: object': '{ "subagents": { "name": "x" } }',
    'entries of every wrong type':
      '{ "tools": ["read"], "subagents": [1, "s", true, null, [], [1], {}, { "name": null, "description": 5, "system_prompt": [], "tools": [null, 1, {}, [], true, ""], "model": {} }] }',
    'every Expert key wrong':
      '{ "name": 1, "description": [], "delegatable": null, "delegationBrief": 5, "delegationPolicy": {}, "tools": "read", "subagents": null }',
    'policy of non-strings': '{ "delegationPolicy": [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, null] }',
    truncated: '{ "subagents": [ { "name": "a", "tools": ["re',
    'deep nesting': `{ "subagents": [${'['.repeat(2000)}${']'.repeat(2000)}] }`,
    'duplicate keys': '{ "tools": ["read"], "tools": 5, "subagents": [{ "name": "a", "name": "b" }] }',
    BOM: '\ufeff{ "delegatable": false }',
  };
  itForEach(cases, (text) => {
    const { diagnostics, definitions } = run(text);
    for (const d of diagnostics) assert.ok(typeof d.message === 'string' && d.message.length > 0);
    assert.ok(Array.isArray(definitions));
  });

  it('wrong types report the expected rules', () => {
    assert.deepStrictEqual(rules(run('[]').diagnostics), ['profy/invalid-value']);
    assert.deepStrictEqual(rules(run('42').diagnostics), ['profy/invalid-value']);
    assert.deepStrictEqual(rules(run('').diagnostics), ['syntax/json']);
    assert.deepStrictEqual(rules(run('{ "delegatable": false, "subagents": 5 }').diagnostics), ['profy/invalid-value']);
    const every = run(cases['entries of every wrong type']);
    const count = (r: string) => of(every.diagnostics, r).length;
    assert.strictEqual(count('profy/not-an-object'), 6);
    assert.strictEqual(count('profy/missing-field'), 6); // {} misses three, the last one has three of the wrong type
    assert.strictEqual(count('profy/invalid-value'), 6); // five non-string tools entries and the model
    assert.strictEqual(count('profy/unresolved-tool'), 1); // the empty string
    assert.strictEqual(every.definitions.length, 8);
    assert.ok(every.definitions.every((d) => d.status === 'dropped'));
  });

  it('any JSON value as an Expert, or as a subagent, never throws (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.array(fc.jsonValue(), { maxLength: 4 }), (value, entries) => {
        run(JSON.stringify(value));
        run(JSON.stringify({ tools: ['read', 'grep'], subagents: entries }));
        run(
          JSON.stringify({
            tools: value,
            subagents: [{ name: 'a', description: 'd', system_prompt: 'p', tools: value, model: value }],
          }),
        );
      }),
      { numRuns: 200 },
    );
  });
});

describe('profy: the seed example (contract_scanner)', () => {
  const dir = path.resolve(__dirname, '../../test/fixtures/seeds/profy-contract-scanner');

  it('reports exactly what the document implies', () => {
    withFixture(dir, (result) => {
      assert.ok(result.expected.length > 0);
      assert.deepStrictEqual(result.actual, result.expected);
    });
  });

  it('contract_scanner loads with glob, grep and read', () => {
    const text = fs.readFileSync(path.join(dir, 'contract-review.expert.json'), 'utf8').replace(/[ \t]*\/\/!.*$/gm, '');
    const yaml = fs.readFileSync(path.join(dir, '.subagents.yaml'), 'utf8');
    const { definitions } = run(text, yaml);
    assert.strictEqual(definitions.length, 1);
    assert.strictEqual(definitions[0].name, 'contract_scanner');
    assert.strictEqual(definitions[0].status, 'loads');
    assert.deepStrictEqual(definitions[0].tools, ['glob', 'grep', 'read']);
    assert.deepStrictEqual(definitions[0].removed, []);
    assert.deepStrictEqual(definitions[0].dropped, []);
  });
});

describe('profy: JSON Schema', () => {
  const schema = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../schemas/profy.schema.json'), 'utf8'));

  it('is draft-07, documents every key in plain and Markdown text, and never forbids extra keys', () => {
    assert.strictEqual(schema.$schema, 'http://json-schema.org/draft-07/schema#');
    const seen: string[] = [];
    const walk = (node: any, where: string) => {
      if (!node || typeof node !== 'object') return;
      assert.notStrictEqual(node.additionalProperties, false, `${where} must not set additionalProperties: false`);
      for (const [key, value] of Object.entries<any>(node.properties ?? {})) {
        seen.push(key);
        assert.ok(
          typeof value.description === 'string' && value.description.length > 10,
          `${where}.${key} has a description`,
        );
        assert.ok(
          typeof value.markdownDescription === 'string' && value.markdownDescription.length > 10,
          `${where}.${key} has a markdownDescription`,
        );
        walk(value, `${where}.${key}`);
      }
      for (const [key, value] of Object.entries<any>(node.definitions ?? {})) walk(value, `${where}#${key}`);
    };
    walk(schema, 'expert');
    for (const key of [
      'name',
      'description',
      'delegatable',
      'delegationBrief',
      'delegationPolicy',
      'tools',
      'subagents',
      'system_prompt',
      'model',
    ])
      assert.ok(seen.includes(key), key);
  });
});

describe('profy: rule pages', () => {
  const DOCS = path.resolve(__dirname, '../../docs/rules');
  const ids = RULES.filter((r) => r.group === 'profy' || r.id === 'syntax/json');

  it('covers all 17 profy rules', () => assert.strictEqual(ids.filter((r) => r.group === 'profy').length, 17));

  for (const rule of ids) {
    it(`${rule.id}: title, default severity, examples, fix and how to silence`, () => {
      const page = fs.readFileSync(path.join(DOCS, `${rule.id}.md`), 'utf8');
      assert.strictEqual(page.split('\n')[0], `# ${rule.id}`);
      assert.match(page, new RegExp(`\\*\\*Default severity:\\*\\* ${rule.defaultSeverity}\\n`));
      for (const heading of ['## What it checks', '## Why', '## Bad', '## Good', '## How to fix', '## How to silence'])
        assert.ok(page.includes(heading), `${rule.id}: ${heading}`);
      assert.ok(page.includes(`  ${rule.id}: `), `${rule.id}: shows the rules: setting`);
    });

    it(`${rule.id}: the page's examples behave as shown`, () => {
      const page = fs.readFileSync(path.join(DOCS, `${rule.id}.md`), 'utf8');
      const section = (name: string) => page.split(`## ${name}\n`)[1]?.split('\n## ')[0] ?? '';
      const blocks = (text: string) => [...text.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => m[1]);
      const bad = blocks(section('Bad'));
      const good = blocks(section('Good'));
      assert.ok(bad.length && good.length, 'a bad and a good JSON example');
      const fires = (example: string) => of(run(asExpert(example)).diagnostics, rule.id).length;
      for (const b of bad) assert.ok(fires(b) > 0, `fires on:\n${b}`);
      for (const g of good) assert.strictEqual(fires(g), 0, `quiet on:\n${g}`);
    });
  }
});

/** A docs example as a whole Expert file: an Expert as is, a subagent or a fragment wrapped in one. */
function asExpert(example: string): string {
  const parse = (text: string): unknown => {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  };
  let value = parse(example);
  if (value === undefined) {
    const wrapped = parse(`{${example}}`);
    if (wrapped === undefined) return example; // broken on purpose (syntax/json)
    value = wrapped;
  }
  const obj = value as Record<string, unknown>;
  const base = { delegatable: false, tools: ['read', 'grep', 'glob'] };
  if (typeof obj === 'object' && obj && !Array.isArray(obj)) {
    const subagentLike =
      !('subagents' in obj) &&
      'name' in obj &&
      ['system_prompt', 'systemPrompt', 'tools', 'model'].some((k) => k in obj);
    if (subagentLike) return JSON.stringify({ ...base, subagents: [obj] }, null, 2);
    if (!example.trim().startsWith('{') && Object.keys(obj).length === 1 && 'tools' in obj)
      return JSON.stringify({ ...base, subagents: [sub('scanner', obj.tools)] }, null, 2);
  }
  return example.trim().startsWith('{') ? example : JSON.stringify({ ...base, ...obj }, null, 2);
}
