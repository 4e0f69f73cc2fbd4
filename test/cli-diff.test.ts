/**
 * `subagents diff` on throw-away git repositories with real commits: definitions added
 * and removed, status changes, tools granted (with what granted them) and revoked,
 * the working tree, folders, PATHs, --fail-on-grant and the output formats.
 */
import { strict as assert } from 'assert';
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { grantsSomething, type DefinitionChange } from '../cli/diff-report';
import { relativePath } from '../cli/common';
import { assertUsageError, Temps, VALID_PICASSO, VALID_POLYTOKEN } from './support/cli';

const temps = new Temps();
after(() => temps.remove());

const GIT_ENV = {
  GIT_AUTHOR_NAME: 'Test',
  GIT_AUTHOR_EMAIL: 'test@example.com',
  GIT_COMMITTER_NAME: 'Test',
  GIT_COMMITTER_EMAIL: 'test@example.com',
  GIT_CONFIG_NOSYSTEM: '1',
};

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd: repo, env: { ...process.env, ...GIT_ENV }, encoding: 'utf8' });
}

/** Writes the files (null deletes one) and commits them all. */
function commit(repo: string, files: Record<string, string | null>, message: string): void {
  for (const [rel, content] of Object.entries(files)) {
    const abs = path.join(repo, rel);
    if (content === null) fs.rmSync(abs);
    else {
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
    }
  }
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '--allow-empty', '-m', message);
}

function newRepo(): string {
  const repo = temps.dir('subagents-diff-repo-');
  git(repo, 'init', '-q');
  return repo;
}

const CONFIG =
  'tools:\n  polytoken:\n    - deploy\n    - { name: shell, description: Runs a command., tags: [exec] }\nmcp:\n  github: [create_issue, list_issues]\n';
const RUNNER_DENYING_GREP = VALID_PICASSO('runner').replace(
  'tools: [read_file, grep]',
  'tools: [read_file, grep]\ndeny: [grep]',
);

/** Two commits: triage gains tools through shorthands and loses grep, old-helper goes, deployer comes, runner starts to load. */
function twoCommitRepo(): string {
  const repo = newRepo();
  commit(
    repo,
    {
      '.subagents.yaml': CONFIG,
      '.polytoken/subagents/triage.md': VALID_POLYTOKEN('triage', '[file_read, grep, mcp__github__list_issues]'),
      '.polytoken/subagents/old-helper.md': VALID_POLYTOKEN('old-helper', '[file_read]'),
      'apps/cli/agents/runner.yaml': RUNNER_DENYING_GREP,
    },
    'first',
  );
  commit(
    repo,
    {
      '.polytoken/subagents/triage.md': VALID_POLYTOKEN('triage', '[file_read, tag!exec, mcp__github]'),
      '.polytoken/subagents/old-helper.md': null,
      '.polytoken/subagents/deployer.md': VALID_POLYTOKEN('deployer', '[deploy, file_read]'),
      'apps/cli/agents/runner.yaml': VALID_PICASSO('runner'),
    },
    'second',
  );
  return repo;
}

const EXPECTED_CHANGES = [
  {
    file: '.polytoken/subagents/deployer.md',
    dialect: 'polytoken',
    name: 'deployer',
    change: 'added',
    status: { from: null, to: 'loads' },
    granted: [
      { tool: 'deploy', by: 'tools' },
      { tool: 'exit_tool', by: 'always registered' },
      { tool: 'file_read', by: 'tools' },
    ],
    revoked: [],
  },
  {
    file: '.polytoken/subagents/old-helper.md',
    dialect: 'polytoken',
    name: 'old-helper',
    change: 'removed',
    status: { from: 'loads', to: null },
    granted: [],
    revoked: ['exit_tool', 'file_read'],
  },
  {
    file: '.polytoken/subagents/triage.md',
    dialect: 'polytoken',
    name: 'triage',
    change: 'changed',
    status: { from: 'loads', to: 'loads' },
    granted: [
      { tool: 'mcp__github__create_issue', by: 'tools: mcp__github' },
      { tool: 'shell', by: 'tools: tag!exec' },
    ],
    revoked: ['grep'],
  },
  {
    file: 'apps/cli/agents/runner.yaml',
    dialect: 'picasso',
    name: 'runner',
    change: 'changed',
    status: { from: 'rejected', to: 'loads' },
    granted: [{ tool: 'grep', by: 'tools' }],
    revoked: [],
  },
];

