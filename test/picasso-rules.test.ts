/**
 * The decisions of the Picasso rules, one behaviour per test: what each message says in the
 * case its page describes, which fixes are offered and which one is preferred, the text a fix
 * writes, and what a file of the wrong shape gets. The golden fixtures pin which rule fires
 * where; these pin the branches the fixtures do not reach (docs/testing.md, mutation testing).
 */
import * as assert from 'assert';
import type { Diagnostic } from 'vscode-languageserver-types';
import { defaultLoadedConfig } from '../shared/config/config';
import { analyze } from '../shared/engine';
import { fixPlansFor } from '../shared/fixes/registry';
import { newDefinition as picassoNewDefinition } from '../shared/dialects/picasso/new-definition';
import type { Skeleton } from '../shared/features/kit/new-definition';
import type { Analysis, FixPlan, WorkspaceIndex } from '../shared/types';
import { nameIndex } from '../shared/workspace/names';
import { roleText } from './support/picasso';

// Typed here: the mutation run's instrumented module widens what it infers.
const newDefinition = picassoNewDefinition as (name: string, purpose: string) => Skeleton;

const ROLE = '/ws/apps/cli/agents/security_auditor.yaml';

function analysisOf(text: string, path = ROLE, workspace?: WorkspaceIndex): Analysis {
  return analyze({ text, path, config: defaultLoadedConfig('/ws'), root: '/ws', workspace });
}

/** The diagnostics of `rule` in `text`, each with the fixes offered for it. */
function findings(text: string, rule: string, path = ROLE): { d: Diagnostic; fixes: FixPlan[] }[] {
  const analysis = analysisOf(text, path);
  return analysis.diagnostics.filter((d) => d.code === rule).map((d) => ({ d, fixes: fixPlansFor(analysis, d) }));
}

/** The one diagnostic of `rule` in `text`. */
function one(text: string, rule: string, path = ROLE) {
  const all = findings(text, rule, path);
  assert.strictEqual(
    all.length,
    1,
    `${rule} in ${JSON.stringify(text)}: ${all.map((f) => messageOf(f.d)).join(' | ')}`,
  );
  return all[0];
}

/** Each fix's title, marked `*` when preferred. */
const titles = (fixes: FixPlan[]) => fixes.map((f) => `${f.title}${f.preferred ? ' *' : ''}`);
const texts = (fix: FixPlan | undefined) => (fix?.edits ?? []).map((e) => e.newText);
const messageOf = (d: Diagnostic) => (typeof d.message === 'string' ? d.message : d.message.value);
/** What the rule put in the diagnostic's data (the engine adds the rule's id). */
const dataOf = (d: Diagnostic) => {
  const { rule: _rule, ...data } = d.data as Record<string, unknown>;
  return data;
};

/** A role that loads, with `extra` lines appended and the keys in `drop` left out. */
function role(extra: string[] = [], drop: string[] = []): string {
  return roleText(
    [
      'name: security_auditor',
      'invocation: "@security_auditor"',
      'model: claude-opus',
      'tools: [read_file]',
      'max_steps: 30',
      'max_depth: 0',
      'description: Reviews changes.',
      'when_to_use: For auth changes.',
      'output_schema: audit',
    ],
    extra,
    drop,
  );
}

describe('picasso rules: unknown-key', () => {
  it('renames onto `tools` only as an offer: it would grant what the role was not granted', () => {
    const granting = one(role(['allowed_tools: [grep]'], ['tools']), 'picasso/unknown-key');
    assert.deepStrictEqual(titles(granting.fixes), ['Rename to `tools`', 'Remove `allowed_tools`']);
    const harmless = one(role(['desc: Reviews.'], ['description']), 'picasso/unknown-key');
    assert.deepStrictEqual(titles(harmless.fixes), ['Rename to `description` *', 'Remove `desc`']);
  });
});

