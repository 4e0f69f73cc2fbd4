// Polytoken's tool-list rules in detail: each message's wording per case, and the fixes each
// finding offers (which one is preferred), with MCP servers and catalog tags configured.
import * as assert from 'assert';
import type { Diagnostic } from 'vscode-languageserver-types';
import { analyze, resolveAnalysis } from '../shared/engine';
import { polytokenSettings } from '../shared/dialects/polytoken/settings';
import { polytokenKeys } from '../shared/dialects/polytoken/keys';
import { yamlString } from '../shared/dialects/polytoken/util';
import { newDefinition } from '../shared/dialects/polytoken/new-definition';
import type { Skeleton } from '../shared/features/kit/new-definition';
import { fixPlansFor } from '../shared/fixes/registry';
import { parseConfig } from '../shared/config/config';
import { applyFixes } from '../shared/fixes/apply';
import { nameIndex } from '../shared/workspace/names';

const CONFIG = parseConfig(
  'mcp:\n  github: [create_issue, list_issues]\n  empty: []\ntools:\n  polytoken:\n    - { name: shell, tags: [exec] }\n',
  '/ws/.subagents.yaml',
  '/ws',
);
const def = (poly: string) => `---\nname: triage\ndescription: Reads an issue.\npolytoken:\n${poly}---\nBody.\n`;

/** The titles of the fixes a finding offers, `*` marking the preferred one. */
const fixTitlesOf = (analysis: ReturnType<typeof analyze>, d: Diagnostic) =>
  fixPlansFor(analysis, d).map((p) => `${p.title}${p.preferred ? ' *' : ''}`);

/** `rule | message | fix titles` for each finding, in order. */
function findings(poly: string): string[] {
  const analysis = analyze({
    text: def(poly),
    path: '/ws/.polytoken/subagents/triage.md',
    config: CONFIG,
    root: '/ws',
  });
  return analysis.diagnostics.map((d) => {
    const fixes = fixTitlesOf(analysis, d);
    return `${d.code} | ${String(d.message)} | ${fixes.join('; ')}`;
  });
}

const REJECTS = 'and without `inherit_tools: true` or a shorthand in `tools` Polytoken rejects such a definition';

describe('polytoken rules: undeferred tools', () => {
  it('an undeferred tool `tools` does not grant: remove it (preferred), or add it to `tools`', () => {
    assert.deepStrictEqual(findings('  tools: [grep]\n  undeferred_tools: [file_read]\n'), [
      `polytoken/undeferred-not-granted | \`file_read\` is undeferred but \`tools\` does not grant it, ${REJECTS}; add \`file_read\` to \`tools\`, or remove it from \`undeferred_tools\`. | Remove \`file_read\` from \`undeferred_tools\` *; Add \`file_read\` to \`tools\``,
    ]);
  });

  it('`exit_tool` undeferred: only removing it, since `tools` may not list it', () => {
    assert.deepStrictEqual(findings('  tools: [grep]\n  undeferred_tools: [exit_tool]\n'), [
      `polytoken/undeferred-not-granted | \`exit_tool\` is undeferred but \`tools\` does not grant it, ${REJECTS}; \`exit_tool\` may not be listed in \`tools\`, so remove it from \`undeferred_tools\`. | Remove \`exit_tool\` from \`undeferred_tools\` *`,
    ]);
  });

  it('an empty `tools` grants nothing; a `tools` of the wrong type is left to invalid-value', () => {
    const empty = findings('  tools:\n  undeferred_tools: [file_read]\n');
    assert.deepStrictEqual(
      empty.map((f) => f.split(' | ')[0]),
      ['polytoken/invalid-value', 'polytoken/undeferred-not-granted'],
    );
    const mapping = findings('  tools: {a: b}\n  undeferred_tools: [file_read]\n');
    assert.deepStrictEqual(
      mapping.map((f) => f.split(' | ')[0]),
      ['polytoken/invalid-value'],
    );
  });

  it('denied and undeferred at once: both entries reported; the undeferred one goes by default', () => {
    const fixes = 'Remove `grep` from `undeferred_tools` *; Remove `grep` from `tools_deny`';
    assert.deepStrictEqual(findings('  tools: [grep]\n  tools_deny: [grep]\n  undeferred_tools: [grep]\n'), [
      `polytoken/deny-undeferred-conflict | \`grep\` is denied here and also listed in \`undeferred_tools\`, and Polytoken rejects a definition that does both; remove it from one of the two lists. | ${fixes}`,
      `polytoken/deny-undeferred-conflict | \`grep\` is undeferred here and also listed in \`tools_deny\`, and Polytoken rejects a definition that does both; remove it from one of the two lists. | ${fixes}`,
    ]);
  });
});

