import * as assert from 'assert';
import * as fc from 'fast-check';
import * as path from 'path';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import { defaultLoadedConfig, parseConfig, type LoadedConfig } from '../shared/config/config';
import { analyze, resolveAnalysis } from '../shared/engine';
import type { WorkspaceIndex } from '../shared/types';
import { nameIndex } from '../shared/workspace/names';
import { fixPlansFor } from '../shared/fixes/registry';
import { withFixture } from './support/fixtures';
import { roleText } from './support/picasso';

const WS = '/ws';
const YAML_PATH = '/ws/apps/cli/agents/security_auditor.yaml';
const MD_PATH = '/ws/.picasso/agents/security_auditor.md';

function check(
  text: string,
  file = YAML_PATH,
  config: LoadedConfig = defaultLoadedConfig(WS),
  workspace?: WorkspaceIndex,
) {
  const ruleErrors: string[] = [];
  const analysis = analyze({
    text,
    path: file,
    config,
    root: WS,
    workspace,
    onRuleError: (rule, error) => ruleErrors.push(`${rule}: ${String(error)}`),
  });
  // The engine isolates rules in try/catch; a rule that throws is a bug all the same.
  assert.deepStrictEqual(ruleErrors, []);
  assert.strictEqual(analysis.kind, 'picasso');
  return { analysis, diagnostics: analysis.diagnostics, resolution: resolveAnalysis(analysis, file) };
}

function only(diagnostics: Diagnostic[], rule: string): Diagnostic[] {
  return diagnostics.filter((d) => d.code === rule);
}

/** The text a diagnostic's range covers (single-line ranges). */
function covered(text: string, d: Diagnostic): string {
  const lines = text.split('\n');
  assert.strictEqual(d.range.start.line, d.range.end.line, 'single-line range');
  return lines[d.range.start.line].slice(d.range.start.character, d.range.end.character);
}

/** A clean role; `extra` lines are appended, keys in `drop` are left out. */
function role(extra: string[] = [], drop: string[] = [], name = 'security_auditor'): string {
  return roleText(
    [
      `name: ${name}`,
      `invocation: "@${name}"`,
      'model: claude-opus',
      'description: Reviews changes for security problems.',
      'when_to_use: Dispatch for auth changes.',
      'output_schema: security-audit',
      'max_steps: 30',
      'max_depth: 0',
    ],
    extra,
    drop,
  );
}

describe('picasso: a clean role', () => {
  it('has no diagnostics and loads with its tools', () => {
    const { diagnostics, resolution } = check(role(['tools: [read_file, grep]']));
    assert.deepStrictEqual(diagnostics, []);
    const def = resolution!.definitions[0];
    assert.deepStrictEqual([def.name, def.status, def.tools], ['security_auditor', 'loads', ['grep', 'read_file']]);
    assert.deepStrictEqual(def.provenance, { grep: ['tools'], read_file: ['tools'] });
  });
});