describe('picasso rules: markdown-body', () => {
  const MD = '/ws/.picasso/agents/security_auditor.md';
  const withBody = (body: string, extra: string[] = []) => `---\n${role(extra)}---\n${body}`;

  it('moves the body as written: its first line kept, blank lines inside emptied, blank lines at the end dropped', () => {
    const text = withBody('# Title\nLine two\n   \nLast\n\n\n');
    const { d, fixes } = one(text, 'picasso/markdown-body', MD);
    // Where the body's text starts (its first non-blank character) and ends.
    assert.deepStrictEqual(dataOf(d), { bodyStart: text.indexOf('# Title'), bodyEnd: text.length });
    assert.deepStrictEqual(titles(fixes), ['Move the body into `system_prompt` *', 'Remove the Markdown body']);
    assert.deepStrictEqual(texts(fixes[0]), ['system_prompt: |\n  # Title\n  Line two\n\n  Last\n', '']);
  });

  it('only offers to remove the body when `system_prompt` is there already', () => {
    const { fixes } = one(withBody('\nMore text.\n', ['system_prompt: Review.']), 'picasso/markdown-body', MD);
    assert.deepStrictEqual(titles(fixes), ['Remove the Markdown body']);
  });
});

describe('picasso rules: invalid-memory', () => {
  const memory = (value: string) => one(role([`memory: ${value}`]), 'picasso/invalid-memory');
  const ALLOWED = ['none', 'read-only', 'session'];

  it('suggests the scope meant; only the same scope written otherwise is a preferred fix', () => {
    const cases: [string, string, boolean][] = [
      // [written, suggested, preferred]
      ['"\\tnone"', 'none', true],
      ['R-E-A-D-O-N-L-Y', 'read-only', true],
      ['Sesion', 'session', false],
      ['"  sesion  "', 'session', false],
    ];
    for (const [written, suggested, preferred] of cases) {
      const { d, fixes } = memory(written);
      assert.match(messageOf(d), new RegExp(`did you mean \`${suggested}\`\\?$`), written);
      assert.deepStrictEqual(dataOf(d), { replacement: suggested, normalized: preferred, allowed: ALLOWED }, written);
      assert.strictEqual(fixes[0]?.preferred === true, preferred, `${written}: ${titles(fixes).join()}`);
    }
  });

  it('names the kind of a value that is not a string, and lists the scopes', () => {
    const { d } = memory('{ scope: none }');
    assert.match(messageOf(d), /^`memory` is a mapping, but Picasso only knows the scopes .*; use one of them\.$/);
    assert.deepStrictEqual(dataOf(d), { allowed: ALLOWED });
  });
});

describe('picasso rules: invalid-value', () => {
  const shape = (text: string) => one(text, 'picasso/invalid-value');

  it('says what the document is instead of a mapping; only an empty one gets the skeleton', () => {
    const cases: [string, string, string[]][] = [
      ['null\n', 'empty', ['Insert a new definition named `security_auditor`']],
      ['*x\n', 'a single value', []],
      ['42\n', 'a single number', []],
    ];
    for (const [text, what, fixes] of cases) {
      const found = shape(text);
      assert.match(
        messageOf(found.d),
        new RegExp(`^The role file is ${what}, but Picasso reads a role as a YAML mapping`),
      );
      assert.deepStrictEqual(titles(found.fixes), fixes, text);
    }
  });

  it('says which key and which schema keyword a value breaks', () => {
    const { d } = shape(role(['max_steps: 0'], ['max_steps']));
    assert.strictEqual(
      messageOf(d),
      '`max_steps` is 0, below its minimum of 1, so Picasso cannot load the role; give a whole number of 1 or more, such as `max_steps: 30`.',
    );
    assert.deepStrictEqual(dataOf(d), { key: 'max_steps', keyword: 'minimum' });
  });
});