describe('polytoken rules: literal lists', () => {
  it('a server shorthand in `tools_deny`: expanded when the server has tools, else only an offer to remove', () => {
    const message = (server: string, example: string) =>
      `polytoken/mcp-shorthand-in-deny | \`mcp__${server}\` denies a whole MCP server, which Polytoken does not accept in \`tools_deny\` and rejects the definition; deny each tool by its full name, such as \`${example}\`.`;
    assert.deepStrictEqual(findings('  tools_deny: [mcp__github, mcp__empty]\n'), [
      `${message('github', 'mcp__github__create_issue')} | Expand \`mcp__github\` into 2 tool names *; Remove \`mcp__github\` from \`tools_deny\``,
      `${message('empty', 'mcp__empty__<tool>')} | Remove \`mcp__empty\` from \`tools_deny\``,
    ]);
  });

  it('a tag in `undeferred_tools`: expanded, or removed when it stands for nothing the list may hold', () => {
    const [expand] = findings('  tools: [tag!exec, grep]\n  undeferred_tools: [tag!exec]\n');
    assert.match(
      expand,
      /^polytoken\/tag-in-literal-list \| .* \| Expand `tag!exec` into 1 tool name \*; Remove `tag!exec` from `undeferred_tools`$/,
    );
    const denied = findings('  tools: [tag!exec]\n  tools_deny: [shell]\n  undeferred_tools: [tag!exec]\n');
    assert.ok(
      denied.some((f) =>
        /^polytoken\/tag-in-literal-list \| .* \| Remove `tag!exec` from `undeferred_tools` \*$/.test(f),
      ),
      denied.join('\n'),
    );
  });

  it('a server shorthand of a server `mcp` does not list: the example names the server', () => {
    assert.deepStrictEqual(findings('  tools: [grep]\n  tools_deny: [mcp__nope]\n'), [
      'polytoken/mcp-shorthand-in-deny | `mcp__nope` denies a whole MCP server, which Polytoken does not accept in `tools_deny` and rejects the definition; deny each tool by its full name, such as `mcp__nope__<tool>`. | Remove `mcp__nope` from `tools_deny`',
    ]);
  });

  it('a tag in `tools_deny` expands to what may be denied: no undeniable tool, nothing `undeferred_tools` holds', () => {
    const config = parseConfig(
      'tools:\n  polytoken:\n    - { name: shell, tags: [exec] }\n    - { name: runner, tags: [exec] }\n    - { name: job_status, tags: [exec] }\n',
      '/ws/.subagents.yaml',
      '/ws',
    );
    const expanded = (poly: string) => {
      const analysis = analyze({ text: def(poly), path: '/ws/.polytoken/subagents/triage.md', config, root: '/ws' });
      const [d] = analysis.diagnostics.filter((x) => x.code === 'polytoken/tag-in-literal-list');
      const [plan] = fixPlansFor(analysis, d).filter((p) => p.preferred);
      return applyFixes(def(poly), [{ rule: String(d.code), plan }]).text.match(/tools_deny:.*$/m)?.[0];
    };
    assert.equal(expanded('  tools: [grep]\n  tools_deny: [tag!exec]\n'), 'tools_deny: [shell, runner]');
    assert.equal(
      expanded('  tools: [shell, runner, grep]\n  tools_deny: [tag!exec]\n  undeferred_tools: [runner]\n'),
      'tools_deny: [shell]',
    );
  });

  it('an undeniable tool in `tools_deny`: removed by default', () => {
    const [undeniable] = findings('  tools_deny: [exit_tool]\n');
    assert.match(undeniable, /^polytoken\/undeniable-tool \| .* \| Remove `exit_tool` from `tools_deny` \*$/);
  });
});

