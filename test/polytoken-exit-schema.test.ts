// polytoken/invalid-exit-schema and polytoken/unrecognized-status-enum in detail: which draft judges a
// schema, where a finding sits, the size limit, the memo, the suggestions and the fixes.
import * as assert from 'assert';
import type { Diagnostic } from 'vscode-languageserver-types';
import { analyze } from '../shared/engine';
import { applyFixes } from '../shared/fixes/apply';
import { fixPlansFor } from '../shared/fixes/registry';
import { defaultLoadedConfig } from '../shared/config/config';
import { forgetMemos } from '../shared/memos';
import { cachedVerdictCount, checkExitSchema, statusSuggestions } from '../shared/dialects/polytoken/rules/exit-schema';
import { distance } from 'fastest-levenshtein';

const FILE = '/ws/.polytoken/subagents/triage.md';
const def = (poly: string) => `---\nname: triage\ndescription: Reads an issue.\npolytoken:\n${poly}---\nBody.\n`;
const check = (text: string) => analyze({ text, path: FILE, config: defaultLoadedConfig('/ws'), root: '/ws' });

/** `[line, startChar, endLine, endChar]` of each diagnostic of one rule, and its message. */
function found(text: string, rule = 'polytoken/invalid-exit-schema'): [number[], string][] {
  return check(text)
    .diagnostics.filter((d: Diagnostic) => d.code === rule)
    .map((d) => [
      [d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character],
      String(d.message),
    ]);
}

const DRAFT_2019 = 'https://json-schema.org/draft/2019-09/schema';
const DRAFT_2020 = 'https://json-schema.org/draft/2020-12/schema';

describe('polytoken/invalid-exit-schema: the draft that judges a schema', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['no $schema is draft-07: 2019 keywords are unknown, so allowed', { dependentRequired: 5 }, { ok: true }],
    [
      'draft-07 by its https URI',
      { $schema: 'https://json-schema.org/draft-07/schema#', type: 'object' },
      { ok: true },
    ],
    ['2019-09 allows a list of item schemas', { $schema: DRAFT_2019, items: [{}] }, { ok: true }],
    [
      '2019-09 checks its own keywords',
      { $schema: DRAFT_2019, dependentRequired: 5 },
      { ok: false, reason: 'must be object', path: ['dependentRequired'] },
    ],
    [
      '2020-12 does not allow a list of item schemas',
      { $schema: DRAFT_2020, items: [{}] },
      { ok: false, reason: 'must be object,boolean', path: ['items'] },
    ],
    [
      '2020-12 by its http URI',
      { $schema: 'http://json-schema.org/draft/2020-12/schema', type: 'object' },
      { ok: true },
    ],
    [
      'a draft ajv does not know: the body is still checked, as draft-07',
      { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object', required: 'yes' },
      { ok: false, reason: 'must be array', path: ['required'] },
    ],
    [
      'a draft ajv does not know, with a sound body',
      { $schema: 'http://json-schema.org/draft-04/schema#' },
      { ok: true },
    ],
    [
      'draft-07 named: a 2019 keyword is unknown there, so allowed',
      { $schema: 'http://json-schema.org/draft-07/schema#', dependentRequired: 5 },
      { ok: true },
    ],
    [
      'a draft ajv does not know is checked as draft-07, not as a later draft',
      { $schema: 'http://json-schema.org/draft-04/schema#', dependentRequired: 5 },
      { ok: true },
    ],
    ['a $schema that is not a string', { $schema: 5 }, { ok: false, reason: 'must be string', path: ['$schema'] }],
    ['keywords JSON Schema does not define are allowed', { 'x-note': 'hi', type: 'object' }, { ok: true }],
    [
      'an enum of types is quoted with the allowed values',
      { type: 'text' },
      {
        ok: false,
        reason:
          'must be equal to one of the allowed values ("array", "boolean", "integer", "null", "number", "object", "string")',
        path: ['type'],
      },
    ],
    [
      'a $ref with no target',
      { properties: { a: { $ref: '#/definitions/nope' } } },
      { ok: false, reason: "can't resolve reference #/definitions/nope from id #", missingRef: '#/definitions/nope' },
    ],
  ];
  for (const [title, schema, verdict] of cases)
    it(title, () => assert.deepStrictEqual(checkExitSchema(schema), verdict));

  it('a schema that failed to compile is not left behind either: its $id compiles again', () => {
    const broken = { $id: 'http://x/broken.json', properties: { a: { $ref: '#/definitions/nope' } } };
    assert.equal(checkExitSchema(broken).ok, false);
    assert.deepStrictEqual(checkExitSchema({ $id: 'http://x/broken.json', type: 'object' }), { ok: true });
  });

  it('formats are not checked, and an unknown one is not logged', () => {
    const warn = console.warn;
    const logged: string[] = [];
    console.warn = (...args: unknown[]) => void logged.push(args.join(' '));
    try {
      assert.deepStrictEqual(checkExitSchema({ type: 'string', format: 'emailish' }), { ok: true });
    } finally {
      console.warn = warn;
    }
    assert.deepStrictEqual(logged, []);
  });

  it('a compiled schema is not left behind in ajv: the same $id compiles again', () => {
    const schema = { $id: 'http://x/payload.json', type: 'object' };
    assert.deepStrictEqual(checkExitSchema(schema), { ok: true });
    // Other texts, so no kept verdict answers: the same ajv compiles the same $id again, which a schema left
    // registered would refuse.
    assert.deepStrictEqual(checkExitSchema({ ...schema, required: [] }), { ok: true });
    assert.deepStrictEqual(checkExitSchema({ ...schema, title: 'again' }), { ok: true });
  });
});

