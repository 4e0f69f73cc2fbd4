/**
 * The validators compiled ahead of time (scripts/gen-validators.mjs) are those of schemas/, and
 * they judge exactly as ajv compiling the schema at run time would: same verdict, same errors.
 */
import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import Ajv from 'ajv';
import fc from 'fast-check';
import { VALIDATORS_BY_ID } from '../shared/schema/validators.generated';
import { shippedConfigSchemaText } from '../shared/config/schema';
import { validateSchema } from '../shared/dialects/polytoken/rules/exit-schema';

const ROOT = path.join(__dirname, '..', '..');
const SCHEMAS = ['polytoken', 'picasso', 'profy', 'subagents-config'].map(
  (name) =>
    JSON.parse(fs.readFileSync(path.join(ROOT, 'schemas', `${name}.schema.json`), 'utf8')) as {
      $id: string;
      properties?: Record<string, unknown>;
    },
);

interface Validator {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}

describe('the configuration schema', () => {
  it('is the composition of its generic part and the built-in dialect modules (node out/scripts/gen-config-schema.js)', () => {
    const file = fs.readFileSync(path.join(ROOT, 'schemas', 'subagents-config.schema.json'), 'utf8');
    assert.strictEqual(file, shippedConfigSchemaText());
    // Every dialect's files, tools and rule-id prefix, and the sections of those that have one.
    const schema = JSON.parse(file);
    assert.deepStrictEqual(Object.keys(schema.properties.files.properties), ['polytoken', 'picasso', 'profy']);
    assert.deepStrictEqual(Object.keys(schema.properties), [
      'files',
      'ignore',
      'tools',
      'mcp',
      'polytoken',
      'profy',
      'rules',
    ]);
    assert.match(
      schema.properties.rules.propertyNames.pattern,
      /^\^\(polytoken\|profy\|picasso\|syntax\|config\|directive\)/,
    );
  });
});

describe('precompiled schema validators', () => {
  it('are up to date with schemas/ (node scripts/gen-validators.mjs --check)', () => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'gen-validators.mjs'), '--check'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(r.status, 0, r.stdout + r.stderr);
  });

  it('cover every schema the engine validates with', () => {
    assert.deepStrictEqual(Object.keys(VALIDATORS_BY_ID).sort(), SCHEMAS.map((s) => s.$id).sort());
  });

  for (const schema of SCHEMAS) {
    it(`give ajv's verdict and errors on ${path.basename(schema.$id)}`, () => {
      const ajv = new Ajv({ allErrors: true, strict: false });
      const runtime = ajv.compile(schema) as Validator;
      const precompiled = VALIDATORS_BY_ID[schema.$id] as Validator;
      const keys = Object.keys(schema.properties ?? {});
      // Objects of the schema's own keys (and a stranger) with any JSON values, nested ones too.
      const value = fc.letrec((tie) => ({
        any: fc.oneof(
          { depthSize: 'small' },
          fc.jsonValue({ maxDepth: 1 }),
          tie('record'),
          fc.array(tie('record'), { maxLength: 3 }),
        ),
        record: fc.dictionary(fc.constantFrom(...keys, 'name', 'tools', 'stranger'), tie('any'), { maxKeys: 6 }),
      }));
      let invalid = 0;
      fc.assert(
        fc.property(value.record, (data) => {
          const expected = runtime(data);
          const actual = precompiled(data);
          assert.strictEqual(actual, expected);
          assert.deepStrictEqual(precompiled.errors ?? null, runtime.errors ?? null);
          if (!expected) invalid++;
        }),
        { numRuns: 200 },
      );
      assert.ok(invalid > 50, `most generated records are invalid somewhere (${invalid})`);
    });
  }

  it("the draft-07 meta-schema, compiled ahead of time, judges exit schemas as ajv's own draft-07 meta-schema does", () => {
    const keywords = [
      'type',
      'properties',
      'required',
      'enum',
      'items',
      'minLength',
      'additionalProperties',
      '$schema',
      '$ref',
      'const',
      'anyOf',
    ];
    const value = fc.letrec((tie) => ({
      any: fc.oneof(
        { depthSize: 'small' },
        fc.jsonValue({ maxDepth: 1 }),
        fc.constantFrom(
          'object',
          'string',
          'integer',
          'strin',
          'http://json-schema.org/draft-07/schema#',
          'https://x/y',
        ),
        tie('schema'),
        fc.array(tie('any'), { maxLength: 3 }),
      ),
      schema: fc.dictionary(fc.constantFrom(...keywords), tie('any'), { maxKeys: 5 }),
    }));
    let invalid = 0;
    // ajv compiling the meta-schema at run time, as the check did before.
    const reference = new Ajv({ strict: false, allErrors: false, validateFormats: false });
    fc.assert(
      fc.property(value.schema, (schema) => {
        let expected: { valid: boolean; errors?: unknown } | { threw: string };
        try {
          // Against the draft-07 meta-schema, whatever `$schema` says: the exit schema check picks the draft itself.
          const valid = reference.validate('http://json-schema.org/draft-07/schema', schema) as boolean;
          expected = { valid, errors: reference.errors };
        } catch (e) {
          expected = { threw: (e as Error).message };
        }
        let actual: typeof expected;
        try {
          actual = validateSchema('draft-07', schema);
        } catch (e) {
          actual = { threw: (e as Error).message };
        }
        assert.deepStrictEqual(actual, expected, JSON.stringify(schema));
        if ('valid' in expected && !expected.valid) invalid++;
      }),
      { numRuns: 3000 },
    );
    assert.ok(invalid > 300, `only ${invalid} generated schemas were invalid`);
  });
});