describe('picasso rules: missing-required', () => {
  const fixesFor = (text: string, key: string, path = ROLE) => {
    const found = findings(text, 'picasso/missing-required', path).find(
      (f) => (f.d.data as { key: string }).key === key,
    );
    assert.ok(found, `missing-required for ${key}`);
    return found.fixes;
  };

  it('adds the name and handle the name fixes agree on, preferred only when there is one', () => {
    // The file's stem is the name: the handle follows it, not the name written.
    assert.deepStrictEqual(
      texts(
        fixesFor(role([], ['invocation']).replace('name: security_auditor', 'name: SecurityAuditor'), 'invocation')[0],
      ),
      ['invocation: "@security_auditor"\n'],
    );
    const named = fixesFor(role([], ['name', 'invocation']), 'name');
    assert.deepStrictEqual(titles(named), ['Add `name: security_auditor` *', 'Add every missing required key (2)']);
    // No name can be derived from `2fa`: a placeholder, not preferred.
    const unnamed = fixesFor(role([], ['name', 'invocation']), 'name', '/ws/apps/cli/agents/2fa.yaml');
    assert.deepStrictEqual(titles(unnamed), ['Add `name: my_role`', 'Add every missing required key (2)']);
    assert.deepStrictEqual(texts(unnamed[1]), ['name: my_role\ninvocation: "@my_role"\n']);
    const handles = (text: string, path?: string) => titles(fixesFor(text, 'invocation', path));
    assert.deepStrictEqual(handles(role([], ['invocation'])), ['Add `invocation: "@security_auditor"` *']);
    // Neither `2fa` is a name: the handle takes the name as written, offered only.
    const twoFa = role([], ['invocation']).replace('name: security_auditor', 'name: 2fa');
    assert.deepStrictEqual(handles(twoFa, '/ws/apps/cli/agents/2fa.yaml'), ['Add `invocation: "@2fa"`']);
  });

  it('prefers the documented defaults of the caps', () => {
    assert.deepStrictEqual(titles(fixesFor(role([], ['max_steps']), 'max_steps')), ['Add `max_steps: 30` *']);
    assert.deepStrictEqual(titles(fixesFor(role([], ['model']), 'model')), ['Add `model: default`']);
  });

  it('renames a key written under another spelling instead of adding it', () => {
    const fixes = fixesFor(role(['steps: 30'], ['max_steps']), 'max_steps');
    assert.deepStrictEqual(titles(fixes), ['Rename `steps` to `max_steps` *']);
    assert.deepStrictEqual(texts(fixes[0]), ['max_steps']);
  });

  it('a diagnostic of an earlier version: nothing for a list, the keys at the top of an empty file', () => {
    const stale = (text: string): FixPlan[] => {
      const analysis = analysisOf(text);
      const diagnostic: Diagnostic = {
        range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
        message: 'The required key `name` is missing',
        code: 'picasso/missing-required',
        data: { key: 'name' },
      };
      return fixPlansFor(analysis, diagnostic);
    };
    assert.deepStrictEqual(stale('- name: x\n'), []);
    const empty = stale('');
    assert.deepStrictEqual(titles(empty), ['Add `name: security_auditor` *', 'Add every missing required key (6)']);
    assert.deepStrictEqual(texts(empty[0]), ['name: security_auditor\n']);
    assert.deepStrictEqual(texts(empty[1]), [
      'name: security_auditor\ninvocation: "@security_auditor"\nmodel: default\ntools: [read_file]\nmax_steps: 30\nmax_depth: 0\n',
    ]);
  });
});

describe('picasso rules: the name rules', () => {
  it('an empty name is named as such', () => {
    const { d } = one(role([], ['name']).replace('invocation', 'name: ""\ninvocation'), 'picasso/name-format');
    assert.match(
      messageOf(d),
      /^An empty `name` is not a snake_case identifier .*; rename it to `security_auditor`\.$/,
    );
  });

  it('invocation-mismatch says the handle follows a name that changes too', () => {
    const text = role([], ['name', 'invocation']) + 'name: SecurityAuditor\ninvocation: "@auditor"\n';
    const { d } = one(text, 'picasso/invocation-mismatch');
    assert.match(messageOf(d), /; rename the role to `security_auditor` and write `"@security_auditor"`\.$/);
  });

  it('name-mismatch with a valid name and a file named otherwise: one rename, the file only', () => {
    const { fixes } = one(role(), 'picasso/name-mismatch', '/ws/apps/cli/agents/Security-Auditor.yaml');
    assert.deepStrictEqual(titles(fixes), ['Rename role to `security_auditor` (file) *']);
  });
});

