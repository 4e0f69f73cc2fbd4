import * as assert from 'assert';
import { spawnSync } from 'child_process';
import * as path from 'path';
import { withTree } from './support/tree';

const ROOT = path.resolve(__dirname, '../..');
const DPDM = path.join(ROOT, 'node_modules/dpdm/lib/bin/dpdm.js');

/** dpdm over the given globs (type-only imports count too); exit status 1 when it finds a cycle. */
function dpdm(cwd: string, globs: string[]) {
  return spawnSync(
    process.execPath,
    [DPDM, '--no-tree', '--no-warning', '--no-progress', '--exit-code', 'circular:1', ...globs],
    { cwd, encoding: 'utf8' },
  );
}

describe('import cycles (dpdm)', function () {
  this.timeout(60000);

  it('the engine, the server, the CLI and the client have none', () => {
    const r = dpdm(ROOT, ['shared/**/*.ts', 'server/**/*.ts', 'cli/**/*.ts', 'client/**/*.ts']);
    assert.strictEqual(r.status, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /no circular dependency/);
  });

  it('a cycle is found (the check can fail)', () => {
    const r = withTree(
      {
        'a.ts': "import { b } from './b';\nexport const a = b;\n",
        'b.ts': "import type { a } from './a';\nexport const b = 1 as unknown as typeof a;\n",
      },
      (dir) => dpdm(dir, ['*.ts']),
    );
    assert.strictEqual(r.status, 1, r.stdout + r.stderr);
  });
});