describe('picasso: exact ranges', () => {
  it('tools-deny-overlap covers both entries, in flow and block lists', () => {
    const text = role(['tools: [read_file, edit_file]', 'deny:', '  - create_file', '  - edit_file']);
    const { diagnostics } = check(text);
    const overlap = only(diagnostics, 'picasso/tools-deny-overlap');
    assert.deepStrictEqual(
      overlap.map((d) => [d.range.start.line, d.range.start.character, d.range.end.character, covered(text, d)]),
      [
        [8, 19, 28, 'edit_file'],
        [11, 4, 13, 'edit_file'],
      ],
    );
    assert.ok(overlap.every((d) => (d.data as { removable?: boolean }).removable === true));
  });

  it('memory-conflict is on the tools entry the scope refuses and names the scope', () => {
    const text = role(['tools:', '  - read_file', '  - write_memory', 'memory: read-only']);
    const conflicts = only(check(text).diagnostics, 'picasso/memory-conflict');
    assert.strictEqual(conflicts.length, 1);
    assert.strictEqual(covered(text, conflicts[0]), 'write_memory');
    assert.deepStrictEqual(conflicts[0].range.start, { line: 10, character: 4 });
    assert.match(String(conflicts[0].message), /read-only/);
    assert.strictEqual((conflicts[0].data as { scope: string }).scope, 'read-only');
  });

  it('unknown-key covers the key and suggests the nearest; no rename onto a key that is there', () => {
    const text = role(['tools: [read_file]', 'max_step: 3'], ['max_steps']);
    const [d] = only(check(text).diagnostics, 'picasso/unknown-key');
    assert.strictEqual(covered(text, d), 'max_step');
    assert.strictEqual(d.severity, DiagnosticSeverity.Warning);
    assert.strictEqual((d.data as { replacement: string }).replacement, 'max_steps');
    const both = role(['tools: [read_file]', 'max_step: 3']);
    const [taken] = only(check(both).diagnostics, 'picasso/unknown-key');
    assert.match(String(taken.message), /did you mean `max_steps`/);
    assert.deepStrictEqual(taken.data, { rule: 'picasso/unknown-key', removable: true });
  });

  it('unknown-tool: a warning with the near name, else a hint', () => {
    const text = role(['tools: [read_fil, launch_rockets]']);
    const found = only(check(text).diagnostics, 'picasso/unknown-tool');
    assert.deepStrictEqual(
      found.map((d) => [covered(text, d), d.severity, (d.data as { replacement?: string }).replacement]),
      [
        ['read_fil', DiagnosticSeverity.Warning, 'read_file'],
        ['launch_rockets', DiagnosticSeverity.Hint, undefined],
      ],
    );
    assert.match(String(found[0].message), /read_file/);
  });

  it('unknown-tool knows tools.picasso and MCP tools from the configuration', () => {
    const config = parseConfig(
      'tools:\n  picasso: [run_tests]\nmcp:\n  github: [create_issue]\n',
      '/ws/.subagents.yaml',
      WS,
    );
    const { diagnostics } = check(role(['tools: [run_tests, mcp__github__create_issue]']), YAML_PATH, config);
    assert.deepStrictEqual(diagnostics, []);
  });

  it('name-format, name-mismatch and invocation-mismatch cover the values, with replacements', () => {
    const text = role(['tools: [read_file]'], ['name', 'invocation']).replace(
      /^/,
      'name: SecurityAuditor\ninvocation: "@auditor"\n',
    );
    const { diagnostics } = check(text);
    const [format] = only(diagnostics, 'picasso/name-format');
    const [mismatch] = only(diagnostics, 'picasso/name-mismatch');
    const [invocation] = only(diagnostics, 'picasso/invocation-mismatch');
    assert.strictEqual(covered(text, format), 'SecurityAuditor');
    assert.strictEqual((format.data as { replacement: string }).replacement, 'security_auditor');
    assert.strictEqual(mismatch.severity, DiagnosticSeverity.Warning);
    assert.deepStrictEqual(
      [(mismatch.data as any).expected, (mismatch.data as any).replacement],
      ['security_auditor', 'security_auditor'],
    );
    assert.strictEqual(covered(text, invocation), '"@auditor"');
    assert.strictEqual((invocation.data as any).expected, '@SecurityAuditor');
    // The three fixes agree on one name: each preferred one renames the role to it everywhere.
    const { analysis } = check(text);
    const preferred = [format, mismatch, invocation].map(
      (d) => fixPlansFor(analysis, d).find((p) => p.preferred)?.title,
    );
    assert.deepStrictEqual(preferred, Array(3).fill('Rename role to `security_auditor` (name, invocation)'));
  });

  it('missing-required and missing-recommended: one per key, on the first line', () => {
    const text = role(['tools: [read_file]'], ['model', 'max_depth', 'description']);
    const { diagnostics } = check(text);
    const required = only(diagnostics, 'picasso/missing-required');
    assert.deepStrictEqual(
      required.map((d) => (d.data as { key: string }).key),
      ['model', 'max_depth'],
    );
    assert.ok(
      required.every(
        (d) => d.range.start.line === 0 && d.range.end.line === 0 && d.severity === DiagnosticSeverity.Error,
      ),
    );
    const recommended = only(diagnostics, 'picasso/missing-recommended');
    assert.deepStrictEqual(
      recommended.map((d) => [(d.data as { key: string }).key, d.severity, d.range.start.line]),
      [['description', DiagnosticSeverity.Information, 0]],
    );
  });

  it('invalid-value: max_steps and max_depth bounds, on the value', () => {
    const text = role(['tools: [read_file]'], ['max_steps', 'max_depth']) + 'max_steps: 0\nmax_depth: -1\n';
    const found = only(check(text).diagnostics, 'picasso/invalid-value');
    assert.deepStrictEqual(
      found.map((d) => covered(text, d)),
      ['0', '-1'],
    );
    const ok = role(['tools: [read_file]'], ['max_steps', 'max_depth']) + 'max_steps: 1\nmax_depth: 0\n';
    assert.deepStrictEqual(check(ok).diagnostics, []);
  });

  it('invalid-memory and invalid-hooks are not reported twice by invalid-value', () => {
    const text = role(['tools: [read_file]', 'memory: readonly', 'hooks: {skip: post-act}']);
    const { diagnostics } = check(text);
    assert.deepStrictEqual(
      diagnostics.map((d) => d.code),
      ['picasso/invalid-memory', 'picasso/invalid-hooks'],
    );
    assert.strictEqual((diagnostics[0].data as { replacement: string }).replacement, 'read-only');
    assert.strictEqual(covered(text, diagnostics[1]), 'post-act');
  });

  it('markdown-body is on the first non-blank body line of a .md role', () => {
    const text = '---\n' + role(['tools: [read_file]']) + '---\n\n  \n# Instructions\nDo things.\n';
    const [d, ...rest] = check(text, MD_PATH).diagnostics;
    assert.deepStrictEqual(rest, []);
    assert.strictEqual(d.code, 'picasso/markdown-body');
    assert.strictEqual(d.severity, DiagnosticSeverity.Information);
    assert.deepStrictEqual(d.range, { start: { line: 13, character: 0 }, end: { line: 13, character: 14 } });
  });

  it('reads a .md role written as YAML throughout', () => {
    assert.deepStrictEqual(check(role(['tools: [read_file]']), MD_PATH).diagnostics, []);
  });
});

