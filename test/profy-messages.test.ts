/**
 * What the Profy rules say and offer in the cases their golden fixtures leave out: the nearest
 * tool or glob an unresolved entry suggests, the key an unknown one means, the name a fix
 * proposes, the cap on `delegationPolicy`, and the lists and hints inside messages.
 */
import * as assert from 'assert';
import type { Diagnostic } from 'vscode-languageserver-types';
import { EXPERT_KEYS, SUBAGENT_KEYS } from '../shared/dialects/profy/constants';
import { suggestKey } from '../shared/dialects/profy/rules/unknown-key';
import { joinWords, nameList } from '../shared/dialects/profy/rules/util';
import { fixPlansFor } from '../shared/fixes/registry';
import { expert, of, rules, run, sub } from './support/profy';

const message = (d: Diagnostic | undefined) => String(d?.message);
const replacement = (d: Diagnostic | undefined) => (d?.data as { replacement?: string } | undefined)?.replacement;
const DROPPED = 'so Profy drops this entry without any error';

/** The unresolved-tool diagnostic of `entry`, in an Expert whose main toolset is `tools`. */
function unresolved(tools: string[], entry: string): Diagnostic | undefined {
  const { diagnostics } = run(expert([sub('s', ['read', entry])], { tools: ['read', ...tools] }));
  return of(diagnostics, 'profy/unresolved-tool')[0];
}

describe('profy/unresolved-tool: what it suggests', () => {
  it('a glob: the nearest prefix of a tool (whole names and two letters longer included, never its own)', () => {
    const cases: [string[], string, string | undefined][] = [
      [['grep', 'glob'], 'grepx*', 'grep*'],
      [['xyread_file'], 'rd*', undefined],
      [['xyledger'], 'ledg*', 'xyledg*'],
      [['abcdX', 'abcez'], 'abcd*z', 'abc*z'],
      [['grep', 'glob'], 'grp*', 'gr*'],
      [['zz'], 'zq*', undefined],
      [['undefined_tool'], 'qqq*', undefined],
    ];
    assert.deepStrictEqual(
      cases.map(([tools, entry]) => [tools, entry, replacement(unresolved(tools, entry))]),
      cases.map(([tools, entry, want]) => [tools, entry, want && JSON.stringify(want)]),
    );
    assert.strictEqual(
      message(unresolved(['zz'], 'zq*')),
      `The glob \`zq*\` matches no tool of the main agent's toolset, ${DROPPED}; fix the pattern (only \`*\` and \`?\` are special, and case counts) or remove it.`,
    );
  });

  it('a name: never a reserved tool, a tool the main agent has over a known one it lacks', () => {
    const cases: [string[], string, string][] = [
      [
        ['Task'],
        'Tsak',
        `\`Tsak\` is not in the main agent's toolset, ${DROPPED}; use a tool the main agent has, or remove the entry.`,
      ],
      // `ls` is within two edits of the empty text, but an empty entry names nothing to correct.
      [['ls'], '', `This empty entry names no tool, ${DROPPED}; remove it.`],
      [
        ['mcp__x__y'],
        'glob',
        `\`glob\` is a known tool, but the main agent's toolset does not have it, ${DROPPED}; a subagent only gets tools its main agent has, so enable the plugin that provides it on this Expert (and list it in the Expert's \`tools\`), or remove the entry.`,
      ],
      [['globs'], 'glob', `\`glob\` is not in the main agent's toolset, ${DROPPED}; did you mean \`globs\`?`],
    ];
    assert.deepStrictEqual(
      cases.map(([tools, entry]) => [tools, entry, message(unresolved(tools, entry))]),
      cases,
    );
    assert.strictEqual(replacement(unresolved(['ls'], '')), undefined);
    assert.strictEqual(replacement(unresolved(['globs'], 'glob')), '"globs"');
  });
});

describe('profy/unknown-key: the key meant', () => {
  it('same letters ignoring case, `_` and `-` first; then the nearest, within 2 edits (3 past eight letters)', () => {
    assert.strictEqual(suggestKey('SYSTEMPROMPT', SUBAGENT_KEYS), 'system_prompt');
    assert.strictEqual(suggestKey('Delegation-Brief', EXPERT_KEYS), 'delegationBrief');
    assert.strictEqual(suggestKey('abcdefgh', ['abcdeXYZ']), undefined);
    assert.strictEqual(suggestKey('abcdefghi', ['abcdefXYZ']), 'abcdefXYZ');
    // `$schema` is known (JSON editors write it), never suggested.
    assert.strictEqual(suggestKey('schema', [...EXPERT_KEYS, '$schema']), undefined);
  });

  it('without a near key the message lists the known ones, `$schema` left out', () => {
    const { diagnostics } = run(expert([sub('s', ['read'])], { zzzzzzzz: 1 }));
    assert.strictEqual(
      message(of(diagnostics, 'profy/unknown-key')[0]),
      '`zzzzzzzz` is not a key of a Profy Expert, so Profy ignores it; the known keys are `name`, `description`, `delegatable`, `delegationBrief`, `delegationPolicy`, `tools`, `subagents`.',
    );
  });

  it('a rename to `tools` is offered, not preferred: it would grant what the misspelt key did not', () => {
    const { analysis } = run(expert([sub('s', undefined, { tool: ['read'] })]));
    const d = of(analysis.diagnostics, 'profy/unknown-key')[0];
    assert.deepStrictEqual(
      fixPlansFor(analysis, d).map((p) => [p.title, !!p.preferred]),
      [
        ['Rename to `tools`', false],
        ['Remove `tool`', false],
      ],
    );
  });
});

