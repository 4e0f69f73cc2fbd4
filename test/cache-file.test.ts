/**
 * cli/batch/check-cache-file.ts on its own: a cache this checker wrote reads back as it was, and
 * one that is unsigned, or whose structure is not what the checker writes, is ignored with a note.
 */
import { strict as assert } from 'assert';
import { createHmac } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { emptyCache, FORMAT, loadCache, serializeCache, type CacheFile } from '../cli/batch/check-cache-file';

const KEY = Buffer.alloc(32, 3);

describe('the cache file', () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-cache-file-'));
    file = path.join(dir, '.subagentscache');
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));
  const options = () => ({ file, checker: 'test 1', key: KEY, workspace: [dir] });
  const sample = (): CacheFile => ({
    format: FORMAT,
    checker: 'test 1',
    contexts: ['polytoken abc'],
    groups: { 'polytoken x': 'a\nb' },
    configs: { '/ws/.subagents.yaml': ['h'] },
    files: {
      '/ws/a.md': [
        'hash',
        0,
        [[1, 2, 1, 5, 1, 'polytoken/name-mismatch', 'café 😀 ≠ cafe', { fixable: true, tool: 'raed' }]],
        'a',
        [5, 1, 2, 3, 4],
      ],
    },
  });
  /** The JSON written as given, signed with the key: a cache as a hand (or another program) made it. */
  const writeSigned = (json: string) =>
    fs.writeFileSync(file, `${createHmac('sha256', KEY).update(json).digest('base64')}\n${json}`);

  it('reads back what it wrote, characters past ASCII included, the file itself ASCII', () => {
    fs.writeFileSync(file, serializeCache(sample(), KEY));
    assert.ok(!/[^\0-\x7f]/.test(fs.readFileSync(file, 'latin1')), 'escaped');
    assert.deepEqual(loadCache(options()), { cache: sample() });
    assert.deepEqual(emptyCache('c'), {
      format: FORMAT,
      checker: 'c',
      contexts: [],
      groups: {},
      configs: {},
      files: {},
    });
  });

  it('ignores, with a note, a cache not signed with the key or with no signature line', () => {
    const note = (why: string) => `ignoring the cache ${file}: ${why}; it will be rebuilt`;
    const unsigned = note('is not signed with your key (written by someone else, or by an older version)');
    fs.writeFileSync(file, serializeCache(sample(), Buffer.alloc(32, 4)));
    assert.equal(loadCache(options()).note, unsigned);
    fs.writeFileSync(file, JSON.stringify(sample()));
    assert.equal(loadCache(options()).note, unsigned);
    fs.writeFileSync(file, `\n${JSON.stringify(sample())}`);
    assert.equal(loadCache(options()).note, unsigned);
    writeSigned('{"format":');
    assert.equal(loadCache(options()).note, note('is not JSON'));
  });

  it('ignores a signed cache whose stored facts of a diagnostic are not the two it writes', () => {
    const withData = (data: unknown) => {
      const cache = sample();
      (cache.files['/ws/a.md'][2][0] as unknown[])[7] = data;
      writeSigned(JSON.stringify(cache));
      return loadCache(options()).note;
    };
    assert.equal(withData({ fixable: true }), undefined);
    assert.equal(withData({ tool: 'x' }), undefined);
    for (const bad of [{ fixable: true, other: 1 }, { tool: 5 }, { fixable: false }, { other: 'x' }, ['x'], null])
      assert.match(withData(bad) ?? '', /its list of files is not what this checker writes/, JSON.stringify(bad));
  });
});