describe('picasso: resolution', () => {
  const resolve = (extra: string[]) => check(role(extra)).resolution!.definitions[0];

  it('removes deny entries', () => {
    const def = resolve(['tools: [read_file, grep, glob]', 'deny: [grep, edit_file]']);
    assert.deepStrictEqual(def.tools, ['glob', 'read_file']);
    assert.deepStrictEqual(def.removed, [{ tool: 'grep', by: 'deny' }]);
    // The overlap is an error: the role is refused at load.
    assert.strictEqual(def.status, 'rejected');
    assert.deepStrictEqual(def.reasons, ['picasso/tools-deny-overlap']);
  });

  it('memory: none refuses query_memory and write_memory', () => {
    const def = resolve(['tools: [read_file, query_memory, write_memory]', 'memory: none']);
    assert.deepStrictEqual(def.tools, ['read_file']);
    assert.deepStrictEqual(def.removed, [
      { tool: 'query_memory', by: 'memory: none' },
      { tool: 'write_memory', by: 'memory: none' },
    ]);
    assert.strictEqual(def.status, 'rejected');
    assert.deepStrictEqual(def.reasons, ['picasso/memory-conflict']);
  });

  it('memory: read-only refuses write_memory only', () => {
    const def = resolve(['tools: [query_memory, write_memory]', 'memory: read-only']);
    assert.deepStrictEqual(def.tools, ['query_memory']);
    assert.deepStrictEqual(def.removed, [{ tool: 'write_memory', by: 'memory: read-only' }]);
    assert.strictEqual(def.status, 'rejected');
  });

  it('a tool listed twice is granted, or removed, once', () => {
    const def = resolve(['tools: [read_file, grep, read_file, grep]', 'deny: [grep]']);
    assert.deepStrictEqual(def.tools, ['read_file']);
    assert.deepStrictEqual(def.removed, [{ tool: 'grep', by: 'deny' }]);
  });

  it('memory: session refuses nothing', () => {
    const def = resolve(['tools: [query_memory, write_memory, read_file]', 'memory: session']);
    assert.deepStrictEqual(def.tools, ['query_memory', 'read_file', 'write_memory']);
    assert.deepStrictEqual(def.removed, []);
    assert.strictEqual(def.status, 'loads');
    assert.strictEqual(def.reasons, undefined);
  });

  it("the status is the runtime's: display settings neither reject a loading role nor load a refused one", () => {
    const text = role(['tools: [read_file]'], [], 'auditor');
    assert.strictEqual(check(text).resolution!.definitions[0].status, 'loads');
    // A warning shown as an error is still only a warning to the runtime.
    const strict = parseConfig('rules:\n  picasso/name-mismatch: error\n', '/ws/.subagents.yaml', WS);
    const def = check(text, YAML_PATH, strict).resolution!.definitions[0];
    assert.deepStrictEqual(
      [def.name, def.status, def.reasons, def.silenced],
      ['auditor', 'loads', undefined, undefined],
    );
    // An overlap the author silences or downgrades is still refused at load, and the resolution says which rule decided it.
    const overlap = role(['tools: [read_file, grep]', 'deny: [grep]']);
    for (const rules of ['picasso/tools-deny-overlap: off', 'picasso/tools-deny-overlap: information']) {
      const quiet = check(overlap, YAML_PATH, parseConfig(`rules:\n  ${rules}\n`, '/ws/.subagents.yaml', WS))
        .resolution!.definitions[0];
      assert.deepStrictEqual(
        [quiet.status, quiet.reasons, quiet.silenced],
        ['rejected', ['picasso/tools-deny-overlap'], ['picasso/tools-deny-overlap']],
        rules,
      );
    }
    const suppressed = check(`# subagents-disable picasso/tools-deny-overlap\n${overlap}`).resolution!.definitions[0];
    assert.deepStrictEqual([suppressed.status, suppressed.silenced], ['rejected', ['picasso/tools-deny-overlap']]);
    const shown = check(overlap).resolution!.definitions[0];
    assert.deepStrictEqual([shown.status, shown.silenced], ['rejected', undefined]);
  });

  it('names the definition after the file when name is missing or not a string', () => {
    assert.strictEqual(
      check(role(['tools: [read_file]'], ['name'])).resolution!.definitions[0].name,
      'security_auditor',
    );
    assert.strictEqual(check('name: [x]\n').resolution!.definitions[0].name, 'security_auditor');
  });
});

