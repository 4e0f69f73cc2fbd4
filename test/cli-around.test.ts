/**
 * One file seen whole: a file, a glob, standard input and `resolve` are checked with the
 * workspace around them, so that a file gets what `check .` reports for it (Polytoken
 * shadowing by the project's folder, Picasso duplicate roles), and the files around it are
 * read for their names only, never reported.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { Temps, VALID_PICASSO, VALID_POLYTOKEN } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

/** A `subagentDirs` definition the project's copy shadows, and one Picasso role written twice. */
const WORKSPACE = {
  '.subagents.yaml': 'polytoken:\n  subagentDirs: [shared/agents]\n',
  'shared/agents/reviewer.md': VALID_POLYTOKEN('reviewer'),
  'shared/agents/other.md': VALID_POLYTOKEN('other'),
  '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer'),
  'apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
  '.picasso/agents/runner.md': `---\n${VALID_PICASSO('runner')}---\n`,
};

interface Report {
  files: { path: string; diagnostics: { rule: string; message: string }[] }[];
}

const rulesOf = (report: Report, file: string) =>
  report.files.find((f) => f.path === file)?.diagnostics.map((d) => `${d.rule} ${d.message}`);

describe('check: one file seen whole', function () {
  this.timeout(60000);
  let ws: string;
  let whole: Report;
  before(() => {
    ws = temps.workspace(WORKSPACE);
    const r = temps.run(['check', '.', '-f', 'json', '--no-global'], ws);
    whole = JSON.parse(r.stdout);
    assert.ok(rulesOf(whole, 'shared/agents/reviewer.md')?.some((d) => d.startsWith('polytoken/shadowed')));
    assert.ok(rulesOf(whole, 'apps/cli/agents/runner.yaml')?.some((d) => d.startsWith('picasso/duplicate-role')));
  });

  for (const file of ['shared/agents/reviewer.md', 'apps/cli/agents/runner.yaml', '.picasso/agents/runner.md'])
    it(`${file}, named alone, as a glob, and on standard input: what \`check .\` reports for it, and only it`, () => {
      const runs = [
        temps.run(['check', file, '-f', 'json', '--no-global'], ws),
        temps.run(['check', `${path.posix.dirname(file)}/*`, '-f', 'json', '--no-global'], ws),
        temps.run(['check', '--stdin', '--stdin-filename', file, '-f', 'json', '--no-global'], ws, {
          input: fs.readFileSync(path.join(ws, file), 'utf8'),
        }),
      ];
      for (const r of runs) {
        const report: Report = JSON.parse(r.stdout);
        assert.deepEqual(rulesOf(report, file), rulesOf(whole, file), r.stderr);
        // The neighbours are read for their names, not reported.
        for (const f of report.files) assert.equal(path.posix.dirname(f.path), path.posix.dirname(file), f.path);
      }
    });

  it('resolve names the definition that shadows it', () => {
    const r = temps.run(['resolve', 'shared/agents/reviewer.md', '--format', 'json', '--no-global'], ws);
    assert.equal(r.code, 0, r.stderr);
    const resolution = JSON.parse(r.stdout) as { definitions: { name: string; shadowedBy?: string }[] };
    assert.deepEqual(
      resolution.definitions.map((d) => [d.name, d.shadowedBy]),
      [['reviewer', '.polytoken/subagents/reviewer.md']],
    );
  });

  it('a neighbour that cannot be read is context only: no I/O error for the file checked', () => {
    const dir = temps.workspace(WORKSPACE);
    fs.symlinkSync(path.join(dir, 'nowhere.md'), path.join(dir, '.polytoken/subagents/dangling.md'));
    const r = temps.run(['check', 'shared/agents/other.md', '--no-global'], dir);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.match(r.stdout, /^1 file checked: 0 errors/m);
  });
});
