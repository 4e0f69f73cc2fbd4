import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { defaultConfig, parseConfig, type LoadedConfig } from '../shared/config/config';
import { analyze } from '../shared/engine';
import { fixPlansFor } from '../shared/fixes/registry';
import { MAX_FILE_CHARS } from '../shared/text/limits';
import { toolDeclaration } from '../shared/config/add-tool';
import { checkPaths } from '../cli/batch/check-paths';
import { loadConfigFile } from '../shared/node/config-loader';
import type { Finding } from '../shared/types';
import { withTree } from './support/tree';

const FILE = '/ws/.subagents.yaml';

/** The README's full configuration example. */
const FULL = `files:                    # extra globs per dialect, added to the defaults
  polytoken: ["agents/*.md"]
ignore: ["test/fixtures/**"]
tools:                    # tools each runtime knows, added to its built-ins (§3)
  polytoken:
    - deploy                          # a bare name, or:
    - { name: shell, description: Runs a command., tags: [exec] }
  picasso: [run_tests]
  profy: [web_search]
mcp:                      # MCP servers and their tools, shared by every runtime
  github: [create_issue, list_issues]
polytoken:
  facetTools: [file_read, shell]  # the calling facet's tools, used when inherit_tools is true
  subagentDirs: [vendor/agents]   # extra discovery folders, in order
  globalDir: ~/.config/polytoken/subagents
profy:
  mainTools: [read, grep]         # main agent toolset for Expert files that declare none
  builtinSubagents: [general]     # platform builtin subagent names (they come first)
rules:                    # per-rule severity: off | error | warning | information | hint
  polytoken/unknown-tool: off
`;

/** A complete Picasso role granting one tool. */
const testWriter = (tool: string) =>
  `name: test_writer\ninvocation: "@test_writer"\nmodel: m\ndescription: d\nwhen_to_use: w\noutput_schema: s\ntools: [${tool}]\nmax_steps: 3\nmax_depth: 0\n`;

/** checkPaths in `dir`, with no global folder or home configuration leaking in. */
const checkIn = (dir: string, paths: string[]) =>
  checkPaths(paths, { cwd: dir, stopAt: dir, env: { HOME: dir, XDG_CONFIG_HOME: path.join(dir, 'x') } });

function parse(text: string): LoadedConfig {
  return parseConfig(text, FILE, '/ws');
}

/** The text each finding's range covers. */
function covered(text: string, f: Finding): string {
  const lines = text.split('\n');
  const { start, end } = f.range;
  if (start.line !== end.line) return lines.slice(start.line, end.line + 1).join('\n');
  return lines[start.line].slice(start.character, end.character);
}

/** A configuration without the names it mentions while it has errors (`mentioned`), for comparisons. */
function settings(loaded: LoadedConfig) {
  const { mentioned: _mentioned, ...rest } = loaded.config;
  return rest;
}

/**
 * Parses a broken configuration: only config/invalid errors, and in force exactly what
 * `validPart` configures (every invalid part dropped; the defaults when nothing is left).
 */
function broken(text: string, validPart = ''): Finding[] {
  const loaded = parse(text);
  assert.ok(loaded.findings.length > 0, `no finding for ${JSON.stringify(text)}`);
  assert.ok(loaded.findings.every((f) => f.rule === 'config/invalid'));
  const expected = parse(validPart);
  assert.deepStrictEqual(expected.findings, []);
  assert.deepStrictEqual(settings(loaded), settings(expected));
  assert.strictEqual(loaded.path, FILE);
  return loaded.findings.filter((f) => f.severity !== 'warning');
}

