/**
 * `subagents mcp` through the SDK's own client over stdio: every tool answers what the matching
 * CLI command prints (the same JSON documents), unsaved text is checked with the workspace around
 * it, `fix` writes only with `write: true`, and every error is a tool error after which the
 * server goes on serving.
 */
import { strict as assert } from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { applyPatch } from 'diff';
import { Temps, VALID_PICASSO, VALID_POLYTOKEN } from '../support/cli';
import { mcpSession, type McpSession } from './harness';

const temps = new Temps();
after(() => temps.remove());

/** Loads, rejected (name and exit_tool), shadowed, dropped: one definition of each status. */
export const WORKSPACE: Record<string, string> = {
  '.subagents.yaml': 'polytoken:\n  subagentDirs: [vendor/agents]\n',
  '.polytoken/subagents/reviewer.md': VALID_POLYTOKEN('reviewer'),
  '.polytoken/subagents/triage.md': VALID_POLYTOKEN('triag', '[file_read, exit_tool]'),
  'vendor/agents/reviewer.md': VALID_POLYTOKEN('reviewer'),
  'apps/cli/agents/test_runner.yaml': VALID_PICASSO('test_runner'),
  'experts/books.expert.json': JSON.stringify(
    {
      name: 'books',
      description: 'Keeps the books.',
      tools: ['read', 'grep'],
      subagents: [
        { name: 'scanner', description: 'Scans.', system_prompt: 'Scan.', tools: ['read'] },
        { name: 'poster', description: 'Posts.', tools: ['read'] },
      ],
    },
    null,
    2,
  ),
  'README.md': '# not a definition\n',
};

const text = (r: { content: unknown[] }) => (r.content[0] as { text: string }).text;