describe('polytoken rules: the name added where there is none', () => {
  /** The text after the preferred fix of missing-name, and the codes left after it. */
  function named(text: string): { fixed: string; left: unknown[] } {
    const at = { path: '/ws/.polytoken/subagents/triage.md', config: CONFIG, root: '/ws' };
    const analysis = analyze({ text, ...at });
    const d = analysis.diagnostics.find((x) => x.code === 'polytoken/missing-name');
    assert.ok(d, text);
    const plan = fixPlansFor(analysis, d).find((p) => p.preferred);
    assert.ok(plan, text);
    const fixed = applyFixes(text, [{ rule: String(d.code), plan }]).text;
    return { fixed, left: analyze({ text: fixed, ...at }).diagnostics.map((x) => x.code) };
  }

  it('a frontmatter that reads as null (`~`, `null`, an anchor or tag alone): the name takes its place', () => {
    for (const [text, fixed] of [
      ['---\n~\n---\nBody.\n', '---\nname: triage\n---\nBody.\n'],
      ['---\n# first\nnull # later\n---\nBody.\n', '---\n# first\nname: triage # later\n---\nBody.\n'],
      ['---\n&a\n---\nBody.\n', '---\nname: triage\n---\nBody.\n'],
      ['---\n!!null null\n---\nBody.\n', '---\nname: triage\n---\nBody.\n'],
      ['---\n# only a comment\n---\nBody.\n', '---\nname: triage\n# only a comment\n---\nBody.\n'],
    ]) {
      const after = named(text);
      assert.equal(after.fixed, fixed, text);
      assert.ok(
        !after.left.includes('polytoken/missing-name') && !after.left.some((c) => String(c).startsWith('syntax/')),
        `${text}: ${after.left.join(', ')}`,
      );
    }
  });

  it('an empty frontmatter with a syntax error: the error is reported, no missing name on top', () => {
    const at = { path: '/ws/.polytoken/subagents/triage.md', config: CONFIG, root: '/ws' };
    for (const text of ['---\n&a &b\n---\nB\n', '---\n&\n---\nB\n'])
      assert.deepStrictEqual(
        analyze({ text, ...at }).diagnostics.map((d) => d.code),
        ['syntax/yaml'],
        text,
      );
  });

  it('a flow frontmatter gets it inside its braces; a block `name :` with a space keeps its colon', () => {
    assert.equal(named('---\n{description: x}\n---\nB\n').fixed, '---\n{name: triage, description: x}\n---\nB\n');
    assert.equal(named('---\n{}\n---\nB\n').fixed, '---\n{name: triage}\n---\nB\n');
    assert.equal(
      named('---\nname :\n  - a\ndescription: x\n---\nB\n').fixed,
      '---\nname : triage\ndescription: x\n---\nB\n',
    );
  });
});

describe('polytoken rules: unknown tools', () => {
  it('says what was not found, in each list, with the nearest name when there is one', () => {
    const lines = findings(
      '  tools: [tag!nope, tag!exex, mcp__githb, mcp__nope, mcp__nope__x]\n  tools_deny: [file_raed]\n  undeferred_tools: [zzzzzz]\n',
    ).filter((f) => f.startsWith('polytoken/unknown-tool'));
    const ADD = 'add the server and its tools under `mcp` if it exists.';
    assert.deepStrictEqual(
      lines.map((f) => f.replace('polytoken/unknown-tool | ', '')),
      [
        'No tool in the catalog carries the tag `nope`, so `tag!nope` grants nothing; fix the tag, or give tools that tag under `tools.polytoken` in .subagents.yaml. | ',
        'No tool in the catalog carries the tag `exex`, so `tag!exex` grants nothing; did you mean `tag!exec`? | Change to `tag!exec`',
        '`githb` is not an MCP server listed under `mcp` in .subagents.yaml, so `mcp__githb` expands to no tool here; did you mean `mcp__github`? | Change to `mcp__github`',
        `\`nope\` is not an MCP server listed under \`mcp\` in .subagents.yaml, so \`mcp__nope\` expands to no tool here; ${ADD} | `,
        `\`nope\` is not an MCP server listed under \`mcp\` in .subagents.yaml, so \`mcp__nope__x\` names no known tool; ${ADD} | `,
        '`file_raed` is not a tool the catalog knows, so this denial will likely remove nothing; did you mean `file_read`? | Change to `file_read`',
        '`zzzzzz` is not a tool the catalog knows, so undeferring it will likely have no effect; check the spelling, or if it exists, add it to `tools.polytoken` (or `mcp`) in .subagents.yaml. | ',
      ],
    );
  });
});

