import * as assert from 'assert';
import fc from 'fast-check';
import { CASES, checkInvariants, checkRanges, loadedConfig, workspaceIndex } from './generators';
import type { FileKind } from '../../shared/types';
import { DIALECT_MODULES } from '../../shared/dialects';
import { defaultLoadedConfig } from '../../shared/config/config';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkPaths, nameOf, QUICK_NAMES } from '../../cli/batch/check-paths';
import { quickName } from '../../shared/workspace/names';
import type { ParsedFile } from '../../shared/text/document';

const polytokenName = (parsed: ParsedFile, path: string) => nameOf('polytoken', parsed, path);
const quickPolytokenName = (text: string) => quickName('polytoken', text, '')?.name;
import { SourceText } from '../../shared/text/source';
import { withTree } from '../support/tree';

/**
 * Property tests over analyze + resolveAnalysis: generated and mutated definitions of every
 * dialect (and configuration files) never throw, never make a rule throw, keep every range
 * inside the document, give the same output twice, and never grant a denied tool.
 * 2,000 cases in all; `npm run fuzz` runs the same properties a million times.
 * FC_SEED=<n> replays a run (the seed is printed on failure).
 */
const RUNS: Record<FileKind, number> = { polytoken: 650, picasso: 550, profy: 550, config: 250 };
const seed = process.env.FC_SEED ? Number(process.env.FC_SEED) : undefined;

