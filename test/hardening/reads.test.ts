/**
 * What a repository cannot make the checker read: a definition or configuration that is a
 * symbolic link to a file outside the checked folders is not read, so its content (a token in
 * the user's home, say) never reaches a report that CI would upload. A link that stays inside
 * the project is read as before. Run as processes on throw-away workspaces.
 */
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { Temps, VALID_POLYTOKEN } from '../support/cli';

const temps = new Temps();
after(() => temps.remove());

const SECRET = 'ghp_SECRETTOKEN0123456789';
const DEFS = '.polytoken/subagents';

/** A project whose `leak.md` links to a secret file outside it, and whose `shared.md` links to a file inside it. */
function project(): { root: string; outside: string } {
  const outside = temps.dir('subagents-outside-');
  fs.writeFileSync(path.join(outside, 'secret.md'), `---\nname: ${SECRET}\n${SECRET}_KEY: 1\n---\n`);
  const root = temps.workspace({
    [`${DEFS}/ok.md`]: VALID_POLYTOKEN('ok'),
    'shared/inside.md': VALID_POLYTOKEN('other'), // read through the link: a name mismatch with shared.md
  });
  fs.symlinkSync(path.join(outside, 'secret.md'), path.join(root, DEFS, 'leak.md'));
  fs.symlinkSync(path.join(root, 'shared/inside.md'), path.join(root, DEFS, 'shared.md'));
  return { root, outside };
}

describe('hardening: a link cannot make the checker read outside the checked folders', function () {
  this.timeout(60_000);

  for (const format of ['text', 'json', 'sarif', 'github']) {
    it(`check -f ${format}: the linked file's content is in no output; it is named as not read; a link inside is read`, () => {
      const { root } = project();
      const r = temps.run(['check', '.', '-f', format], root);
      assert.ok(!r.stdout.includes(SECRET) && !r.stderr.includes(SECRET), r.stdout + r.stderr);
      assert.match(r.stderr, /leak\.md: is a link to a file outside .*; it is not read/);
      assert.equal(r.code, 2, 'a file that is not read is an I/O problem: exit 2, the report still printed');
      // The link inside the project is read: its name mismatch is reported in every format.
      assert.ok(r.stdout.includes('shared.md') && r.stdout.includes('name-mismatch'), r.stdout);
    });
  }

  it('check of the folder holding the link, resolve of the link, and diff of the working tree refuse it too', () => {
    const { root } = project();
    const folder = temps.run(['check', DEFS, '-f', 'json'], root);
    assert.ok(!folder.stdout.includes(SECRET) && !folder.stderr.includes(SECRET));
    assert.match(folder.stderr, /leak\.md: is a link to a file outside/);

    const resolved = temps.run(['resolve', `${DEFS}/leak.md`, '-f', 'json'], root);
    assert.equal(resolved.code, 2);
    assert.ok(!resolved.stdout.includes(SECRET) && !resolved.stderr.includes(SECRET), resolved.stderr);
    assert.match(resolved.stderr, /is a link to a file outside/);

    execFileSync('git', ['init', '-q'], { cwd: root });
    execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'x'], {
      cwd: root,
    });
    const diff = temps.run(['diff', '-f', 'json'], root);
    assert.ok(!diff.stdout.includes(SECRET) && !diff.stderr.includes(SECRET), diff.stdout + diff.stderr);
  });

  it('the check can fail: without the link, the same file is read and its name reported', () => {
    const { root, outside } = project();
    fs.rmSync(path.join(root, DEFS, 'leak.md'));
    fs.copyFileSync(path.join(outside, 'secret.md'), path.join(root, DEFS, 'leak.md'));
    const r = temps.run(['check', '.', '-f', 'json'], root);
    assert.ok(r.stdout.includes(SECRET), 'a regular file in the project is read and quoted');
  });
});