describe('polytoken rules: name, frontmatter shape, unknown keys', () => {
  const FILE = '/ws/.polytoken/subagents/triage.md';
  const analysisOf = (text: string) => analyze({ text, path: FILE, config: CONFIG, root: '/ws' });

  /** Each finding as `rule | message | data`, and the text once its preferred fix is applied. */
  function judged(text: string): { found: string[]; fixed: (string | undefined)[] } {
    const analysis = analysisOf(text);
    const { diagnostics } = analysis;
    const found = diagnostics.map((d) => {
      const { rule: _rule, ...data } = d.data as Record<string, unknown>;
      return `${d.code} | ${String(d.message)} | ${JSON.stringify(data)}`;
    });
    const fixed = diagnostics.map((d) => {
      const plan = fixPlansFor(analysis, d).find((p) => p.preferred);
      return plan && applyFixes(text, [{ rule: String(d.code), plan }]).text;
    });
    return { found, fixed };
  }
  const fixTitles = (text: string) => {
    const analysis = analysisOf(text);
    return analysis.diagnostics.map((d) => fixTitlesOf(analysis, d));
  };

  it('an empty frontmatter: only missing-name, which adds the name', () => {
    assert.deepStrictEqual(judged('---\n---\nBody.\n'), {
      found: [
        'polytoken/missing-name | The frontmatter is empty, so Polytoken finds no `name` and will not load this subagent; add `name: triage`, a `description` and a `polytoken` mapping. | {"expected":"triage"}',
      ],
      fixed: ['---\nname: triage\n---\nBody.\n'],
    });
  });

  it('a blank name, a name left empty, a name that is a block mapping: each is set', () => {
    const blank = judged('---\nname: "  "\n---\n');
    assert.match(
      blank.found[0],
      /^polytoken\/missing-name \| `name` is an empty string, not a name, .* \| \{"expected":"triage"\}$/,
    );
    assert.deepStrictEqual(blank.fixed, ['---\nname: "triage"\n---\n']);
    assert.deepStrictEqual(judged('---\nname:\ndescription: x\n---\n').fixed, [
      '---\nname: triage\ndescription: x\n---\n',
    ]);
    const block = judged('---\nname:\n  a: b\n\ndescription: x\n---\n');
    assert.match(block.found[0], /`name` is not a string, not a name/);
    assert.deepStrictEqual(block.fixed, ['---\nname: triage\n\ndescription: x\n---\n']);
    assert.deepStrictEqual(judged('---\nname:\n  - a\ndescription: x\n---\n').fixed, [
      '---\nname: triage\ndescription: x\n---\n',
    ]);
  });

  it('no name: added before the first key, or inside the braces of a flow mapping', () => {
    const missing = judged('---\ndescription: x\n---\n');
    assert.match(
      missing.found[0],
      /^polytoken\/missing-name \| The frontmatter has no `name`, .* \| \{"expected":"triage"\}$/,
    );
    assert.deepStrictEqual(missing.fixed, ['---\nname: triage\ndescription: x\n---\n']);
    assert.deepStrictEqual(judged('---\n{description: x}\n---\n').fixed, [
      '---\n{name: triage, description: x}\n---\n',
    ]);
    assert.deepStrictEqual(judged('---\n{}\n---\n').fixed, ['---\n{name: triage}\n---\n']);
  });

  it('a mismatched name: set it, or rename the file unless the name cannot be a file name', () => {
    assert.deepStrictEqual(fixTitles('---\nname: review\n---\n'), [
      ['Set name to `triage` *', 'Rename the file to `review.md`'],
    ]);
    assert.deepStrictEqual(fixTitles('---\nname: a/b\n---\n'), [['Set name to `triage` *']]);
    assert.match(judged('---\nname: review\n---\n').found[0], /\| \{"replacement":"triage","expected":"triage"\}$/);
  });

  it('what is not a mapping, and which consequence each value has', () => {
    assert.match(
      judged('---\n- a\n---\n').found[0],
      /^polytoken\/invalid-value \| The frontmatter is a list, not a mapping of keys/,
    );
    assert.match(judged('---\nname: triage\npolytoken: 3\n---\n').found[0], /cannot read any setting from it/);
    assert.match(
      judged('---\nname: triage\ndescription: [x]\n---\n').found[0],
      /^polytoken\/invalid-value \| .*, so Polytoken cannot read the definition with this value;/,
    );
  });

  it('a Polytoken setting at the top level is told to move; a misspelt key gets the nearest one', () => {
    assert.match(
      judged('---\nname: triage\ntools: [grep]\n---\n').found[0],
      /sits at the top level.* \| \{"moveTo":"polytoken"\}$/,
    );
    // Long keys are compared with a wider distance: a quarter of their length.
    assert.match(judged('---\nname: triage\ndescriptionxyz: x\n---\n').found[0], /did you mean `description`\?/);
    assert.match(
      judged('---\nname: triage\npolytoken:\n  description: x\n---\n').found[0],
      /`description` is not a key Polytoken knows under `polytoken`/,
    );
  });

  it('renames that would grant tools are offered, not preferred', () => {
    assert.deepStrictEqual(
      fixTitles('---\nname: triage\npolytoken:\n  tool: [grep]\n  allow_subagent_spawnn: true\n  modle: x\n---\n'),
      [
        ['Rename to `tools`', 'Remove `tool`'],
        ['Rename to `allow_subagent_spawn`', 'Remove `allow_subagent_spawnn`'],
        ['Rename to `model` *', 'Remove `modle`'],
      ],
    );
  });
});