describe('picasso: bad input never throws', () => {
  it('gives one invalid-value on the first line for a list, a scalar or an empty file', () => {
    for (const [text, file] of [
      ['- a\n- b\n', YAML_PATH],
      ['just words\n', YAML_PATH],
      ['', YAML_PATH],
      ['', MD_PATH],
      ['# only a comment\n', MD_PATH],
      ['---\n---\nbody\n', MD_PATH],
      ['42', '/ws/apps/cli/agents/x.yml'],
    ]) {
      const { diagnostics, resolution } = check(text, file);
      const values = diagnostics.filter((d) => d.code === 'picasso/invalid-value');
      assert.strictEqual(
        values.length,
        1,
        `${JSON.stringify(text)} in ${file}: ${JSON.stringify(diagnostics.map((d) => d.code))}`,
      );
      assert.strictEqual(values[0].range.start.line, 0);
      assert.ok(diagnostics.every((d) => d.code === 'picasso/invalid-value' || d.code === 'picasso/markdown-body'));
      assert.strictEqual(resolution!.definitions[0].status, 'rejected');
    }
  });

  it('survives wrong types in every key', () => {
    const text = [
      'name: 5',
      'invocation: [a]',
      'model: null',
      'tools: {a: 1}',
      'deny: 7',
      'memory: {a: b}',
      'hooks: 3',
      'max_steps: "ten"',
      'max_depth: true',
      'output_schema: [1]',
      'description: ~',
      'when_to_use: 1.5',
      'system_prompt: {x: y}',
      '? [complex, key]',
      ': value',
    ].join('\n');
    const { diagnostics, resolution } = check(text);
    assert.ok(diagnostics.length >= 12);
    assert.ok(
      diagnostics.every((d) => d.severity !== undefined && typeof d.message === 'string' && d.message.length > 10),
    );
    assert.deepStrictEqual(resolution!.definitions[0].tools, []);
  });

  it('survives arbitrary text (property test)', () => {
    const pieces = [
      'name',
      'tools',
      'deny',
      'memory',
      'hooks',
      'skip',
      ':',
      ' ',
      '\n',
      '- ',
      '[',
      ']',
      '{',
      '}',
      ',',
      '"',
      "'",
      '@',
      '---',
      '#',
      'none',
      'read-only',
      'write_memory',
      '5',
      '-1',
      '&a',
      '*a',
      '|',
      '\t',
    ];
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 60 }), fc.boolean(), (parts, md) => {
        const { resolution } = check(parts.join(''), md ? MD_PATH : YAML_PATH);
        assert.strictEqual(resolution!.definitions.length, 1);
      }),
      { numRuns: 300 },
    );
  });
});