describe('subagents diff', function () {
  this.timeout(60000);

  it('compares two commits: added, removed, status and tool changes with what granted each tool (JSON)', () => {
    const repo = twoCommitRepo();
    const r = temps.run(['diff', 'HEAD~1', 'HEAD', '--format', 'json'], repo);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.deepEqual(JSON.parse(r.stdout), { base: 'HEAD~1', head: 'HEAD', changes: EXPECTED_CHANGES });
    assert.match(r.stdout, /\}\n$/, 'one document and a newline');
    // The same with commit ids, and in reverse (grants become revocations).
    const first = git(repo, 'rev-parse', 'HEAD~1').trim();
    const reverse = JSON.parse(temps.run(['diff', 'HEAD', first, '-f', 'json'], repo).stdout);
    assert.equal(reverse.head, first);
    const triage = reverse.changes.find((c: { name: string }) => c.name === 'triage');
    assert.deepEqual(triage.revoked, ['mcp__github__create_issue', 'shell']);
    assert.deepEqual(triage.granted, [{ tool: 'grep', by: 'tools' }]);
    assert.deepEqual(reverse.changes.find((c: { name: string }) => c.name === 'deployer').change, 'removed');
  });

  it('text and markdown name every change; markdown has one table per definition', () => {
    const repo = twoCommitRepo();
    const text = temps.run(['diff', 'HEAD~1', 'HEAD'], repo).stdout;
    assert.match(text, /^subagents diff HEAD~1\.\.HEAD: 4 definitions changed \(1 added, 1 removed, 2 changed\)\n/);
    assert.match(
      text,
      /\n\.polytoken\/subagents\/triage\.md: triage \(polytoken\) changed, status loads\n {2}\+ mcp__github__create_issue {2}granted by tools: mcp__github\n {2}\+ shell +granted by tools: tag!exec\n {2}- grep +revoked\n/,
    );
    assert.match(text, /apps\/cli\/agents\/runner\.yaml: runner \(picasso\) changed, status rejected → loads\n/);
    const md = temps.run(['diff', 'HEAD~1', 'HEAD', '--format', 'markdown'], repo).stdout;
    assert.match(md, /^### Subagent permission changes: `HEAD~1` → `HEAD`\n/);
    assert.equal(md.match(/^\| change \| tool \| granted by \|$/gm)?.length, 4);
    assert.match(md, /^\| ➕ granted \| `shell` \| tools: tag!exec \|$/m);
    assert.match(md, /^\| ➖ revoked \| `grep` \| \|$/m);
    assert.match(
      md,
      /^#### `runner` \(picasso\): changed\n\n`apps\/cli\/agents\/runner\.yaml`, status: \*\*rejected → loads\*\*$/m,
    );
  });

  it('defaults to HEAD against the working tree, and reads the configuration of each side', () => {
    const repo = twoCommitRepo();
    assert.equal(
      temps.run(['diff'], repo).stdout,
      'subagents diff HEAD..worktree: no definition changed its tools or status.\n',
    );
    // Only the configuration changes: `tag!exec` now also brings `deploy`.
    fs.writeFileSync(
      path.join(repo, '.subagents.yaml'),
      CONFIG.replace('    - deploy\n', '    - { name: deploy, tags: [exec] }\n'),
    );
    const r = JSON.parse(temps.run(['diff', '-f', 'json'], repo).stdout);
    assert.deepEqual(r.base, 'HEAD');
    assert.deepEqual(r.head, 'worktree');
    assert.deepEqual(r.changes, [
      {
        file: '.polytoken/subagents/triage.md',
        dialect: 'polytoken',
        name: 'triage',
        change: 'changed',
        status: { from: 'loads', to: 'loads' },
        granted: [{ tool: 'deploy', by: 'tools: tag!exec' }],
        revoked: [],
      },
    ]);
  });

  it('--fail-on-grant: 1 when a tool is granted or a definition starts to load, else 0', () => {
    const repo = newRepo();
    commit(
      repo,
      {
        '.polytoken/subagents/a.md': VALID_POLYTOKEN('a', '[file_read, grep]'),
        '.polytoken/subagents/b.md': VALID_POLYTOKEN('b', '[file_read, exit_tool]'),
      },
      'first',
    );
    fs.writeFileSync(path.join(repo, '.polytoken/subagents/a.md'), VALID_POLYTOKEN('a', '[file_read]'));
    const revoked = temps.run(['diff', '--fail-on-grant'], repo);
    assert.equal(revoked.code, 0, 'revoking is fine');
    assert.match(revoked.stdout, /- grep +revoked/);
    // b was rejected (it lists exit_tool, which is always registered); without it b loads with the same tools.
    fs.writeFileSync(path.join(repo, '.polytoken/subagents/b.md'), VALID_POLYTOKEN('b', '[file_read]'));
    const loads = temps.run(['diff', '--fail-on-grant', '-f', 'json', '.polytoken/subagents/b.md'], repo);
    assert.equal(loads.code, 1);
    assert.deepEqual(JSON.parse(loads.stdout).changes, [
      {
        file: '.polytoken/subagents/b.md',
        dialect: 'polytoken',
        name: 'b',
        change: 'changed',
        status: { from: 'rejected', to: 'loads' },
        granted: [],
        revoked: [],
      },
    ]);
    fs.writeFileSync(path.join(repo, '.polytoken/subagents/b.md'), VALID_POLYTOKEN('b', '[file_read, shell]'));
    const granted = temps.run(['diff', '--fail-on-grant'], repo);
    assert.equal(granted.code, 1);
    // The catalog does not know `shell` (no configuration declares it): the grant is marked and counted apart.
    assert.match(granted.stdout, /granted 1 unknown tool\n {2}\+ shell +granted \(unknown tool\) by tools\n/);
    assert.equal(temps.run(['diff'], repo).code, 0, 'without the flag, grants do not fail');
  });

  it('PATHs limit the comparison, from a subfolder too; a PATH on one side only is fine', () => {
    const repo = twoCommitRepo();
    const apps = JSON.parse(temps.run(['diff', 'HEAD~1', 'HEAD', 'apps', '-f', 'json'], repo).stdout);
    assert.deepEqual(
      apps.changes.map((c: { file: string }) => c.file),
      ['apps/cli/agents/runner.yaml'],
    );
    const sub = JSON.parse(temps.run(['diff', 'HEAD~1', 'HEAD', '-f', 'json'], path.join(repo, '.polytoken')).stdout);
    assert.deepEqual(
      sub.changes.map((c: { file: string }) => c.file),
      ['subagents/deployer.md', 'subagents/old-helper.md', 'subagents/triage.md'],
    );
    const added = JSON.parse(
      temps.run(['diff', 'HEAD~1', 'HEAD', '.polytoken/subagents/deployer.md', '-f', 'json'], repo).stdout,
    );
    assert.deepEqual(
      added.changes.map((c: { change: string }) => c.change),
      ['added'],
    );
    assertUsageError(
      temps.run(['diff', 'HEAD~1', 'HEAD', 'nowhere'], repo),
      /nowhere: no such file or folder in HEAD~1 nor in HEAD/,
    );
  });

  it('a definition renamed inside its file is one renamed entry, its tools compared', () => {
    const repo = newRepo();
    commit(repo, { '.polytoken/subagents/a.md': VALID_POLYTOKEN('a', '[file_read]') }, 'first');
    fs.writeFileSync(path.join(repo, '.polytoken/subagents/a.md'), VALID_POLYTOKEN('b', '[file_read, grep]'));
    const json = JSON.parse(temps.run(['diff', '-f', 'json'], repo).stdout);
    assert.deepEqual(json.changes, [
      {
        file: '.polytoken/subagents/a.md',
        dialect: 'polytoken',
        name: 'b',
        change: 'renamed',
        previousName: 'a',
        // The name no longer matches the file: the runtime rejects it.
        status: { from: 'loads', to: 'rejected' },
        granted: [{ tool: 'grep', by: 'tools' }],
        revoked: [],
      },
    ]);
    const text = temps.run(['diff'], repo).stdout;
    assert.match(text, /1 definition changed \(0 added, 0 removed, 1 renamed, 0 changed\)/);
    assert.match(
      text,
      /a\.md: b \(polytoken\) renamed from a, status loads → rejected\n {2}\+ grep +granted by tools\n/,
    );
  });

  it('a leading argument that is neither a revision nor a path: unknown revision, with the branch meant', () => {
    const repo = newRepo();
    git(repo, 'checkout', '-q', '-b', 'master');
    commit(repo, { '.polytoken/subagents/a.md': VALID_POLYTOKEN('a') }, 'first');
    assertUsageError(
      temps.run(['diff', 'main'], repo),
      /^subagents: unknown revision `main`, nor a file or folder here \(the current branch is `master`\)/,
    );
    assertUsageError(temps.run(['diff', 'mastr'], repo), /unknown revision `mastr`.*\(did you mean `master`\?\)/);
    // Named sides first: the argument after them is a PATH.
    assertUsageError(temps.run(['diff', 'HEAD', 'main'], repo), /main: no such file or folder in HEAD nor in worktree/);
    // Nothing near: the current branch, and the usual main branch when there is one besides it.
    git(repo, 'branch', 'main');
    git(repo, 'checkout', '-q', '-b', 'topic');
    assertUsageError(
      temps.run(['diff', 'zzzzzz'], repo),
      /^subagents: unknown revision `zzzzzz`, nor a file or folder here \(the current branch is `topic`; there is also `main`\); run `git branch -a` to list the branches$/,
    );
    git(repo, 'checkout', '-q', 'main');
    assertUsageError(temps.run(['diff', 'zzzzzz'], repo), /\(the current branch is `main`; there is also `master`\)/);
    // Only a branch that exists is named: `master` beside `topic`, never a `main` there is not.
    git(repo, 'checkout', '-q', 'topic');
    git(repo, 'branch', '-q', '-D', 'main');
    assertUsageError(temps.run(['diff', 'zzzzzz'], repo), /\(the current branch is `topic`; there is also `master`\);/);
    // On no branch (a detached HEAD): no branch to name.
    git(repo, 'checkout', '-q', '--detach');
    assertUsageError(
      temps.run(['diff', 'zzzzzz'], repo),
      /^subagents: unknown revision `zzzzzz`, nor a file or folder here; run `git branch -a` to list the branches$/,
    );
  });

  it('a missing PATH after `--` or after another PATH is a missing path, not a revision', () => {
    const repo = twoCommitRepo();
    assertUsageError(temps.run(['diff', '--', 'zzzzzz'], repo), /^subagents: zzzzzz: no such file or folder in HEAD/);
    assertUsageError(
      temps.run(['diff', '.polytoken', 'zzzzzz'], repo),
      /^subagents: zzzzzz: no such file or folder in HEAD nor in worktree/,
    );
  });

  it('files git archive would leave out (export-ignore) are still compared', () => {
    const repo = newRepo();
    commit(
      repo,
      {
        '.gitattributes': '.polytoken/** export-ignore\n',
        '.polytoken/subagents/a.md': VALID_POLYTOKEN('a', '[file_read]'),
      },
      'first',
    );
    commit(repo, { '.polytoken/subagents/a.md': VALID_POLYTOKEN('a', '[file_read, grep]') }, 'second');
    const r = JSON.parse(temps.run(['diff', 'HEAD~1', 'HEAD', '-f', 'json'], repo).stdout);
    assert.deepEqual(r.changes[0]?.granted, [{ tool: 'grep', by: 'tools' }]);
  });

  it('compares two folders given before `--`, also outside a repository', () => {
    const parent = temps.dir();
    temps.workspace({ '.polytoken/subagents/a.md': VALID_POLYTOKEN('a', '[file_read]') }, path.join(parent, 'old'));
    temps.workspace(
      { '.polytoken/subagents/a.md': VALID_POLYTOKEN('a', '[file_read, grep]') },
      path.join(parent, 'new'),
    );
    const r = temps.run(['diff', '-f', 'json', 'old', 'new', '--'], parent);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), {
      base: 'old',
      head: 'new',
      changes: [
        {
          file: '.polytoken/subagents/a.md',
          dialect: 'polytoken',
          name: 'a',
          change: 'changed',
          status: { from: 'loads', to: 'loads' },
          granted: [{ tool: 'grep', by: 'tools' }],
          revoked: [],
        },
      ],
    });
  });

  it('usage errors: outside a repository, an unknown side before `--`, three sides, no commit yet, a bad format', () => {
    const plain = temps.dir();
    assertUsageError(temps.run(['diff'], plain), /not in a git repository: name the two folders to compare/);
    assertUsageError(
      temps.run(['diff', 'nope', 'other', '--'], plain),
      /nope: neither a folder nor a git revision \(not in a git repository\)/,
    );
    const repo = twoCommitRepo();
    assertUsageError(temps.run(['diff', 'HEAD~1', 'HEAD', 'HEAD', '--'], repo), /at most two sides/);
    assertUsageError(temps.run(['diff', 'HEAD', '--format', 'sarif'], repo), /unknown format "sarif"/);
    assertUsageError(temps.run(['diff'], newRepo()), /HEAD names no commit yet/);
  });
});