describe('hardening: properties of analyze and resolve', function () {
  this.timeout(120_000);
  for (const kind of Object.keys(RUNS) as FileKind[]) {
    it(`${kind}: ${RUNS[kind]} generated and mutated files keep every invariant`, () => {
      fc.assert(
        fc.property(CASES[kind], loadedConfig, workspaceIndex, (c, loaded, workspace) => {
          checkInvariants(c, loaded, workspace);
        }),
        { numRuns: RUNS[kind], seed, endOnFailure: false },
      );
    });
  }

  const LINES = [
    'name: triage',
    'name: "a b"',
    "name: 'x'",
    'name: yes',
    'name: foo bar',
    'name: foo # c',
    'name:',
    'name: *a',
    'name: &a x',
    'name: [x]',
    'description: d',
    'description: "open',
    "description: 'it''s'",
    'description: |',
    'description: >-',
    'polytoken:',
    '  tools: [a, b',
    '  tools: [a, b]',
    '  - x',
    '  "',
    "  '",
    '  continued',
    '# comment',
    '',
    '---',
    '...',
    '? name',
    ': x',
    '"name": q',
    'name : z',
    '<<: *a',
    '%YAML 1.2',
    '  name: nested',
    '\tname: tab',
    'key: {a: 1}',
    'key: {a: [1, 2}]',
  ];
  const frontmatter = fc
    .tuple(
      fc.array(fc.constantFrom(...LINES), { maxLength: 8 }),
      fc.constantFrom('\n', '\r\n'),
      fc.constantFrom('---', '...', ''),
      fc.boolean(),
    )
    .map(
      ([lines, eol, close, bom]) => `${bom ? '\ufeff' : ''}---${eol}${lines.join(eol)}${eol}${close}${eol}Body${eol}`,
    );
  const polytokenText = fc.oneof(
    frontmatter,
    CASES.polytoken.map((c) => c.text),
  );

  it('the shadowing index reads a name without a parse only when a clean parse agrees', () => {
    // Found by this property: the yaml package does not break a line on a lone CR, so `\rname:` is no key of its own.
    const loneCr = '---\n\rname: triage\nextra:\n# subagents-disable-next-line\n  "       ": ""\n---\n';
    assert.strictEqual(
      polytokenName(
        DIALECT_MODULES.polytoken.parse(new SourceText(loneCr), '/ws/.polytoken/subagents/file.md'),
        '/ws/.polytoken/subagents/file.md',
      ),
      'file',
    );
    assert.strictEqual(quickPolytokenName(loneCr), undefined);
    let quick = 0;
    fc.assert(
      fc.property(polytokenText, (t) => {
        const q = quickPolytokenName(t);
        if (q === undefined) return;
        quick++;
        const parsed = DIALECT_MODULES.polytoken.parse(new SourceText(t), '/ws/.polytoken/subagents/file.md');
        if (parsed.syntax.some((f) => f.rule === 'syntax/yaml')) return; // broken files are corrected after their parse (next test)
        assert.strictEqual(q, polytokenName(parsed, '/ws/.polytoken/subagents/file.md'), JSON.stringify(t));
      }),
      { numRuns: 3000, seed },
    );
    assert.ok(quick > 30, `the quick path was taken ${quick} times`);
  });

  it('a quick name that a broken file’s parse contradicts is corrected (shadowing as with full parses)', () => {
    const broken = '---\ndescription: d\n  tools: [a, b]\nname: triage\n---\n'; // the parse loses `name`: the file registers as `broken`
    assert.strictEqual(quickPolytokenName(broken), 'triage');
    const files: Record<string, string> = {
      '.subagents.yaml': 'polytoken:\n  subagentDirs: [vendor]\n',
      'vendor/triage.md': '---\nname: triage\ndescription: d\npolytoken: {}\n---\n',
      'vendor/broken.md': '---\nname: broken\ndescription: d\npolytoken: {}\n---\n',
      '.polytoken/subagents/broken.md': broken,
    };
    withTree(
      files,
      (root) => {
        const shadowed = (workers: number) =>
          checkPaths([root], { cwd: root, noGlobal: true, workers, keepAnalysis: false })
            .files.filter((f) => f.diagnostics.some((d) => d.code === 'polytoken/shadowed'))
            .map((f) => path.relative(root, f.path));
        assert.deepStrictEqual(shadowed(0), ['vendor/broken.md']);
        assert.deepStrictEqual(shadowed(1), ['vendor/broken.md']);
        // Only vendor/triage.md analyzed (the folder around an unsaved file, the MCP server's check): the
        // broken file is not analyzed, so nothing would correct its quick name; it is parsed instead.
        const vendorTriage = path.join(root, 'vendor/triage.md');
        const subset = checkPaths([root], {
          cwd: root,
          noGlobal: true,
          workers: 0,
          keepAnalysis: false,
          analyze: (p) => p === vendorTriage,
        });
        assert.deepStrictEqual(
          subset.files.map((f) => [path.relative(root, f.path), f.diagnostics.map((d) => d.code)]),
          [['vendor/triage.md', []]],
        );
      },
      'subagents-quick-',
    );
  });

  it('checkPaths gives the same reports with and without quick names, on one thread and on two', function () {
    this.timeout(120_000);
    const NAMES = ['triage', 'x', 'a b', 'file0', 'file1', 'foo'];
    const workspace = fc.array(
      fc.tuple(
        fc.constantFrom('p/.polytoken/subagents', 'q/.polytoken/subagents', 'vendor'),
        polytokenText,
        fc.constantFrom(...NAMES),
      ),
      { minLength: 2, maxLength: 12 },
    );
    fc.assert(
      fc.property(workspace, (files) => {
        const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-quick-')));
        try {
          fs.writeFileSync(path.join(root, '.subagents.yaml'), 'polytoken:\n  subagentDirs: [vendor]\n');
          files.forEach(([dir, text, name], i) => {
            fs.mkdirSync(path.join(root, dir), { recursive: true });
            fs.writeFileSync(path.join(root, dir, `${i % 2 ? name : NAMES[i % NAMES.length]}.md`), text);
          });
          const run = (workers: number) =>
            JSON.stringify(
              checkPaths([root], { cwd: root, noGlobal: true, workers, keepAnalysis: false }).files.map((f) => [
                f.path,
                f.diagnostics,
              ]),
            );
          QUICK_NAMES.enabled = false;
          const full = run(0);
          QUICK_NAMES.enabled = true;
          assert.strictEqual(run(0), full);
          if (files.length % 3 === 0) assert.strictEqual(run(1), full); // a worker thread, its corrections sent back
          return true;
        } finally {
          QUICK_NAMES.enabled = true;
          fs.rmSync(root, { recursive: true, force: true });
        }
      }),
      { numRuns: 120, seed },
    );
  });

  it('the invariant checks can fail', () => {
    const diag = (line: number, character: number) => ({
      range: { start: { line: 0, character: 0 }, end: { line, character } },
      message: 'm',
      source: 'subagents',
      code: 'x/y',
    });
    assert.doesNotThrow(() => checkRanges('ab\r\ncd', [diag(1, 2)]));
    assert.throws(() => checkRanges('ab\r\ncd', [diag(1, 3)]), /outside/);
    assert.throws(() => checkRanges('ab\r\ncd', [diag(2, 0)]), /outside/);
    assert.throws(() => checkRanges('\ufeffab', [diag(0, 3)]), /outside/); // the BOM is not a character of the line
    // A resolver that grants a denied tool is caught.
    const module = DIALECT_MODULES.picasso;
    const original = module.resolve;
    module.resolve = (ctx, diagnostics) =>
      original(ctx, diagnostics).map((d) => ({ ...d, tools: [...d.tools, 'write_memory'].sort() }));
    try {
      const text =
        'name: code_review\ninvocation: "@code_review"\nmodel: m\ntools: [read_file]\nmax_steps: 3\nmax_depth: 0\nmemory: none\n';
      assert.throws(
        () =>
          checkInvariants(
            { kind: 'picasso', path: '/ws/apps/cli/agents/code_review.yaml', text },
            defaultLoadedConfig('/ws'),
          ),
        /memory: none denies `write_memory`/,
      );
    } finally {
      module.resolve = original;
    }
  });
});