describe('picasso rules: tools, memory-conflict and hooks', () => {
  it('memory-conflict prefers removing the tool over changing the scope', () => {
    const { fixes } = one(role(['memory: read-only', 'tools: [write_memory]'], ['tools']), 'picasso/memory-conflict');
    assert.deepStrictEqual(titles(fixes), ['Remove `write_memory` from `tools` *', 'Change memory to `session`']);
  });

  it('unknown-tool carries the entry it is about', () => {
    const { d } = one(role(['deny: [no_such_tool_at_all]']), 'picasso/unknown-tool');
    assert.strictEqual(dataOf(d).tool, 'no_such_tool_at_all');
  });

  it('invalid-hooks: a string far from any form says to use one; a mapping without `skip` is reported once', () => {
    assert.match(messageOf(one(role(['hooks: whatever']), 'picasso/invalid-hooks').d), /; use one of those forms\.$/);
    const { d } = one(role(['hooks:', '  other: 5']), 'picasso/invalid-hooks');
    assert.match(messageOf(d), /^`other` is not allowed under `hooks`/);
  });
});

describe('picasso rules: duplicate-role', () => {
  it('carries the other files of the project, relative to it', () => {
    const workspace = nameIndex({
      picasso: [
        { path: ROLE, name: 'security_auditor' },
        { path: '/ws/.picasso/agents/security_auditor.md', name: 'security_auditor' },
        { path: '/other/.picasso/agents/security_auditor.md', name: 'security_auditor' },
      ],
    });
    const [d] = analysisOf(role(), ROLE, workspace).diagnostics.filter((x) => x.code === 'picasso/duplicate-role');
    assert.deepStrictEqual(dataOf(d), { others: ['.picasso/agents/security_auditor.md'] });
  });
});

describe('picasso: reading the file', () => {
  it('reads a .yaml role as YAML even when it starts like frontmatter', () => {
    const codes = analysisOf(`---\n${role()}---\nmore: 1\n`).diagnostics.map((d) => d.code);
    assert.ok(codes.includes('syntax/yaml'), codes.join());
  });

  it('reads a blank .md role as an empty role, not as Markdown without frontmatter', () => {
    const codes = analysisOf('  \n\n', '/ws/.picasso/agents/security_auditor.md').diagnostics.map((d) => d.code);
    assert.deepStrictEqual(codes, ['picasso/invalid-value']);
  });
});

describe('picasso: a new definition', () => {
  it('writes the whole role, quoting a name that is not a plain word', () => {
    const skeleton = newDefinition('scout', 'Finds things.');
    assert.strictEqual(
      skeleton.text,
      [
        '---',
        'name: scout',
        'invocation: "@scout"',
        'model: default',
        'tools: [read_file, grep]',
        'max_steps: 20',
        'max_depth: 0',
        'description: "Finds things."',
        'when_to_use: When a parent needs this done.',
        'output_schema: { type: object }',
        'system_prompt: "Finds things."',
        '---',
        '',
      ].join('\n'),
    );
    assert.match(skeleton.note ?? '', /`name` is snake_case and matches the file name/);
    const names: [string, string][] = [
      ['scout.v2-b', 'name: scout.v2-b'],
      ['2fa', 'name: "2fa"'],
      ['a b', 'name: "a b"'],
    ];
    for (const [name, line] of names) assert.strictEqual(newDefinition(name, 'x').text.split('\n')[1], line, name);
  });
});