describe('picasso: the seed example (security_auditor)', () => {
  const dir = path.resolve(__dirname, '../../test/fixtures/seeds/picasso-security-auditor');

  it('reports exactly what the document implies: description and when_to_use are missing', () => {
    withFixture(dir, (result) => {
      assert.deepStrictEqual(result.actual, result.expected);
      assert.deepStrictEqual(result.expected, [
        'apps/cli/agents/security_auditor.yaml:1 picasso/missing-recommended',
        'apps/cli/agents/security_auditor.yaml:1 picasso/missing-recommended',
      ]);
      const [report] = result.reports;
      const def = resolveAnalysis(report.analysis!, report.path)!.definitions[0];
      // tools minus deny (none of them listed) minus what read-only refuses (write_memory, not listed).
      assert.deepStrictEqual(def, {
        name: 'security_auditor',
        status: 'loads',
        tools: ['find_symbol', 'glob', 'grep', 'query_memory', 'read_file'],
        unknown: [],
        removed: [],
        provenance: {
          find_symbol: ['tools'],
          glob: ['tools'],
          grep: ['tools'],
          query_memory: ['tools'],
          read_file: ['tools'],
        },
        range: { start: { line: 0, character: 6 }, end: { line: 0, character: 22 } },
      });
    });
  });
});

describe('picasso: the rule pages', () => {
  const DOCS = path.resolve(__dirname, '../../docs/rules/picasso');
  const { RULES } = require('../shared/rules/registry') as typeof import('../shared/rules/registry');
  const fs = require('fs') as typeof import('fs');

  /** The example of a section: the file it is in, its role text, and an optional `.subagents.yaml`. */
  function example(page: string, section: 'Bad' | 'Good') {
    const body = page.split(/^## /m).find((s) => s.startsWith(`${section}\n`))!;
    const file = /In `([^`]+)`/.exec(body)![1];
    const blocks = [...body.matchAll(/```(?:yaml|markdown)\n([\s\S]*?)```/g)].map((m) => m[1]);
    const config = blocks[1] ? parseConfig(blocks[1], '/ws/.subagents.yaml', WS) : defaultLoadedConfig(WS);
    return { file: `/ws/${file}`, text: blocks[0], config };
  }

  for (const rule of RULES.filter((r) => r.group === 'picasso')) {
    it(`${rule.id}: the page exists, its bad example fires the rule and its good example is clean`, () => {
      const page = fs.readFileSync(path.join(DOCS, `${rule.id.split('/')[1]}.md`), 'utf8');
      assert.ok(page.startsWith(`# ${rule.id}\n`));
      assert.ok(page.includes(`**Default severity:** ${rule.defaultSeverity}\n`));
      for (const heading of ['## What it checks', '## Why', '## Bad', '## Good', '## How to fix', '## How to silence'])
        assert.ok(page.includes(heading), heading);
      // A role elsewhere in the project, as the page describes it: `.picasso/agents/reviewer.md`.
      const workspace = nameIndex({ picasso: [{ path: '/ws/.picasso/agents/reviewer.md', name: 'reviewer' }] });
      const bad = example(page, 'Bad');
      assert.ok(
        check(bad.text, bad.file, bad.config, workspace).diagnostics.some((d) => d.code === rule.id),
        'bad example',
      );
      const good = example(page, 'Good');
      assert.deepStrictEqual(
        check(good.text, good.file, good.config, workspace).diagnostics.map((d) => d.code),
        [],
        'good example',
      );
    });
  }
});

describe('picasso: the JSON Schema', () => {
  const schema = require('../../schemas/picasso.schema.json');
  const { ALL_KEYS } =
    require('../shared/dialects/picasso/constants') as typeof import('../shared/dialects/picasso/constants');

  it('compiles in strict mode and documents every key, without required or additionalProperties', () => {
    const Ajv = require('ajv').default;
    const ajv = new Ajv({ strict: true, strictTypes: false });
    ajv.addKeyword('markdownDescription');
    ajv.compile(schema);
    assert.deepStrictEqual(Object.keys(schema.properties).sort(), [...ALL_KEYS].sort());
    for (const [key, sub] of Object.entries<any>(schema.properties)) {
      assert.ok(typeof sub.description === 'string' && sub.description.length > 10, key);
      assert.ok(typeof sub.markdownDescription === 'string' && sub.markdownDescription.length > 10, key);
    }
    assert.strictEqual(schema.required, undefined);
    assert.strictEqual(schema.additionalProperties, undefined);
    assert.deepStrictEqual([schema.properties.max_steps.minimum, schema.properties.max_depth.minimum], [1, 0]);
  });
});