describe('polytoken/invalid-exit-schema: verdicts are kept, a bounded number', () => {
  it('the same schema text gets the same verdict object; past 256 the oldest goes', () => {
    forgetMemos();
    const first = checkExitSchema({ type: 'string', title: 'first' });
    assert.strictEqual(checkExitSchema({ type: 'string', title: 'first' }), first);
    assert.strictEqual(cachedVerdictCount(), 1);
    checkExitSchema({ type: 'string', title: 'second' });
    assert.strictEqual(cachedVerdictCount(), 2);
    for (let i = 0; i < 300; i++) checkExitSchema({ type: 'string', title: `t${i}` });
    assert.strictEqual(cachedVerdictCount(), 256);
    assert.notStrictEqual(checkExitSchema({ type: 'string', title: 'first' }), first, 'the oldest was dropped');
    forgetMemos();
    assert.strictEqual(cachedVerdictCount(), 0);
  });
});

describe('polytoken/invalid-exit-schema: where the finding sits', () => {
  it('on the missing $ref, not on an earlier one that resolves nor on a string that reads the same', () => {
    const text = def(
      '  exit_tool_schema:\n    definitions: { ok: { type: string } }\n    properties:\n      a: { $ref: "#/definitions/ok" }\n      b: { description: "#/definitions/nope", $ref: "#/definitions/nope" }\n',
    );
    assert.deepStrictEqual(
      found(text).map(([span]) => span),
      [[8, 52, 8, 72]],
    );
  });

  it('on a $ref inside a list of schemas, past the items without one', () => {
    const text = def('  exit_tool_schema:\n    allOf:\n      - type: object\n      - $ref: "#/definitions/nope"\n');
    assert.deepStrictEqual(
      found(text).map(([span]) => span),
      [[7, 14, 7, 34]],
    );
  });

  it('on a relative $ref, which ajv names resolved against the $id', () => {
    const text = def('  exit_tool_schema:\n    $id: http://x/s.json\n    properties:\n      a: { $ref: other.json }\n');
    const [[span, message]] = found(text);
    assert.deepStrictEqual(span, [7, 17, 7, 27]);
    assert.match(message, /can't resolve reference other\.json from id http:\/\/x\/s\.json/);
  });

  it('an empty $ref (the whole schema) is not taken for the missing one', () => {
    const text = def(
      '  exit_tool_schema:\n    properties:\n      a: { $ref: "" }\n      b: { $ref: "#/definitions/nope" }\n',
    );
    assert.deepStrictEqual(
      found(text).map(([span]) => span),
      [[7, 17, 7, 37]],
    );
  });

  it('on the key through a merge key, naming the path', () => {
    const text = def('  exit_tool_schema:\n    properties:\n      <<: {a: {type: text}}\n');
    const [[span, message]] = found(text);
    assert.deepStrictEqual(span, [6, 21, 6, 25]);
    assert.match(message, /at `properties\.a\.type`/);
  });
});

describe('polytoken/invalid-exit-schema: a schema too large to check', () => {
  const enumOf = (count: number) =>
    def(`  exit_tool_schema:\n    enum: [${Array.from({ length: count }, (_, i) => i).join(', ')}]\n`);

  it('5,000 values (the mapping, the list and 4,998 entries) are still checked', () => {
    assert.deepStrictEqual(found(enumOf(4_998)), []);
    assert.deepStrictEqual(found(enumOf(4_997).replace('enum: [', 'enum: [{type: text}, ')).length, 1);
  });

  it('one more is reported once, as information on the key, and not compiled', () => {
    const analysis = check(enumOf(4_999).replace('enum: [', 'type: text\n    enum: ['));
    const findings = analysis.diagnostics.filter((d) => d.code === 'polytoken/invalid-exit-schema');
    assert.strictEqual(findings.length, 1);
    const [d] = findings;
    assert.strictEqual(d.severity, 3);
    assert.deepStrictEqual([d.range.start.line, d.range.start.character, d.range.end.character], [4, 2, 18]);
    assert.match(String(d.message), /more than 5,000 values/);
    // The diagnostic says why it was not checked, for whoever reads its data.
    assert.deepStrictEqual(d.data, { rule: 'polytoken/invalid-exit-schema', tooLarge: true });
  });
});

describe('polytoken/unrecognized-status-enum: suggestions', () => {
  it('equally close values keep the families’ order', () => {
    // No `z` in any: the distance is the length; `failed` before `cancel`, `success` before `failure`.
    assert.deepStrictEqual(
      statusSuggestions('zz').join(' '),
      'ok done error failed cancel success failure canceled completed cancelled',
    );
  });

  it('a known synonym’s word leads, the rest by closeness, each once', () => {
    const list = statusSuggestions('Stopped');
    assert.strictEqual(list[0], 'cancelled');
    assert.strictEqual(new Set(list).size, 10);
    assert.strictEqual(list.length, 10, 'the lead is not listed again');
    const rest = list.slice(1).map((s) => distance('stopped', s));
    assert.deepStrictEqual(
      rest,
      [...rest].sort((x, y) => x - y),
    );
    assert.ok(rest[0] < distance('stopped', 'cancelled'), 'the lead is not merely the closest');
  });
});

describe('polytoken/unrecognized-status-enum: fixes', () => {
  const schema = (values: string) => def(`  exit_tool_schema:\n    properties:\n      status: { enum: [${values}] }\n`);
  const RULE = 'polytoken/unrecognized-status-enum';

  function plansFor(text: string, value: string) {
    const analysis = check(text);
    const d = analysis.diagnostics.find((x) => x.code === RULE && String(x.message).startsWith(`\`${value}\``));
    assert.ok(d, `a finding on ${value}`);
    return fixPlansFor(analysis, d).map((p) => [p.title, !!p.preferred]);
  }

  it('a synonym becomes its word; an unknown word gets only offers', () => {
    assert.deepStrictEqual(plansFor(schema('passed'), 'passed')[0], ['Change to `success`', true]);
    const weird = plansFor(schema('weird'), 'weird');
    assert.ok(weird.length > 1 && weird.every(([, preferred]) => !preferred), JSON.stringify(weird));
  });

  it('a synonym whose word is there already, or will be, is removed', () => {
    assert.deepStrictEqual(plansFor(schema('success, passed'), 'passed')[0], ['Remove `passed` from `enum`', true]);
    assert.deepStrictEqual(plansFor(schema('passed, finished'), 'passed')[0], ['Change to `success`', true]);
    assert.deepStrictEqual(plansFor(schema('passed, finished'), 'finished')[0], [
      'Remove `finished` from `enum`',
      true,
    ]);
  });

  it('applying every preferred fix, round after round as Fix all does, leaves recognized words and no new finding', () => {
    let text = schema('passed, weird, finished, aborted');
    for (let round = 0; round < 5; round++) {
      const analysis = check(text);
      const fixes = analysis.diagnostics
        .filter((d) => d.code === RULE)
        .flatMap((d) =>
          fixPlansFor(analysis, d)
            .filter((p) => p.preferred)
            .map((plan) => ({ rule: RULE, plan })),
        );
      if (!fixes.length) break;
      text = applyFixes(text, fixes).text;
    }
    assert.match(text, /enum: \[success, weird, cancelled\]/);
    assert.deepStrictEqual(
      check(text).diagnostics.map((d) => String(d.message).slice(0, 8)),
      ['`weird` '],
    );
  });
});