describe('config: parsing the full example', () => {
  it('gives every value of the README example', () => {
    const loaded = parse(FULL);
    assert.deepStrictEqual(loaded.findings, []);
    const c = loaded.config;
    assert.deepStrictEqual(c.files, { polytoken: ['agents/*.md'] });
    assert.deepStrictEqual(c.ignore, ['test/fixtures/**']);
    assert.deepStrictEqual(c.tools.polytoken, [
      { name: 'deploy', tags: [] },
      { name: 'shell', description: 'Runs a command.', tags: ['exec'] },
    ]);
    assert.deepStrictEqual(c.tools.picasso, [{ name: 'run_tests', tags: [] }]);
    assert.deepStrictEqual(c.tools.profy, [{ name: 'web_search', tags: [] }]);
    assert.deepStrictEqual(c.mcp, { github: ['create_issue', 'list_issues'] });
    assert.deepStrictEqual(c.sections.polytoken, {
      facetTools: ['file_read', 'shell'],
      subagentDirs: ['vendor/agents'],
      globalDir: '~/.config/polytoken/subagents',
    });
    assert.deepStrictEqual(c.sections.profy, { mainTools: ['read', 'grep'], builtinSubagents: ['general'] });
    assert.deepStrictEqual(c.rules, { 'polytoken/unknown-tool': 'off' });
  });

  it('treats an empty file or one with only comments as the defaults, without findings', () => {
    for (const text of ['', '# nothing yet\n', '~\n']) {
      const loaded = parse(text);
      assert.deepStrictEqual(loaded.findings, []);
      assert.deepStrictEqual(loaded.config, defaultConfig());
    }
  });
});

