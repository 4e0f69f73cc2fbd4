/**
 * folderDialects (what checkPaths uses, one folder at a time) answers as dialectOf does
 * for every file of the folder: random folders, names, roots and configurations; and
 * globMatcher matches as picomatch does.
 */
import { strict as assert } from 'assert';
import fc from 'fast-check';
import picomatch from 'picomatch';
import { parseConfig, type LoadedConfig } from '../shared/config/config';
import { globMatcher } from '../shared/files';
import { dialectOf, folderDialects } from '../shared/recognition';

const SEGMENTS = [
  'ws',
  'a',
  '.polytoken',
  'subagents',
  '.picasso',
  'agents',
  'apps',
  'cli',
  'node_modules',
  '.git',
  'test',
  'vendor',
  'x.md',
  '.',
  '..',
  '',
];
const NAMES = [
  't.md',
  'b.expert.json',
  'r.yaml',
  'r.yml',
  'README.md',
  '.subagents.yaml',
  'x.json',
  'agents.md',
  'n.md.bak',
];

const folder = fc
  .array(fc.constantFrom(...SEGMENTS), { maxLength: 6 })
  .map((parts) => `/${parts.join('/')}`.replace(/\/$/, '') || '/');
/** Folders as a walk gives them, and some that are not normalized (they take the per-file way). */
const anyFolder = fc.oneof(
  folder.map((d) => d.replace(/\/+/g, '/').replace(/\/$/, '') || '/'),
  folder,
);

const CONFIGS = [
  '',
  'files:\n  polytoken: ["agents/*.md", "**/vendor/*.md"]\n  profy: ["**/*.json"]\nignore: ["test/**", "**/x.md/**"]\n',
  'polytoken:\n  subagentDirs: [vendor, ../a/agents]\n  globalDir: /ws/a/.polytoken/subagents\n',
  'files:\n  picasso: ["**/*.yml"]\nignore: ["**/*.expert.json"]\n',
];

function configAt(text: string, dir: string): LoadedConfig {
  const loaded = parseConfig(text, `${dir === '/' ? '' : dir}/.subagents.yaml`, dir);
  assert.deepEqual(loaded.findings, [], text);
  return loaded;
}

describe('folderDialects', () => {
  it('gives dialectOf’s answer for every file of a folder', () => {
    fc.assert(
      fc.property(
        anyFolder,
        fc.constantFrom(...NAMES),
        fc.constantFrom(...CONFIGS),
        fc.constantFrom('/', '/ws', '/ws/a', '/elsewhere'),
        fc.option(anyFolder, { nil: undefined }),
        (dir, name, text, configDir, root) => {
          const loaded = configAt(text, configDir);
          const path = dir === '/' ? `/${name}` : `${dir}/${name}`;
          assert.equal(
            folderDialects(dir, loaded, root)(name),
            dialectOf(path, loaded, root),
            `${path} root ${root} config in ${configDir}: ${text}`,
          );
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('recognizes the default paths, below the root and anywhere, and skips node_modules', () => {
    const loaded = configAt('', '/ws');
    assert.equal(folderDialects('/ws/a/.polytoken/subagents', loaded, '/ws')('t.md'), 'polytoken');
    assert.equal(
      folderDialects('/ws/.picasso/agents', loaded, '/ws/.picasso')('t.md'),
      undefined,
      'below the root, the path does not match',
    );
    assert.equal(folderDialects('/ws/.picasso/agents', loaded)('t.md'), 'picasso', 'the whole path does');
    assert.equal(folderDialects('/ws/node_modules/p/.polytoken/subagents', loaded, '/ws')('t.md'), undefined);
    assert.equal(folderDialects('/', loaded, '/')('b.expert.json'), 'profy');
  });
});

describe('globMatcher', () => {
  const PARTS = [
    '**',
    '*',
    '?',
    'a',
    'agents',
    '.polytoken',
    '*.md',
    '*.expert.json',
    '{a,b}',
    '[ab]',
    '!(x)',
    '.*',
    'x.md',
    '@(a|b)',
    '*.md?',
    '*.m[d]',
    '*.{md,json}',
    '*md',
    '*\\.md',
    '*.md)',
    '*+(.md)',
  ];
  const glob = fc
    .array(fc.constantFrom(...PARTS), { minLength: 1, maxLength: 4 })
    .chain((parts) =>
      fc.constantFrom(parts.join('/'), `!${parts.join('/')}`, `./${parts.join('/')}`, `${parts.join('/')}/`),
    );
  const path = fc
    .array(
      fc.constantFrom(
        'a',
        'b',
        'x.md',
        '.polytoken',
        'agents',
        't.expert.json',
        '.git',
        '',
        '*',
        '**',
        '{a,b}',
        'a b',
        'é',
        'md',
        '.md',
        'x.mdd',
        'x.md.md',
        '\\.md',
      ),
      { minLength: 1, maxLength: 5 },
    )
    .map((parts) => parts.join('/'));

  it('matches as picomatch(globs, { dot: true }) does', () => {
    fc.assert(
      fc.property(
        fc.array(glob, { minLength: 1, maxLength: 3 }),
        fc.array(path, { minLength: 1, maxLength: 10 }),
        (globs, paths) => {
          const ours = globMatcher(globs);
          const theirs = picomatch(globs, { dot: true });
          for (const p of [...paths, ...globs])
            assert.equal(ours(p), theirs(p), `${JSON.stringify(globs)} on ${JSON.stringify(p)}`);
        },
      ),
      { numRuns: 5000 },
    );
  });
});