describe('subagents mcp: the tools, through the SDK client over stdio', function () {
  this.timeout(60000);
  let ws: string;
  let mcp: McpSession;
  const cli = (args: string[], input?: string) => {
    const r = temps.run(args, ws, { input });
    assert.ok(r.code === 0 || r.code === 1, `${args.join(' ')}: ${r.stderr}`);
    return JSON.parse(r.stdout);
  };

  before(async () => {
    ws = temps.workspace(WORKSPACE);
    mcp = await mcpSession(ws, temps.xdg);
  });
  after(() => mcp?.close());

  it('lists five tools, each described for a model, with an input and an output schema', async () => {
    const { tools } = await mcp.client.listTools();
    assert.deepEqual(tools.map((t) => t.name).sort(), ['check', 'explain_rule', 'fix', 'list_definitions', 'resolve']);
    for (const tool of tools) {
      assert.ok((tool.description ?? '').length > 100, `${tool.name} is described`);
      assert.equal(tool.inputSchema.type, 'object');
      assert.equal(tool.outputSchema?.type, 'object', `${tool.name} has an output schema`);
    }
    // Only fix writes, and it is safe to repeat; nothing reaches outside the workspace.
    const readOnly = { readOnlyHint: true, openWorldHint: false };
    assert.deepEqual(Object.fromEntries(tools.map((t) => [t.name, t.annotations])), {
      list_definitions: readOnly,
      explain_rule: readOnly,
      check: readOnly,
      resolve: readOnly,
      fix: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    });
    assert.deepEqual(Object.fromEntries(tools.map((t) => [t.name, t.title])), {
      check: 'Check subagent definitions',
      resolve: 'Resolve the tools of a definition',
      list_definitions: 'List the subagent definitions',
      explain_rule: 'Explain a rule',
      fix: 'Apply the safe fixes',
    });
  });

  it('declares tools, resources and prompts', () => {
    const capabilities = mcp.client.getServerCapabilities();
    assert.deepEqual(Object.keys(capabilities ?? {}).sort(), ['prompts', 'resources', 'tools']);
    // The instructions name each runtime's files, leading `**/` dropped, for the model to know what to check.
    assert.ok(
      mcp.client
        .getInstructions()
        ?.startsWith(
          'Checks subagent definition files of 3 agent runtimes (Polytoken: .polytoken/subagents/*.md; Profy: *.expert.json; Picasso: .picasso/agents/*.md and apps/cli/agents/*.yaml and apps/cli/agents/*.yml) the way each runtime reads them.',
        ),
      mcp.client.getInstructions(),
    );
  });

  it('SUBAGENTS_MCP_TIMING: each call logs its tool, wall and CPU time', async () => {
    const timed = await mcpSession(ws, temps.xdg, { env: { SUBAGENTS_MCP_TIMING: '1' } });
    try {
      await timed.data('list_definitions');
      await timed.data('check', { paths: ['.polytoken'] });
      await timed.error('resolve', { path: 'nowhere.md' });
      await timed.data('explain_rule', { rule: 'polytoken/name-mismatch' });
      await timed.data('fix', { path: '.polytoken/subagents/reviewer.md' });
      const lines = timed
        .stderr()
        .split('\n')
        .filter((l) => / ms, cpu /.test(l));
      assert.deepEqual(
        lines.map((l) => /^subagents mcp: ([a-z_]+): \d+\.\d ms, cpu \d+\.\d ms$/.exec(l)?.[1]),
        ['list_definitions', 'check', 'resolve', 'explain_rule', 'fix'],
        timed.stderr(),
      );
    } finally {
      await timed.close();
    }
    assert.doesNotMatch(mcp.stderr(), / ms, cpu /, 'not without it');
  });

  it('check of the workspace is `check --format json`, with its summary line as text', async () => {
    const r = await mcp.call('check');
    assert.ok(!r.isError);
    assert.deepEqual(r.structuredContent, cli(['check', '--format', 'json']));
    assert.match(text(r), /\.polytoken\/subagents\/triage\.md:2:7 error .*\[polytoken\/name-mismatch\]/);
    assert.match(text(r), /\n6 files checked: 3 errors, /);
  });

  it('check of paths (a file, a folder, a glob) is `check` of the same paths', async () => {
    for (const paths of [
      ['.polytoken/subagents/triage.md'],
      ['experts'],
      ['**/*.yaml'],
      ['experts', path.join(ws, 'apps')],
    ])
      assert.deepEqual(await mcp.data('check', { paths }), cli(['check', '--format', 'json', ...paths]), paths.join());
  });

  it('check of unsaved text is `check --stdin`: the text, not the disk, with the configuration and the other definitions around it', async () => {
    const unsaved = VALID_POLYTOKEN('triage', '[file_read, grpe]');
    const name = '.polytoken/subagents/triage.md';
    const data = await mcp.data('check', { files: [{ path: name, text: unsaved }] });
    assert.deepEqual(data, cli(['check', '--stdin', '--stdin-filename', name, '-f', 'json'], unsaved));
    assert.deepEqual(
      data.files[0].diagnostics.map((d: { rule: string }) => d.rule),
      ['polytoken/unknown-tool'],
    );
    // A new file in the configuration's subagentDirs folder, named like a project definition, is
    // shadowed by it: alone (the workspace around it is read, as check --stdin does) and with `paths`.
    const alone = await mcp.data('check', {
      files: [{ path: 'vendor/agents/reviewer.md', text: VALID_POLYTOKEN('reviewer', '[grep]') }],
    });
    assert.deepEqual(
      alone.files[0].diagnostics.map((d: { rule: string }) => d.rule),
      ['polytoken/shadowed'],
      'alone, the workspace around it is read',
    );
    const withWorkspace = await mcp.data('check', {
      paths: ['.'],
      files: [{ path: 'vendor/agents/reviewer.md', text: VALID_POLYTOKEN('reviewer', '[grep]') }],
    });
    const vendor = withWorkspace.files.find((f: { path: string }) => f.path === 'vendor/agents/reviewer.md');
    assert.deepEqual(
      vendor.diagnostics.map((d: { rule: string }) => d.rule),
      ['polytoken/shadowed'],
    );
    assert.equal(
      fs.readFileSync(path.join(ws, 'vendor/agents/reviewer.md'), 'utf8'),
      WORKSPACE['vendor/agents/reviewer.md'],
    );
  });

  it('check of paths and unsaved files together: the unsaved text wins over the disk', async () => {
    const data = await mcp.data('check', {
      paths: ['.polytoken'],
      files: [{ path: '.polytoken/subagents/triage.md', text: VALID_POLYTOKEN('triage') }],
    });
    assert.deepEqual(
      data.files.map((f: { path: string }) => f.path),
      ['.polytoken/subagents/reviewer.md', '.polytoken/subagents/triage.md'],
    );
    assert.equal(data.summary.errors, 0);
  });

  it('resolve is `resolve --format json`; with text, the unsaved text is resolved', async () => {
    for (const file of ['.polytoken/subagents/triage.md', 'experts/books.expert.json', 'vendor/agents/reviewer.md']) {
      const r = await mcp.call('resolve', { path: file });
      assert.deepEqual(r.structuredContent, cli(['resolve', file, '--format', 'json']), file);
      assert.match(text(r), new RegExp(`^${file.replace(/\./g, '\\.')} \\(`));
    }
    const unsaved = await mcp.data('resolve', {
      path: '.polytoken/subagents/helper.md',
      text: VALID_POLYTOKEN('helper', '[grep]'),
    });
    assert.equal(unsaved.definitions[0].status, 'loads');
    assert.deepEqual(unsaved.definitions[0].tools, ['exit_tool', 'grep']);
    assert.deepEqual(unsaved.definitions[0].provenance.grep, ['tools']);
  });

  it('list_definitions gives every definition with its status, tool count and problems, and filters', async () => {
    const all = await mcp.data('list_definitions');
    const brief = all.definitions.map((d: any) => `${d.path}#${d.index} ${d.dialect} ${d.name} ${d.status}`);
    assert.deepEqual(brief.sort(), [
      '.polytoken/subagents/reviewer.md#0 polytoken reviewer loads',
      '.polytoken/subagents/triage.md#0 polytoken triag rejected',
      'apps/cli/agents/test_runner.yaml#0 picasso test_runner loads',
      'experts/books.expert.json#0 profy scanner loads',
      'experts/books.expert.json#1 profy poster dropped',
      'vendor/agents/reviewer.md#0 polytoken reviewer shadowed',
    ]);
    assert.deepEqual(all.counts, { loads: 3, rejected: 1, dropped: 1, shadowed: 1 });
    const triage = all.definitions.find((d: any) => d.name === 'triag');
    assert.equal(triage.tools, 2);
    assert.equal(triage.problems.errors, 2);
    assert.deepEqual(triage.reasons, ['polytoken/name-mismatch', 'polytoken/exit-tool-listed']);
    assert.equal(triage.line, 1);
    const shadowed = all.definitions.find((d: any) => d.status === 'shadowed');
    assert.equal(shadowed.shadowedBy, '.polytoken/subagents/reviewer.md');

    const rejected = await mcp.data('list_definitions', { status: 'rejected' });
    assert.deepEqual(
      rejected.definitions.map((d: any) => d.name),
      ['triag'],
    );
    const profy = await mcp.data('list_definitions', { dialect: 'profy' });
    assert.deepEqual(profy.definitions.map((d: any) => d.name).sort(), ['poster', 'scanner']);
    assert.match(
      text(await mcp.call('list_definitions')),
      /^6 definitions: 3 loads, 1 rejected, 1 dropped, 1 shadowed\.$/m,
    );
  });

  it("explain_rule gives the rule's page; a name only one group has is enough; a wrong one names the closest", async () => {
    const page = fs.readFileSync(path.resolve(__dirname, '../../../docs/rules/polytoken/name-mismatch.md'), 'utf8');
    const r = await mcp.call('explain_rule', { rule: 'polytoken/name-mismatch' });
    assert.equal(text(r), page);
    assert.equal((r.structuredContent as any).severity, 'error');
    assert.equal((await mcp.data('explain_rule', { rule: 'no-tools' })).rule, 'profy/no-tools');
    assert.match(await mcp.error('explain_rule', { rule: 'polytoken/name-mismatc' }), /`polytoken\/name-mismatch`/);
    // Two groups have it: both are offered.
    assert.match(
      await mcp.error('explain_rule', { rule: 'name-mismatch' }),
      /`picasso\/name-mismatch`, `polytoken\/name-mismatch`/,
    );
  });

  it('fix returns the diff and the fixed text, writes nothing without write: true, and converges', async () => {
    const file = path.join(ws, '.polytoken/subagents/triage.md');
    const before = fs.readFileSync(file, 'utf8');
    const dry = await mcp.data('fix', { path: '.polytoken/subagents/triage.md' });
    assert.deepEqual(dry.applied.sort(), ['polytoken/exit-tool-listed', 'polytoken/name-mismatch']);
    assert.equal(dry.written, false);
    assert.equal(fs.readFileSync(file, 'utf8'), before, 'nothing written');
    assert.equal(applyPatch(before, dry.diff), dry.text, 'the diff yields the text');
    assert.match(
      dry.diff,
      /^--- a\/\.polytoken\/subagents\/triage\.md\n\+\+\+ b\/\.polytoken\/subagents\/triage\.md\n/,
    );
    assert.equal(dry.remaining.summary.errors, 0);

    const wet = await mcp.data('fix', { path: '.polytoken/subagents/triage.md', write: true });
    assert.equal(wet.written, true);
    assert.equal(fs.readFileSync(file, 'utf8'), dry.text);
    const again = await mcp.data('fix', { path: '.polytoken/subagents/triage.md', write: true });
    assert.deepEqual([again.applied, again.diff, again.written], [[], '', false]);
    assert.equal((await mcp.data('check', { paths: ['.polytoken/subagents/triage.md'] })).summary.errors, 0);
  });

  it('fix writes a new definition from unsaved text with write: true (folders made), which then checks clean', async () => {
    const unsaved = VALID_POLYTOKEN('writer', '[file_read, exit_tool]').replace('name: writer', 'name: wrong');
    const target = 'team/.polytoken/subagents/writer.md';
    const dry = await mcp.data('fix', { path: target, text: unsaved });
    assert.equal(fs.existsSync(path.join(ws, target)), false);
    assert.match(dry.text, /^name: writer$/m);
    const written = await mcp.data('fix', { path: target, text: unsaved, write: true });
    assert.equal(written.written, true);
    assert.equal(fs.readFileSync(path.join(ws, target), 'utf8'), dry.text);
    const check = await mcp.data('check', { paths: [target] });
    assert.deepEqual(check.summary, { files: 1, errors: 0, warnings: 0, information: 0, hints: 0 });
    // Clean text with no fix to apply is written as given.
    const clean = await mcp.data('fix', {
      path: 'team/.polytoken/subagents/clean.md',
      text: VALID_POLYTOKEN('clean'),
      write: true,
    });
    assert.deepEqual([clean.applied, clean.written], [[], true]);
    assert.equal(
      fs.readFileSync(path.join(ws, 'team/.polytoken/subagents/clean.md'), 'utf8'),
      VALID_POLYTOKEN('clean'),
    );
  });

  it('every bad input is a tool error with a clear message, and the server goes on', async () => {
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ['check', { paths: ['../'] }, /^\.\.\/: outside the workspace \(the server's folder .*\); only paths inside it/],
      ['check', { paths: ['/etc/passwd'] }, /outside the workspace/],
      ['check', { paths: ['**/../../*'] }, /cannot hold `\.\.`/],
      ['check', { paths: ['missing/folder'] }, /missing\/folder: .*(no such file|ENOENT)/i],
      ['check', { paths: ['README.md'] }, /README\.md: not a definition file/],
      ['check', { paths: ['experts/*.yaml'] }, /no definition file matches this pattern/],
      ['check', { files: [{ path: 'notes/todo.md', text: 'hi' }] }, /notes\/todo\.md: not a definition file/],
      ['check', { files: [{ path: '../elsewhere/.polytoken/subagents/x.md', text: '' }] }, /outside the workspace/],
      ['check', { paths: 'not-a-list' }, /Input validation error/],
      ['check', { paths: [''] }, /Input validation error/],
      ['resolve', { path: 'README.md' }, /README\.md: not a recognized definition file/],
      [
        'resolve',
        { path: '.polytoken/agents/helper.md', text: '' },
        /^\.polytoken\/agents\/helper\.md: not a recognized definition file: it looks like a Polytoken subagent, but Polytoken reads only \*\*\/\.polytoken\/subagents\/\*\.md; move it there/,
      ],
      [
        'check',
        { files: [{ path: '.polytoken/agents/helper.md', text: '' }] },
        /^\.polytoken\/agents\/helper\.md: not a definition file by its path: it looks like a Polytoken subagent/,
      ],
      [
        'fix',
        { path: 'experts/triage-expert.json', text: '{}' },
        /looks like a Profy Expert, but Profy reads only \*\*\/\*\.expert\.json/,
      ],
      ['resolve', { path: '.subagents.yaml' }, /is the project configuration/],
      ['resolve', { path: 'experts' }, /is a folder/],
      ['resolve', {}, /Input validation error/],
      ['list_definitions', { status: 'lost' }, /Input validation error/],
      ['fix', { path: '../outside.md', text: 'x', write: true }, /outside the workspace/],
      ['fix', { path: 'README.md' }, /README\.md: not a definition file/],
      ['fix', { path: '.polytoken/subagents/absent.md' }, /absent\.md: .*(no such file|ENOENT)/i],
      ['no_such_tool', {}, /no_such_tool not found/],
    ];
    for (const [tool, args, message] of cases)
      assert.match(await mcp.error(tool, args), message, `${tool} ${JSON.stringify(args)}`);
    assert.equal(fs.existsSync(path.join(path.dirname(ws), 'outside.md')), false);
    assert.equal((await mcp.client.listTools()).tools.length, 5, 'still serving');
  });
});

describe('subagents mcp: resources and the new-subagent prompt', function () {
  this.timeout(60000);
  let ws: string;
  let mcp: McpSession;
  before(async () => {
    ws = temps.workspace({});
    mcp = await mcpSession(ws, temps.xdg);
  });
  after(() => mcp?.close());

  it("serves every rule's page and every runtime's document", async () => {
    const { resources } = await mcp.client.listResources();
    const uris = resources.map((r) => r.uri);
    const docs = path.resolve(__dirname, '../../../docs');
    const rules = fs
      .readdirSync(path.join(docs, 'rules'), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .flatMap((e) =>
        fs
          .readdirSync(path.join(docs, 'rules', e.name))
          .map((f) => `subagents://rules/${e.name}/${f.replace(/\.md$/, '')}`),
      );
    for (const uri of rules) assert.ok(uris.includes(uri), uri);
    for (const runtime of ['polytoken', 'picasso', 'profy']) {
      const uri = `subagents://runtimes/${runtime}`;
      const { contents } = await mcp.client.readResource({ uri });
      assert.equal(
        (contents[0] as { text: string }).text,
        fs.readFileSync(path.join(docs, 'runtimes', `${runtime}.md`), 'utf8'),
      );
      assert.equal(contents[0].mimeType, 'text/markdown');
    }
    const rule = await mcp.client.readResource({ uri: 'subagents://rules/profy/no-tools' });
    assert.match((rule.contents[0] as { text: string }).text, /^# profy\/no-tools/);
  });

  it('new-subagent gives, for every runtime, a skeleton that checks clean where it says to save it, and fix writes it', async () => {
    for (const runtime of ['polytoken', 'picasso', 'profy']) {
      const name = runtime === 'polytoken' ? 'release-notes' : 'release_notes';
      const { messages } = await mcp.client.getPrompt({
        name: 'new-subagent',
        arguments: { runtime, name, purpose: 'Writes the release notes: "what changed", for users.' },
      });
      const prompt = (messages[0].content as { text: string }).text;
      const saveAt = /saved at `([^`]+)`/.exec(prompt)![1];
      const skeleton = /```\w+\n([\s\S]*?)```/.exec(prompt)![1];
      assert.match(prompt, new RegExp(`subagents://runtimes/${runtime}`));
      const report = await mcp.data('check', { files: [{ path: saveAt, text: skeleton }] });
      assert.deepEqual(report.files[0].diagnostics, [], `${runtime}: ${JSON.stringify(report.files[0].diagnostics)}`);
      assert.equal((await mcp.data('fix', { path: saveAt, text: skeleton, write: true })).written, true);
      const resolved = await mcp.data('resolve', { path: saveAt });
      assert.ok(
        resolved.definitions.every((d: { status: string }) => d.status === 'loads'),
        JSON.stringify(resolved),
      );
    }
    assert.match(
      await mcp.client
        .getPrompt({ name: 'new-subagent', arguments: { runtime: 'other', name: 'x', purpose: '' } })
        .then(
          () => 'accepted',
          (e: Error) => e.message,
        ),
      /runtime/,
    );
  });
});