describe('config: each kind of breakage', () => {
  it('bad YAML: on the parser error, defaults in force', () => {
    const text = 'ignore: []\nignore: [a]\n';
    const [f] = broken(text);
    assert.strictEqual(f.range.start.line, 1);
    assert.match(f.message, /not valid YAML/);
    assert.match(f.message, /defaults/);
  });

  it('a list or scalar root: one finding on the first line', () => {
    for (const text of ['- tools\n- rules\n', 'just words\n', '42\n']) {
      const findings = broken(text);
      assert.strictEqual(findings.length, 1);
      assert.deepStrictEqual([findings[0].range.start.line, findings[0].range.end.line], [0, 0]);
      assert.match(findings[0].message, /must be a mapping/);
    }
  });

  it('wrong types: on the offending value', () => {
    const text = 'ignore: 5\nmcp:\n  github: create_issue\npolytoken:\n  facetTools: [file_read, 7]\n';
    assert.deepStrictEqual(
      broken(text, 'polytoken:\n  facetTools: [file_read]\n').map((f) => covered(text, f)),
      ['5', 'create_issue', '7'],
    );
  });

  it('wrong types under a key holding `~` or `/` (escaped in the schema path): on the value', () => {
    const text = 'mcp:\n  a~b/c: 5\n  ok: [x]\n';
    assert.deepStrictEqual(
      broken(text, 'mcp:\n  ok: [x]\n').map((f) => [covered(text, f), f.message]),
      [
        [
          '5',
          '`mcp.a~b/c` must be a list, so this part is ignored (the rest of the configuration applies) until it is fixed.',
        ],
      ],
    );
  });

  it('a null value: on its key', () => {
    const text = 'tools:\n  picasso:\n';
    const [f] = broken(text);
    assert.strictEqual(covered(text, f), 'picasso');
    assert.match(f.message, /`tools.picasso` must be a list/);
  });

  it('unknown keys: on the key, with the nearest known key', () => {
    const text = 'tols:\n  picasso: [x]\nfiles:\n  picaso: ["a/*.yaml"]\npolytoken:\n  zzz: 1\n';
    const findings = broken(text);
    assert.deepStrictEqual(
      findings.map((f) => covered(text, f)),
      ['tols', 'picaso', 'zzz'],
    );
    assert.deepStrictEqual(
      findings.map((f) => f.data?.replacement),
      ['tools', 'picasso', undefined],
    );
    assert.match(findings[2].message, /facetTools/);
  });

  it('a tool entry without a name: one finding on the entry, not a second "must be a string"', () => {
    const text = 'tools:\n  profy:\n    - { description: Searches. }\n';
    const findings = broken(text, 'tools:\n  profy: []\n');
    assert.strictEqual(findings.length, 1);
    assert.strictEqual(covered(text, findings[0]), '{ description: Searches. }');
    assert.match(findings[0].message, /needs a `name` key/);
  });

  it('rules: a malformed id on its key, a bad severity on its value with the nearest', () => {
    const text = 'rules:\n  Bad Rule: off\n  picasso/unknown-tool: warn\n';
    const findings = broken(text);
    assert.deepStrictEqual(
      findings.map((f) => covered(text, f)),
      ['Bad Rule', 'warn'],
    );
    assert.strictEqual(findings[1].data?.replacement, 'warning');
  });

  it("a wrong severity's suggestion: ESLint's spellings and values within two edits, never a far guess", () => {
    const text =
      'rules:\n  picasso/unknown-tool: 2\n  picasso/unknown-key: info\n  picasso/name-format: Eror\n  picasso/deny: loud\n';
    const findings = broken(text).filter((f) => f.message.includes('must be off'));
    assert.deepStrictEqual(
      findings.map((f) => [covered(text, f), f.data?.replacement]),
      [
        ['2', 'error'],
        ['info', 'information'],
        ['Eror', 'error'],
        ['loud', undefined],
      ],
    );
  });

  it('an unknown but well-formed rule id is a warning and the rest of the file applies', () => {
    const text = 'rules:\n  picasso/unknwn-key: off\n  picasso/unknown-tool: off\n';
    const loaded = parse(text);
    assert.strictEqual(loaded.findings.length, 1);
    const [f] = loaded.findings;
    assert.deepStrictEqual(
      [f.rule, f.severity, covered(text, f), f.data?.replacement],
      ['config/invalid', 'warning', 'picasso/unknwn-key', 'picasso/unknown-key'],
    );
    assert.deepStrictEqual(loaded.config.rules, { 'picasso/unknwn-key': 'off', 'picasso/unknown-tool': 'off' });
  });

  it('an invalid part is dropped and every valid part applies, per key and per list entry', () => {
    const text =
      'rulez:\n  x: off\ntools:\n  polytoken: [ok, 42]\n  picasso: run_tests\nmcp:\n  github: [create_issue]\n';
    const loaded = parse(text);
    assert.deepStrictEqual(
      loaded.findings.map((f) => covered(text, f)),
      ['rulez', '42', 'run_tests'],
    );
    assert.ok(
      loaded.findings.every((f) => /this part is ignored \(the rest of the configuration applies\)/.test(f.message)),
    );
    assert.deepStrictEqual(loaded.config.tools, { polytoken: [{ name: 'ok', tags: [] }] });
    assert.deepStrictEqual(loaded.config.mcp, { github: ['create_issue'] });
  });

  it('while the configuration has errors, no did-you-mean rewrites a tool it mentions, even in a dropped part', () => {
    const definition = (tools: string) =>
      `---\nname: helper\ndescription: Helps.\npolytoken:\n  tools: [${tools}]\n---\nHelp.\n`;
    const path = '/ws/.polytoken/subagents/helper.md';
    const titles = (configText: string, tools: string) => {
      const analysis = analyze({ text: definition(tools), path, config: parse(configText) });
      const d = analysis.diagnostics.find((x) => x.code === 'polytoken/unknown-tool');
      assert.ok(d, `no unknown-tool finding with ${JSON.stringify(configText)}`);
      return fixPlansFor(analysis, d).map((p) => p.title);
    };
    // `tols` is not a key: the part declaring file_raed is dropped, so file_raed is unknown, but it is no misspelling to correct.
    const guarded = titles('tols:\n  polytoken: [file_raed]\n', 'file_raed');
    assert.ok(!guarded.some((t) => t.includes('file_read')), guarded.join(' | '));
    // A name the configuration does not mention still gets its suggestion; so does any, once it is valid.
    assert.ok(titles('tols:\n  polytoken: [other]\n', 'file_raed').some((t) => t.includes('file_read')));
    assert.ok(titles('ignore: []\n', 'file_raed').some((t) => t.includes('file_read')));
  });

  it('an unreadable file: reported on itself, defaults in force', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-config-'));
    try {
      const folder = path.join(dir, 'not-a-file.yaml');
      fs.mkdirSync(folder);
      const loaded = loadConfigFile(folder, {});
      assert.strictEqual(loaded.findings.length, 1);
      assert.strictEqual(loaded.findings[0].rule, 'config/invalid');
      assert.match(loaded.findings[0].message, /cannot be read/);
      assert.deepStrictEqual(loaded.config, defaultConfig());
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('config: the engine and the checker', () => {
  it('analyze reports config/invalid on .subagents.yaml with the default severity, unless silenced', () => {
    const text = 'ignore: 5\n';
    const loaded = parse(text);
    const { kind, diagnostics } = analyze({ text, path: FILE, config: loaded });
    assert.strictEqual(kind, 'config');
    assert.deepStrictEqual(
      diagnostics.map((d) => [d.code, d.severity, d.range.start.line, d.source]),
      [['config/invalid', DiagnosticSeverity.Error, 0, 'subagents']],
    );
    const warned = 'rules:\n  picasso/nope: off\n';
    assert.deepStrictEqual(
      analyze({ text: warned, path: FILE, config: parse(warned) }).diagnostics.map((d) => [
        d.severity,
        d.range.start.line,
      ]),
      [[DiagnosticSeverity.Warning, 1]],
    );
    const silenced = 'rules:\n  # subagents-disable-next-line config/invalid\n  picasso/nope: off\n';
    assert.deepStrictEqual(analyze({ text: silenced, path: FILE, config: parse(silenced) }).diagnostics, []);
  });

  it('a configuration too large to parse is not searched for directives: its comment cannot hide that it is refused', () => {
    const text = `# subagents-disable\n${'#'.repeat(MAX_FILE_CHARS)}\n`;
    const { diagnostics } = analyze({ text, path: FILE, config: parse('') });
    assert.deepStrictEqual(
      diagnostics.map((d) => [d.code, d.range.start.line]),
      [['config/invalid', 0]],
    );
    assert.match(String(diagnostics[0].message), /too large|MB/);
  });

  it('declaring an MCP tool splits its name as the runtimes do, a configured server first', () => {
    assert.deepStrictEqual(toolDeclaration('picasso', 'mcp__my__srv__lookup', ['my__srv']), {
      section: 'mcp',
      key: 'my__srv',
      value: 'lookup',
    });
    assert.deepStrictEqual(toolDeclaration('picasso', 'mcp__my__srv__lookup', []), {
      section: 'mcp',
      key: 'my',
      value: 'srv__lookup',
    });
    assert.deepStrictEqual(toolDeclaration('polytoken', 'run_audit', []), {
      section: 'tools',
      key: 'polytoken',
      value: 'run_audit',
    });
    assert.strictEqual(
      toolDeclaration('polytoken', 'mcp__github', ['github']),
      undefined,
      'a whole server is no single tool',
    );
  });

  it('check lists a broken configuration and checks definitions with the defaults', () => {
    withTree(
      {
        '.subagents.yaml': 'tools:\n  picasso: run_tests\n',
        'apps/cli/agents/test_writer.yaml': testWriter('run_tests'),
      },
      (dir) => {
        const run = checkIn(dir, ['.']);
        const byFile = run.files.map((f) => [
          path.relative(dir, f.path),
          f.kind,
          f.diagnostics.map((d) => `${d.range.start.line}:${String(d.code)}`),
        ]);
        assert.deepStrictEqual(byFile, [
          ['.subagents.yaml', 'config', ['1:config/invalid']],
          ['apps/cli/agents/test_writer.yaml', 'picasso', ['6:picasso/unknown-tool']],
        ]);
        assert.deepStrictEqual(run.ioErrors, []);
      },
      'subagents-config-',
    );
  });

  it('check reports an unreadable configuration on itself, not as an I/O error', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-config-'));
    const config = path.join(dir, '.subagents.yaml').replace(/\\/g, '/');
    // Permissions do not stop root, so the read itself is made to fail.
    const realFs = require('fs') as typeof fs;
    const open = realFs.openSync;
    try {
      fs.writeFileSync(config, 'ignore: []\n');
      (realFs as any).openSync = (file: fs.PathLike, ...rest: unknown[]) => {
        if (String(file).replace(/\\/g, '/') === config)
          throw Object.assign(new Error('EACCES: permission denied'), { code: 'EACCES' });
        return (open as any)(file, ...rest);
      };
      const run = checkPaths(['.'], { cwd: dir, stopAt: dir, env: { HOME: dir } });
      assert.deepStrictEqual(run.ioErrors, []);
      assert.deepStrictEqual(
        run.files.map((f) => [
          f.kind,
          f.diagnostics.map((d) => [d.code, d.severity, String(d.message).includes('permission denied')]),
        ]),
        [['config', [['config/invalid', DiagnosticSeverity.Error, true]]]],
      );
    } finally {
      (realFs as any).openSync = open;
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('config: the rule page', () => {
  it('exists, and its bad example is reported while its good example is clean', () => {
    const page = fs.readFileSync(path.resolve(__dirname, '../../docs/rules/config/invalid.md'), 'utf8');
    assert.ok(page.startsWith('# config/invalid\n'));
    const block = (section: string) =>
      /```yaml\n([\s\S]*?)```/.exec(page.split(/^## /m).find((s) => s.startsWith(`${section}\n`))!)![1];
    assert.deepStrictEqual(
      parse(block('Bad')).findings.map((f) => f.range.start.line),
      [1, 3],
    );
    assert.deepStrictEqual(parse(block('Good')).findings, []);
  });
});

describe('config: a broken configuration above the checked paths', () => {
  it('is listed by check, with the definitions checked under the defaults', () => {
    withTree(
      { '.subagents.yaml': '- not\n- a mapping\n', 'apps/cli/agents/test_writer.yaml': testWriter('read_file') },
      (dir) => {
        const run = checkIn(dir, ['apps']);
        assert.deepStrictEqual(
          run.files.map((f) => [
            path.relative(dir, f.path),
            f.diagnostics.map((d) => `${d.range.start.line}:${String(d.code)}`),
          ]),
          [
            ['.subagents.yaml', ['0:config/invalid']],
            ['apps/cli/agents/test_writer.yaml', []],
          ],
        );
      },
      'subagents-config-',
    );
  });
});

describe('config: bad input never throws', () => {
  it('any text gives a configuration, and only valid parts in force whatever the errors (property test)', () => {
    const fc = require('fast-check') as typeof import('fast-check');
    const pieces = [
      'files',
      'ignore',
      'tools',
      'mcp',
      'polytoken',
      'profy',
      'rules',
      'picasso',
      'name',
      'tags',
      'facetTools',
      'picasso/unknown-key',
      'off',
      'loud',
      ':',
      ' ',
      '\n',
      '  ',
      '- ',
      '[',
      ']',
      '{',
      '}',
      ',',
      '"',
      '5',
      '~',
      '&a',
      '*a',
      '#',
      '---',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 50 }), (parts) => {
        const loaded = parse(parts.join(''));
        assert.ok(loaded.findings.every((f) => f.rule === 'config/invalid' && f.range.start.line >= 0));
        const c = loaded.config;
        const strings = (v: unknown) => Array.isArray(v) && v.every((x) => typeof x === 'string');
        assert.ok(strings(c.ignore) && typeof c.rules === 'object');
        assert.ok(Object.values(c.files).every(strings), JSON.stringify(c.files));
        assert.ok(Object.values(c.mcp).every(strings), JSON.stringify(c.mcp));
        assert.ok(
          Object.values(c.tools).every((list) => list!.every((t) => typeof t.name === 'string' && strings(t.tags))),
          JSON.stringify(c.tools),
        );
        assert.ok(
          Object.values(c.rules).every((v) => ['off', 'error', 'warning', 'information', 'hint'].includes(v)),
          JSON.stringify(c.rules),
        );
        if (!loaded.findings.some((f) => f.severity !== 'warning')) assert.strictEqual(c.mentioned, undefined);
      }),
      { numRuns: 400 },
    );
  });
});
