/**
 * `subagents init` and `subagents new`, through the real CLI: what they create checks clean and
 * sits where the runtime reads it; a name the runtime's rules refuse, or a clash, is refused with
 * exit 2 and nothing written; nothing is ever replaced, nor created through a planted link.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { dialectModules } from '../shared/dialects';
import { assertUsageError, Temps, VALID_PICASSO } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

/** `check -f json` of the folder: every diagnostic as `path rule`. */
function problems(ws: string, paths: string[] = []): string[] {
  const r = temps.run(['check', '-f', 'json', ...paths], ws);
  assert.ok(r.code === 0 || r.code === 1, r.stderr);
  const report = JSON.parse(r.stdout) as { files: { path: string; diagnostics: { rule: string }[] }[] };
  return report.files.flatMap((f) => f.diagnostics.map((d) => `${f.path} ${d.rule}`));
}

describe('subagents init', function () {
  this.timeout(60000);

  it('writes a commented .subagents.yaml that checks clean, and refuses to write it again', () => {
    const ws = temps.dir();
    const r = temps.run(['init'], ws);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'created .subagents.yaml\n');
    const text = fs.readFileSync(path.join(ws, '.subagents.yaml'), 'utf8');
    // Every runtime is named in its sections, all commented out.
    for (const m of dialectModules()) assert.match(text, new RegExp(`^#   ${m.id}: `, 'm'));
    assert.ok(
      text.split('\n').every((l) => l === '' || l.startsWith('#')),
      'only comments',
    );
    assert.deepEqual(problems(ws, ['.subagents.yaml']), []);
    // Each key's example follows the sentence that explains it, and uncommented they are a valid configuration.
    const lines = text.split('\n');
    const keys = lines.flatMap((l, i) => (/^# [a-z]+:/.test(l) ? [[l.slice(2), lines[i - 1]]] : []));
    assert.deepEqual(
      keys.map(([key]) => key.split(':')[0]),
      ['files', 'ignore', 'tools', 'mcp', 'rules'],
    );
    for (const [key, before] of keys) assert.match(before, /^# [A-Z].*[.)]$/, key);
    const examples = lines.filter((l) => /^# [a-z]+:|^# {3}/.test(l)).map((l) => l.slice(2));
    const uncommented = temps.dir();
    fs.writeFileSync(path.join(uncommented, '.subagents.yaml'), examples.join('\n') + '\n');
    assert.deepEqual(problems(uncommented, ['.subagents.yaml']), [], examples.join('\n'));
    fs.writeFileSync(path.join(ws, '.subagents.yaml'), 'ignore: []\n');
    assertUsageError(temps.run(['init'], ws), /cannot create \.subagents\.yaml: already exists/);
    assert.equal(fs.readFileSync(path.join(ws, '.subagents.yaml'), 'utf8'), 'ignore: []\n');
  });

  it('does not write through a link planted at .subagents.yaml', () => {
    const ws = temps.dir();
    const elsewhere = path.join(temps.dir(), 'planted.yaml');
    fs.symlinkSync(elsewhere, path.join(ws, '.subagents.yaml'));
    assertUsageError(temps.run(['init'], ws), /already exists/);
    assert.equal(fs.existsSync(elsewhere), false);
  });
});

describe('subagents new', function () {
  this.timeout(60000);

  const CREATED: Record<string, string> = {
    polytoken: '.polytoken/subagents/release_notes.md',
    picasso: '.picasso/agents/release_notes.md',
    profy: 'release_notes.expert.json',
  };

  for (const [runtime, file] of Object.entries(CREATED)) {
    it(`${runtime}: creates ${file}, which loads and checks clean`, () => {
      const ws = temps.dir();
      const r = temps.run(['new', runtime, 'release_notes', '--description', 'Drafts release notes.'], ws);
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, new RegExp(`^created ${file.replace(/\./g, '\\.')} `));
      assert.match(fs.readFileSync(path.join(ws, file), 'utf8'), /Drafts release notes\./);
      assert.deepEqual(problems(ws), []);
      const resolved = JSON.parse(temps.run(['resolve', file, '-f', 'json'], ws).stdout);
      assert.ok(
        resolved.definitions.every((d: { status: string }) => d.status === 'loads'),
        JSON.stringify(resolved),
      );
      // Never replaced: a second run fails and leaves the file as it is.
      fs.appendFileSync(path.join(ws, file), ' ');
      const before = fs.readFileSync(path.join(ws, file), 'utf8');
      assertUsageError(temps.run(['new', runtime, 'release_notes'], ws), /already exists/);
      assert.equal(fs.readFileSync(path.join(ws, file), 'utf8'), before);
    });
  }

  it('--dir puts it below that folder', () => {
    const ws = temps.dir();
    assert.equal(temps.run(['new', 'polytoken', 'helper', '--dir', 'team'], ws).code, 0);
    assert.ok(fs.existsSync(path.join(ws, 'team/.polytoken/subagents/helper.md')));
  });

  it("refuses a name the runtime's rules refuse, or one that clashes, and writes nothing", () => {
    const ws = temps.workspace({ 'apps/cli/agents/runner.yaml': VALID_PICASSO('runner') });
    assertUsageError(temps.run(['new', 'picasso', 'BadName'], ws), /not created: .*picasso\/name-format/);
    // A second Picasso role named runner: the runtime refuses duplicate roles.
    assertUsageError(temps.run(['new', 'picasso', 'runner'], ws), /not created: .*\[picasso\//);
    assertUsageError(temps.run(['new', 'polytoken', '../escape'], ws), /cannot be a definition's name/);
    assertUsageError(
      temps.run(['new', 'polytokn', 'x'], ws),
      /unknown runtime "polytokn" \(did you mean `polytoken`\?\)/,
    );
    for (const args of [[], ['polytoken'], ['polytoken', 'a', 'b']])
      assertUsageError(
        temps.run(['new', ...args], ws),
        /^subagents: new needs RUNTIME and NAME; run `subagents new --help`$/,
      );
    assert.equal(fs.existsSync(path.join(ws, '.picasso')), false);
    assert.equal(fs.existsSync(path.join(ws, '.polytoken')), false);
    assert.equal(fs.existsSync(path.join(ws, '../escape.md')), false);
  });

  it('--expert adds the subagent to an existing Expert, which still checks clean', () => {
    const ws = temps.dir();
    assert.equal(temps.run(['new', 'profy', 'books'], ws).code, 0);
    const r = temps.run(['new', 'profy', 'ledger_helper', '--expert', 'books.expert.json'], ws);
    assert.equal(r.code, 0, r.stderr);
    const expert = JSON.parse(fs.readFileSync(path.join(ws, 'books.expert.json'), 'utf8'));
    assert.deepEqual(
      expert.subagents.map((s: { name: string }) => s.name),
      ['books', 'ledger_helper'],
    );
    assert.deepEqual(problems(ws), []);
    // The same name again would be a duplicate subagent: refused, the file unchanged.
    const before = fs.readFileSync(path.join(ws, 'books.expert.json'), 'utf8');
    assertUsageError(
      temps.run(['new', 'profy', 'ledger_helper', '--expert', 'books.expert.json'], ws),
      /not added to books\.expert\.json: .*profy\/duplicate-name/,
    );
    assert.equal(fs.readFileSync(path.join(ws, 'books.expert.json'), 'utf8'), before);
    assertUsageError(temps.run(['new', 'profy', 'x', '--expert', 'missing.expert.json'], ws), /missing\.expert\.json/);
    assertUsageError(temps.run(['new', 'polytoken', 'x', '--expert', 'books.expert.json'], ws), /--expert is for/);
  });
});
