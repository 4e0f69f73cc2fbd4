import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { RULES } from '../shared/rules/registry';
import { removeWorkspace, runFixture } from './support/fixtures';

const FIXTURES = path.resolve(__dirname, '../../test/fixtures/rules');

describe('golden rule fixtures', () => {
  for (const rule of RULES) {
    describe(rule.id, () => {
      const dir = path.join(FIXTURES, rule.id);
      for (const twin of ['invalid', 'valid'] as const) {
        it(`${twin}: diagnostics match the inline markers exactly`, () => {
          const folder = path.join(dir, twin);
          assert.ok(fs.existsSync(folder), `missing fixture folder ${path.relative(process.cwd(), folder)}`);
          const result = runFixture(folder);
          try {
            assert.deepStrictEqual(result.actual, result.expected);
            const fired = result.actual.filter((a) => a.endsWith(` ${rule.id}`)).length;
            if (twin === 'invalid') assert.ok(fired > 0, `${rule.id} must fire in its invalid fixture`);
            else assert.strictEqual(fired, 0, `${rule.id} must stay quiet in its valid twin`);
          } finally {
            removeWorkspace(result.workspace);
          }
        });
      }
    });
  }
});
