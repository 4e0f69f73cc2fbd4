import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { RULES } from '../shared/rules/registry';
import { withFixture } from './support/fixtures';
import { assertSnapshot, MESSAGES_FILE, messageLines } from './support/messages';
import { withTree } from './support/tree';

const FIXTURES = path.resolve(__dirname, '../../test/fixtures/rules');

describe('golden rule fixtures', () => {
  for (const rule of RULES) {
    describe(rule.id, () => {
      const dir = path.join(FIXTURES, rule.id);
      for (const twin of ['invalid', 'valid'] as const) {
        it(`${twin}: diagnostics match the inline markers exactly${twin === 'invalid' ? ', messages and ranges the snapshot' : ''}`, () => {
          const folder = path.join(dir, twin);
          assert.ok(fs.existsSync(folder), `missing fixture folder ${path.relative(process.cwd(), folder)}`);
          withFixture(folder, (result) => {
            // A twin with nothing the checker reads would pass vacuously.
            assert.ok(result.reports.length > 0, `${rule.id} ${twin}: the fixture holds no file the checker reads`);
            assert.deepStrictEqual(result.actual, result.expected);
            const fired = result.actual.filter((a) => a.endsWith(` ${rule.id}`)).length;
            if (twin === 'invalid') assert.ok(fired > 0, `${rule.id} must fire in its invalid fixture`);
            else assert.strictEqual(fired, 0, `${rule.id} must stay quiet in its valid twin`);
            if (twin !== 'invalid') return;
            // What each diagnostic says and where it points, beside the twins.
            assertSnapshot(path.join(dir, MESSAGES_FILE), messageLines(result.reports, result.workspace));
          });
        });
      }
    });
  }

  it('every fixture folder belongs to a rule of the registry', () => {
    const ids = new Set<string>(RULES.map((r) => r.id));
    const folders = fs
      .readdirSync(FIXTURES)
      .flatMap((group) => fs.readdirSync(path.join(FIXTURES, group)).map((name) => `${group}/${name}`));
    assert.deepStrictEqual(
      folders.filter((f) => !ids.has(f)),
      [],
    );
    assert.strictEqual(folders.length, RULES.length);
  });
});

describe('golden runner: it can fail', () => {
  const definition = (extra: string) =>
    `---\nname: triage\ndescription: Sorts issues.\npolytoken:\n  tools: [file_read]\n${extra}---\nBody.\n`;
  const run = (files: Record<string, string>) =>
    withTree(
      files,
      (dir) => withFixture(dir, (result) => ({ expected: result.expected, actual: result.actual })),
      'subagents-golden-self-',
    );

  it('a marker on the line that fires matches, and is stripped before checking', () => {
    const result = run({ '.polytoken/subagents/triage.md': definition('  bogus_key: 1 #! polytoken/unknown-key\n') });
    assert.deepStrictEqual(result.expected, ['.polytoken/subagents/triage.md:6 polytoken/unknown-key']);
    assert.deepStrictEqual(result.actual, result.expected);
  });

  it('a missing marker (an extra diagnostic) is a mismatch', () => {
    const result = run({ '.polytoken/subagents/triage.md': definition('  bogus_key: 1\n') });
    assert.deepStrictEqual(result.expected, []);
    assert.deepStrictEqual(result.actual, ['.polytoken/subagents/triage.md:6 polytoken/unknown-key']);
    assert.throws(() => assert.deepStrictEqual(result.actual, result.expected));
  });

  it('a marker where nothing fires, on the wrong line or with the wrong count, is a mismatch', () => {
    for (const files of [
      { '.polytoken/subagents/triage.md': definition('  model: m #! polytoken/unknown-key\n') },
      { '.polytoken/subagents/triage.md': definition('  bogus_key: 1\n  model: m #! polytoken/unknown-key\n') },
      { '.polytoken/subagents/triage.md': definition('  bogus_key: 1 #! polytoken/unknown-key*2\n') },
    ]) {
      const result = run(files);
      assert.notDeepStrictEqual(result.actual, result.expected, JSON.stringify(files));
    }
  });
});