describe('profy: names the fixes propose', () => {
  it('invalid-name: no replacement when nothing usable is left', () => {
    const { diagnostics } = run(expert([sub('<>', ['read'])]));
    const d = of(diagnostics, 'profy/invalid-name')[0];
    assert.strictEqual(replacement(d), undefined);
    assert.match(message(d), /use letters, digits, `_` and `-` only\.$/);
  });

  it('name-not-identifier: runs of other characters become one `_`, a leading `_` before a letter goes', () => {
    const names = ['a_-b', '-abc', '-1ab', 'x.y'];
    const { diagnostics } = run(expert(names.map((n) => sub(n, ['read']))));
    assert.deepStrictEqual(of(diagnostics, 'profy/name-not-identifier').map(replacement), [
      '"a_b"',
      '"abc"',
      '"_1ab"',
      '"x_y"',
    ]);
  });
});

describe('profy: lists, hints and caps in messages', () => {
  it('nameList shows eight names, then how many more; joinWords joins all', () => {
    const ten = 'abcdefghij'.split('');
    assert.strictEqual(nameList(ten), '`a`, `b`, `c`, `d`, `e`, `f`, `g`, `h` and 2 more');
    assert.strictEqual(nameList(ten.slice(0, 8)), '`a`, `b`, `c`, `d`, `e`, `f`, `g` and `h`');
    assert.strictEqual(nameList(['a']), '`a`');
    assert.strictEqual(joinWords(['a space', 'a tab', '`<`']), 'a space, a tab and `<`');
    assert.strictEqual(joinWords(['a tab']), 'a tab');
  });

  it("no-tools: the hint lists the main agent's tools, or says its toolset itself is empty", () => {
    const many = Array.from({ length: 10 }, (_, i) => `tool_${i}`);
    const listed = run(expert([sub('s', [])], { tools: many })).diagnostics;
    assert.match(message(of(listed, 'profy/no-tools')[0]), /: `tool_0`, .*`tool_7` and 2 more\.$/);
    const empty = run(expert([sub('s', ['read'])], { tools: ['Task'] })).diagnostics;
    assert.match(
      message(of(empty, 'profy/no-tools')[0]),
      /; the main agent's toolset itself is empty, so give the Expert the tools first\.$/,
    );
  });

  it('tools-not-array: a string is wrapped in a list, an empty one is not', () => {
    const { diagnostics } = run(expert([sub('s', 'read'), sub('t', '')]));
    assert.deepStrictEqual(of(diagnostics, 'profy/tools-not-array').map(replacement), ['["read"]', undefined]);
  });

  it('whitelist-cap: ten entries are fine; past them each entry is named, or called "This entry"', () => {
    const ten = Array.from({ length: 10 }, (_, i) => `expert-${i}`);
    assert.deepStrictEqual(rules(run(expert([sub('s', ['read'])], { delegationPolicy: ten })).diagnostics), []);
    const { diagnostics } = run(expert([sub('s', ['read'])], { delegationPolicy: [...ten, 'expert-10', 7] }));
    assert.deepStrictEqual(
      of(diagnostics, 'profy/whitelist-cap').map((d) => message(d).split(' of ')[0]),
      ['`expert-10` is entry 11', 'This entry is entry 12'],
    );
  });
});

describe('profy/unknown-toolset: a known toolset past the match budget', () => {
  it('globs past five million comparisons stay unchecked, and one diagnostic says so', () => {
    const tools = Array.from({ length: 2300 }, (_, i) => `t${i}`);
    const globs = Array.from({ length: 2200 }, (_, i) => `*${i}`);
    const { diagnostics, definitions } = run(expert([sub('s', globs)], { tools }));
    assert.deepStrictEqual(rules(diagnostics), ['profy/unknown-toolset']);
    assert.match(message(diagnostics[0]), /^This Expert's allowlists hold more globs against a larger toolset than/);
    // The first globs were matched; the rest are listed as not expanded.
    assert.ok(definitions[0].tools.length > 0);
    assert.ok(definitions[0].unexpanded!.length > 0 && definitions[0].unexpanded!.length < globs.length);
  });
});
