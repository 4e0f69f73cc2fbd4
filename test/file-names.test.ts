/**
 * Paths by the platform's rules (`\` separates folders on Windows only), as units.
 */
import * as assert from 'assert';
import { defaultLoadedConfig } from '../shared/config/config';
import { analyze, fileStem } from '../shared/engine';
import { dialectOf, toPosixOn } from '../shared/files';

const POSIX_ONLY = process.platform === 'win32' ? it.skip : it;

describe('file names: paths by the platform rules', () => {
  it('toPosixOn: `\\` is a separator on Windows only', () => {
    assert.strictEqual(toPosixOn('win32', 'C:\\ws\\.polytoken\\subagents\\t.md'), 'C:/ws/.polytoken/subagents/t.md');
    for (const platform of ['linux', 'darwin', 'freebsd'] as const)
      assert.strictEqual(toPosixOn(platform, '/ws/.polytoken/subagents/a\\b.md'), '/ws/.polytoken/subagents/a\\b.md');
  });

  it('the stem and the dialect of a name holding `\\`, as each platform reads the path', () => {
    const loaded = defaultLoadedConfig('/ws');
    const path = '/ws/.polytoken/subagents/..\\..\\victim\\zz.md';
    assert.strictEqual(fileStem(toPosixOn('linux', path)), '..\\..\\victim\\zz');
    assert.strictEqual(fileStem(toPosixOn('win32', path)), 'zz');
    assert.strictEqual(dialectOf(toPosixOn('linux', path), loaded, '/ws'), 'polytoken');
    // On Windows the same text names a file two folders up, outside the discovery folder.
    assert.strictEqual(dialectOf(toPosixOn('win32', path), loaded, '/ws'), undefined);
  });

  POSIX_ONLY('name-mismatch compares `name` with the whole stem, `\\` included', () => {
    const config = defaultLoadedConfig('/ws');
    const rules = (name: string) =>
      analyze({ text: `---\nname: ${JSON.stringify(name)}\n---\n`, path: '/ws/.polytoken/subagents/a\\b.md', config })
        .diagnostics.map((d) => d.code)
        .filter((code) => code === 'polytoken/name-mismatch');
    assert.deepStrictEqual(rules('a\\b'), []);
    assert.deepStrictEqual(rules('b'), ['polytoken/name-mismatch']);
  });
});