describe('picasso: the name a role should have, and its project', () => {
  const { snakeCase, targetName } =
    require('../shared/dialects/picasso/model') as typeof import('../shared/dialects/picasso/model');
  const { roleProject } =
    require('../shared/dialects/picasso/rules/duplicate-role') as typeof import('../shared/dialects/picasso/rules/duplicate-role');

  it('writes words in snake_case: camel case, acronyms, separators, leading digits', () => {
    const cases: [string, string][] = [
      ['SecurityAuditor', 'security_auditor'],
      ['HTTPServer', 'http_server'],
      ['doc--writer', 'doc_writer'],
      ['  Security  Auditor  ', 'security_auditor'],
      ['__a__', 'a'],
      ['2fa checker', 'fa_checker'],
      ['12_ab', 'ab'],
      ['v2Api', 'v2_api'],
    ];
    for (const [text, snake] of cases) assert.strictEqual(snakeCase(text), snake, text);
  });

  it('takes a valid stem, else a valid name, else the first that snake_case only re-cases', () => {
    assert.strictEqual(targetName('other_name', 'good_stem'), 'good_stem');
    assert.strictEqual(targetName('good_name', 'Bad-Stem'), 'good_name');
    assert.strictEqual(targetName('DocWriter', 'Doc Writer!'), 'doc_writer');
    // The name would lose a character: the stem, re-cased, is next.
    assert.strictEqual(targetName('2fa', 'DocWriter'), 'doc_writer');
    assert.strictEqual(targetName(undefined, '2fa_checker'), undefined, 'dropping the 2 is no rename');
    assert.strictEqual(targetName(undefined, 'Ünïcode'), undefined);
    assert.strictEqual(targetName(undefined, 'Ab'), 'ab');
  });

  it('a role belongs to the folder that holds its agents folder, else to its own folder', () => {
    assert.strictEqual(roleProject('/w/p/.picasso/agents/a.md'), '/w/p');
    assert.strictEqual(roleProject('/w/p/apps/cli/agents/a.yaml'), '/w/p');
    assert.strictEqual(roleProject('/.picasso/agents/a.md'), '/');
    assert.strictEqual(roleProject('/w/roles/a.yaml'), '/w/roles');
    assert.strictEqual(roleProject('/w/x.picasso/agents/a.md'), '/w/x.picasso/agents', 'a folder named otherwise');
    assert.strictEqual(roleProject('/w/p/apps/cli/agents/more/a.yaml'), '/w/p/apps/cli/agents/more');
  });
});

describe('picasso: the key an unknown key most likely means', () => {
  const { nearestKey, misspelledKeyFor } =
    require('../shared/dialects/picasso/rules/unknown-key') as typeof import('../shared/dialects/picasso/rules/unknown-key');
  const { parseYamlFile } = require('../shared/text/document') as typeof import('../shared/text/document');

  it('a known key written with other case, then a synonym, then the nearest absent key, then any', () => {
    assert.strictEqual(nearestKey('Tools', new Set(['tools'])), 'tools', 'a known key, even when present');
    assert.strictEqual(nearestKey('Max-Steps'), 'max_steps');
    assert.strictEqual(nearestKey('steps'), 'max_steps', 'a synonym');
    assert.strictEqual(nearestKey('Allowed-Tools'), 'tools', 'a synonym written with other separators');
    assert.strictEqual(nearestKey('deny tools'), 'deny');
    assert.strictEqual(nearestKey('max_dept', new Set(['max_depth'])), 'max_steps', 'an absent key first');
    assert.strictEqual(nearestKey('max_dept'), 'max_depth');
    assert.strictEqual(nearestKey('temperature'), undefined);
  });

  it('allows three edits past six characters, two up to six', () => {
    assert.strictEqual(nearestKey('invoctn'), 'invocation', 'seven characters, three edits');
    assert.strictEqual(nearestKey('mxstep'), undefined, 'six characters, three edits');
  });

  it('finds the misspelt key of a missing one, only while that one is missing', () => {
    const root = (text: string) => parseYamlFile(text).root!;
    assert.strictEqual(misspelledKeyFor(root('denied: [a]\nmodel: m\n'), 'deny')?.key, 'denied');
    assert.strictEqual(misspelledKeyFor(root('denied: [a]\ndeny: [b]\n'), 'deny'), undefined);
    assert.strictEqual(misspelledKeyFor(root('temperature: 1\n'), 'deny'), undefined);
    assert.strictEqual(misspelledKeyFor(root('model: m\n'), 'mode'), undefined, 'a known key is no misspelling');
  });
});