describe('polytoken: resolution details, settings, scalars, the new-definition skeleton', () => {
  const FILE = '/ws/.polytoken/subagents/triage.md';
  const resolved = (text: string, config = CONFIG) => {
    const resolution = resolveAnalysis(analyze({ text, path: FILE, config, root: '/ws' }), FILE);
    assert.ok(resolution);
    return resolution.definitions[0];
  };

  it('a shorthand that expands to nothing is listed once as unexpanded', () => {
    const d = resolved('---\nname: triage\npolytoken:\n  tools: [tag!nope, grep, tag!nope, mcp__nope]\n---\n');
    assert.deepStrictEqual(d.unexpanded, ['tag!nope', 'mcp__nope']);
    assert.deepStrictEqual(d.tools, ['exit_tool', 'grep']);
  });

  it('the definition’s range is its name, or the first line when the name is empty', () => {
    const named = resolved('---\nname: triage\n---\n');
    assert.deepStrictEqual(named.range, { start: { line: 1, character: 6 }, end: { line: 1, character: 12 } });
    const empty = resolved('---\nname: ""\n---\n');
    assert.deepStrictEqual(empty.range, { start: { line: 0, character: 0 }, end: { line: 0, character: 3 } });
  });

  it('without a `polytoken` section the settings are empty: inherit_tools inherits nothing', () => {
    assert.deepStrictEqual(polytokenSettings(CONFIG.config), {
      facetTools: [],
      subagentDirs: [],
      globalDir: undefined,
    });
    const d = resolved('---\nname: triage\npolytoken:\n  inherit_tools: true\n---\n');
    assert.deepStrictEqual(d.tools, ['exit_tool']);
  });

  it('a file stem is written plain only when YAML reads it back as that string', () => {
    const cases: [string, string][] = [
      ['triage', 'triage'],
      ['a.b-c_d', 'a.b-c_d'],
      ['_x', '_x'],
      ['nope', 'nope'],
      ['sky', 'sky'],
      ['123', '"123"'],
      ['-abc', '"-abc"'],
      ['abc def', '"abc def"'],
      ['yes', '"yes"'],
      ['Off', '"Off"'],
      ['n', '"n"'],
    ];
    assert.deepStrictEqual(
      cases.map(([stem]) => [stem, yamlString(stem)]),
      cases,
    );
  });

  it('while the frontmatter YAML does not parse, only the syntax error is reported', () => {
    const text = '---\nname: review\ndescriptoin: [x\npolytoken:\n  tools: [zzz]\n  undeferred_tools: [grep]\n---\n';
    const analysis = analyze({ text, path: FILE, config: CONFIG, root: '/ws' });
    assert.deepStrictEqual(
      analysis.diagnostics.map((d) => d.code),
      ['syntax/yaml'],
    );
  });

  it('a new definition: its path, a name written plain or quoted, and a body that passes every rule', () => {
    // Typed as the module says: in the mutation run's sandbox the instrumented function infers `| undefined`.
    const skeleton = newDefinition('triage', 'Sorts issues.\nBy label.') as Skeleton;
    assert.strictEqual(skeleton.path, '.polytoken/subagents/triage.md');
    assert.strictEqual(
      skeleton.text,
      '---\nname: triage\ndescription: "Sorts issues. By label."\npolytoken:\n  tools: [file_read, grep]\n---\nYou are a subagent. Your task:\n\n{{ prompt }}\n',
    );
    assert.match(skeleton.note ?? '', /`name` must equal the file name.*`\{\{ prompt \}\}` is the caller's task/);
    const nameLine = (name: string) => (newDefinition(name, 'x') as Skeleton).text.split('\n')[1];
    assert.deepStrictEqual(['1st', 'a b', 'x-', 'triage.v2', 'b1', '-x'].map(nameLine), [
      'name: "1st"',
      'name: "a b"',
      'name: x-',
      'name: triage.v2',
      'name: b1',
      'name: "-x"',
    ]);
    const analysis = analyze({ text: skeleton.text, path: FILE, config: CONFIG, root: '/ws' });
    assert.deepStrictEqual(analysis.diagnostics, []);
  });
});

describe('polytoken/shadowed: which definition wins', () => {
  const ROOT = '/ws';
  const VENDOR = `${ROOT}/vendor/triage.md`;
  const loaded = () => parseConfig('polytoken:\n  subagentDirs: [vendor]\n', `${ROOT}/.subagents.yaml`, ROOT);
  const shadowedBy = (paths: string[], path = VENDOR, text = '---\nname: triage\n---\n') => {
    const workspace = nameIndex({ polytoken: paths.map((p) => ({ path: p, name: 'triage' })) });
    return analyze({ text, path, config: loaded(), root: ROOT, workspace })
      .diagnostics.filter((d) => d.code === 'polytoken/shadowed')
      .map((d) => [(d.data as Record<string, unknown>).by, d.range.start.line, d.range.start.character]);
  };

  it('of two projects that come equally late, the first by path', () => {
    const a = `${ROOT}/apps/a/.polytoken/subagents/triage.md`;
    const b = `${ROOT}/apps/b/.polytoken/subagents/triage.md`;
    assert.deepStrictEqual(shadowedBy([VENDOR, b, a]), [[a, 1, 6]]);
    assert.deepStrictEqual(shadowedBy([VENDOR, a, b]), [[a, 1, 6]]);
  });

  it('a folder Polytoken does not search, or a project outside the configuration’s folder, replaces nothing', () => {
    assert.deepStrictEqual(shadowedBy([VENDOR, `${ROOT}/other/triage.md`]), []);
    assert.deepStrictEqual(shadowedBy([VENDOR, '/elsewhere/.polytoken/subagents/triage.md']), []);
    assert.deepStrictEqual(shadowedBy([VENDOR, `${ROOT}/.polytoken/subagents/triage.md`]).length, 1);
  });

  it('on the name, or on the first line when the name is empty', () => {
    const project = `${ROOT}/.polytoken/subagents/triage.md`;
    assert.deepStrictEqual(shadowedBy([VENDOR, project], VENDOR, '---\nname: ""\n---\n'), [[project, 0, 0]]);
  });
});

describe('polytoken: bounds and defaults', () => {
  it('template-syntax reports at most 100 problems in one body', () => {
    const text = `---\nname: triage\ndescription: d\npolytoken:\n  tools: [grep]\n---\n${'{% if x %}\n'.repeat(150)}`;
    const analysis = analyze({ text, path: '/ws/.polytoken/subagents/triage.md', config: CONFIG, root: '/ws' });
    assert.equal(analysis.diagnostics.filter((d) => d.code === 'polytoken/template-syntax').length, 100);
  });

  it('a configuration without the lists has none: no facet tools, no discovery folders', () => {
    const settings = polytokenSettings(parseConfig('polytoken: {}\n', '/ws/.subagents.yaml', '/ws').config);
    assert.deepStrictEqual([settings.facetTools, settings.subagentDirs], [[], []]);
  });

  it('schema keyword docs only below `polytoken.exit_tool_schema`, not below a key of that name elsewhere', () => {
    assert.ok(polytokenKeys.docAt!(['polytoken', 'exit_tool_schema', 'type']));
    assert.strictEqual(polytokenKeys.docAt!(['other', 'exit_tool_schema', 'type']), undefined);
  });
});