describe('diff: what --fail-on-grant counts as a grant', () => {
  const change = (
    granted: string[],
    from: DefinitionChange['status']['from'],
    to: DefinitionChange['status']['to'],
  ): DefinitionChange => ({
    file: 'a.md',
    dialect: 'polytoken',
    name: 'a',
    change: from === null ? 'added' : to === null ? 'removed' : 'changed',
    status: { from, to },
    granted: granted.map((tool) => ({ tool, by: 'tools' })),
    revoked: [],
  });
  const grants = (...changes: DefinitionChange[]) => grantsSomething({ base: 'HEAD', head: 'work', changes });

  it('a tool granted to a definition that loads on both sides', () => {
    assert.equal(grants(change(['grep'], 'loads', 'loads')), true);
    assert.equal(grants(change([], 'loads', 'loads'), change(['grep'], 'loads', 'loads')), true);
  });

  it('a definition that starts to load, new or once rejected or dropped', () => {
    for (const from of [null, 'rejected', 'dropped'] as const)
      assert.equal(grants(change([], from, 'loads')), true, `${from}`);
  });

  it('nothing else: no change, revocations, a definition that stops loading, stays rejected or goes', () => {
    assert.equal(grants(), false);
    assert.equal(grants(change([], 'loads', 'loads')), false);
    assert.equal(grants(change([], 'loads', 'rejected')), false);
    assert.equal(grants(change([], 'rejected', 'dropped')), false);
    assert.equal(grants(change([], 'rejected', null)), false);
    assert.equal(grants(change([], null, 'rejected')), false);
  });
});

describe('paths in every report', () => {
  it('are relative to the current folder, with / separators; the folder itself is "."', () => {
    assert.equal(relativePath('/w/ws', '/w/ws'), '.');
    assert.equal(relativePath('/w/ws', '/w/ws/a/b.md'), 'a/b.md');
    assert.equal(relativePath('/w/ws/a', '/w/ws/b/c.md'), '../b/c.md');
  });
});
