// stryker.config.mjs names the suites the mutation run runs: a suite in none of its lists would
// be left out without anyone deciding it (three suites were, and their kills went uncounted).
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.join(__dirname, '..', '..');

/** The quoted names of one `const NAME = [ ... ];` list of the config. */
export function listOf(config: string, name: string): string[] {
  const at = config.indexOf(`const ${name} = [`);
  assert.ok(at >= 0, `no ${name} list`);
  const body = config.slice(at, config.indexOf('];', at));
  return [...body.matchAll(/^\s+'([\w/.-]+)',/gm)].map((m) => m[1]);
}

function suitesUnder(dir: string, prefix = ''): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return e.name === 'e2e' ? [] : suitesUnder(path.join(dir, e.name), `${prefix}${e.name}/`);
    return e.name.endsWith('.test.ts') ? [`${prefix}${e.name.slice(0, -'.test.ts'.length)}`] : [];
  });
}

describe('stryker.config.mjs', () => {
  it('puts every suite in exactly one list: run in-process, run with the server, or left out', () => {
    const config = fs.readFileSync(path.join(ROOT, 'stryker.config.mjs'), 'utf8');
    const lists = ['IN_PROCESS_SUITES', 'SERVER_SUITES', 'LEFT_OUT'].map((name) => listOf(config, name));
    const listed = lists.flat();
    const suites = suitesUnder(path.join(ROOT, 'test'));
    assert.ok(suites.length > 90, `${suites.length} suites`);
    assert.deepStrictEqual(
      suites.filter((s) => !listed.includes(s)),
      [],
      'in no list',
    );
    assert.deepStrictEqual(
      listed.filter((s, i) => listed.indexOf(s) !== i),
      [],
      'in two lists',
    );
    assert.deepStrictEqual(
      listed.filter((s) => !suites.includes(s)),
      [],
      'listed but not a suite',
    );
  });
});
