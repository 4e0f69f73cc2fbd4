/**
 * The Polytoken editor features as the engine answers them (the server only moves these): tool
 * entries and shorthands, status values and the frontmatter block in completion, the status
 * values' hovers, the shorthands' inlay hints and the faded removed tools.
 * test/editor-polytoken-hover.test.ts and -rename.test.ts hold the other hovers and F2.
 * test/lsp/* asks the real server the same; these run in-process, where the mutation run
 * (docs/testing.md) sees them.
 */
import * as assert from 'assert';
import {
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  InsertTextFormat,
  type MarkupContent,
} from 'vscode-languageserver-types';
import { inlayHints } from '../shared/features/inlay-hints';
import { removedToolDiagnostics } from '../shared/features/removed-tools';
import { newTextOf as newText, type At } from './support/editor';
import { CONFIG, config, def, GITHUB, polytoken } from './support/polytoken-editor';

const { at, items, labels, hovered, hoverText } = polytoken;
const FAMILIES =
  'success: `success`, `ok`, `done`, `completed`; failure: `failure`, `failed`, `error`; cancelled: `cancelled`, `canceled`, `cancel`';

describe('Polytoken editor: completion in the tool lists', () => {
  const LITERALS = [
    'glob',
    'grep',
    'progress_update',
    'job_status',
    'job_result',
    'job_cancel',
    'job_block',
    'list_jobs',
    'tool_search',
    'subagent',
    'skill',
    'message_subagent',
    'shell',
    'mcp__github__create_issue',
    'mcp__github__list_issues',
  ];

  it('offers in `tools` the catalog after its shorthands, without what is listed, `exit_tool` or `switch_facet`', () => {
    const offered = items(def('  tools: [file_read, ‸]\n'));
    assert.deepStrictEqual(
      offered.map((i) => i.label),
      [...LITERALS, 'tag!ALL', 'tag!ALL_MCP', 'tag!exec', 'mcp__github'],
    );
    // Literal names sort after the shorthands, in catalog order (file_read, listed, was the 100th).
    assert.strictEqual(offered[0].sortText, '00101glob');
    assert.strictEqual(offered[0].kind, CompletionItemKind.Function);
    assert.strictEqual(offered[0].detail, 'Finds files whose paths match a glob pattern.');
    const shorthands = offered
      .slice(LITERALS.length)
      .map((i) => [i.label, i.kind, i.detail, i.sortText, (i.documentation as MarkupContent).value]);
    assert.deepStrictEqual(shorthands, [
      [
        'tag!ALL',
        CompletionItemKind.Constant,
        'every catalog and MCP tool',
        '00000tag!ALL',
        'Expands now to 18 tools: `exit_tool`, `file_read`, `glob`, `grep`, `job_block`, `job_cancel`, `job_result`, `job_status`, `list_jobs`, `mcp__github__create_issue`, `mcp__github__list_issues`, `message_subagent`, `progress_update`, `shell`, `skill`, `subagent`, `switch_facet`, `tool_search`',
      ],
      [
        'tag!ALL_MCP',
        CompletionItemKind.Constant,
        'every MCP tool',
        '00001tag!ALL_MCP',
        `Expands now to 2 tools: ${GITHUB}`,
      ],
      [
        'tag!exec',
        CompletionItemKind.Constant,
        'every tool tagged exec',
        '00002tag!exec',
        'Expands now to 1 tool: `shell`',
      ],
      [
        'mcp__github',
        CompletionItemKind.Module,
        'every tool of MCP server github',
        '00003mcp__github',
        `Expands now to 2 tools: ${GITHUB}`,
      ],
    ]);
    // A denied tool may still be granted (the deny list wins at load); only `undeferred_tools` leaves it out.
    assert.ok(labels(def('  tools: [‸]\n  tools_deny: [grep]\n')).includes('grep'));
  });

  it('completes keys in a frontmatter not closed yet (the text after `---` is its YAML)', () => {
    const offered = labels('---\nname: triage\ndesc‸');
    assert.ok(offered.includes('description'), offered.join());
    assert.deepStrictEqual(labels('no frontmatter\ndesc‸'), []);
  });

  it("offers the tags of the configuration's tools once each, sorted", () => {
    const yaml = `${CONFIG}    - { name: zap, tags: [zeta, exec] }\n    - { name: apt, tags: [alpha] }\n`;
    const tags = labels(def('  tools: [‸]\n'), { config: config(yaml) }).filter((l) => l.startsWith('tag!'));
    assert.deepStrictEqual(tags, ['tag!ALL', 'tag!ALL_MCP', 'tag!alpha', 'tag!exec', 'tag!zeta']);
  });

  it('on the empty line below a block list, a new entry: `- ` written and typed before the name', () => {
    const [first] = items(def('  tools:\n    - file_read\n    ‸\n'));
    assert.deepStrictEqual([first.label, newText(first), first.filterText], ['glob', '- glob', '- glob']);
    // After a dash the dash is already there.
    const [after] = items(def('  tools:\n    - file_read\n    - ‸\n'));
    assert.deepStrictEqual([after.label, newText(after), after.filterText], ['glob', 'glob', undefined]);
  });

  it('offers in `tools_deny` the deniable literal names only, granted ones in catalog order', () => {
    const offered = items(def('  tools: [file_read]\n  tools_deny: [glob, ‸]\n'));
    assert.deepStrictEqual(
      offered.map((i) => [i.label, i.sortText]),
      [
        ['file_read', '00000file_read'],
        ['grep', '00002grep'],
        ['message_subagent', '00003message_subagent'],
        ['shell', '00004shell'],
        ['mcp__github__create_issue', '00005mcp__github__create_issue'],
        ['mcp__github__list_issues', '00006mcp__github__list_issues'],
      ],
    );
  });

  it('offers in `undeferred_tools` literal names, what `tools` grants first and never what is denied', () => {
    const offered = items(def('  tools: [file_read, grep]\n  tools_deny: [glob]\n  undeferred_tools: [‸]\n'));
    const sorts = Object.fromEntries(offered.map((i) => [i.label, i.sortText]));
    assert.strictEqual(sorts.file_read, '000-1file_read');
    assert.strictEqual(sorts.grep, '000-1grep');
    assert.strictEqual(sorts.progress_update, '00002progress_update');
    assert.ok(!('glob' in sorts) && !('exit_tool' in sorts) && !('switch_facet' in sorts), Object.keys(sorts).join());
    assert.ok(!Object.keys(sorts).some((l) => l.startsWith('tag!') || l === 'mcp__github'), Object.keys(sorts).join());
    // The granted ones come first once sorted the way an editor sorts them.
    const first = [...offered].sort((a, b) => (a.sortText! < b.sortText! ? -1 : 1)).slice(0, 2);
    assert.deepStrictEqual(
      first.map((i) => i.label),
      ['file_read', 'grep'],
    );
  });

  it('offers nothing in a list of the same name elsewhere, or in a list that holds no tools', () => {
    for (const marked of [
      '---\nname: triage\ntools: [‸]\n---\n',
      '---\nname: triage\nother:\n  tools: [‸]\n---\n',
      def('  exit_tool_schema:\n    tools: [‸]\n'),
      def('  tools:\n    extra: [‸]\n'),
      def('  skills_allow: [‸]\n'),
    ])
      assert.deepStrictEqual(labels(marked), [], marked);
  });

  it('offers keys and values through the key documentation', () => {
    const keys = labels(def('  tools: [grep]\n  ‸\n'));
    assert.ok(keys.includes('tools_deny') && keys.includes('inherit_tools'), keys.join());
    assert.ok(!keys.includes('tools'), 'a key already there');
    assert.deepStrictEqual(labels(def('  inherit_tools: ‸\n')), ['true', 'false']);
    const name = items('---\nname: ‸\n---\n', { path: '/w/.polytoken/subagents/review-bot.md' });
    assert.deepStrictEqual(
      name.map((i) => [i.label, i.kind, i.detail, i.preselect]),
      [['review-bot', CompletionItemKind.Value, 'the file name', true]],
    );
  });
});

describe('Polytoken editor: status values', () => {
  const schema = (lines: string) => def(`  exit_tool_schema:\n    type: object\n    properties:\n${lines}`);
  const RECOGNIZED = [
    ['success', 'success (recognized status)', '00000success'],
    ['done', 'success (recognized status)', '00002done'],
    ['completed', 'success (recognized status)', '00003completed'],
    ['failure', 'failure (recognized status)', '00000failure'],
    ['failed', 'failure (recognized status)', '00001failed'],
    ['error', 'failure (recognized status)', '00002error'],
    ['cancelled', 'cancelled (recognized status)', '00000cancelled'],
    ['canceled', 'cancelled (recognized status)', '00001canceled'],
    ['cancel', 'cancelled (recognized status)', '00002cancel'],
  ];

  it("completes each classified field's enum with the families' values not listed yet", () => {
    for (const field of ['kind', 'outcome', 'status']) {
      const offered = items(schema(`      ${field}:\n        enum: [ok, ‸]\n`));
      assert.deepStrictEqual(
        offered.map((i) => [i.label, i.detail, i.sortText]),
        RECOGNIZED,
        field,
      );
      assert.ok(
        offered.every((i) => i.kind === CompletionItemKind.EnumMember),
        field,
      );
    }
  });

  it("completes no other enum: another field, another keyword, a nested object's field, outside `polytoken`", () => {
    for (const marked of [
      schema('      colour:\n        enum: [‸]\n'),
      schema('      status:\n        examples: [‸]\n'),
      schema('      result:\n        type: object\n        properties:\n          status:\n            enum: [‸]\n'),
      def('  exit_tool_schema:\n    patternProperties:\n      status:\n        enum: [‸]\n'),
      def('  other:\n    properties:\n      status:\n        enum: [‸]\n'),
      schema('      status:\n        enum: [[‸]]\n'),
      '---\nname: triage\nother:\n  exit_tool_schema:\n    properties:\n      status:\n        enum: [‸]\n---\n',
    ])
      assert.deepStrictEqual(labels(marked), [], marked);
  });

  it('says on hover which family a value is in (compared lower-cased), or that it cannot be classified', () => {
    assert.deepStrictEqual(hovered(schema('      kind:\n        enum: [bogus, O‸K]\n')), {
      text: `**OK** \u2014 recognized status: Polytoken classifies it as **success**.\n\nFamilies (compared lower-cased): ${FAMILIES}.`,
      over: 'OK',
    });
    assert.match(hoverText(schema('      outcome:\n        enum: [Fail‸ed]\n')), /classifies it as \*\*failure\*\*\./);
    assert.match(hoverText(schema('      status:\n        enum: [canc‸el]\n')), /classifies it as \*\*cancelled\*\*\./);
    assert.deepStrictEqual(hovered(schema('      status:\n        enum: [ok, bog‸us]\n')), {
      text: `**bogus** \u2014 unrecognized status: Polytoken cannot classify it, rejects an exit that uses it and makes the model retry.\n\nUse a value of the families (${FAMILIES}) or add a \`success\` boolean property.`,
      over: 'bogus',
    });
  });

  it('says nothing of status values in an enum Polytoken does not classify', () => {
    for (const marked of [
      schema('      colour:\n        enum: [bog‸us]\n'),
      schema('      status:\n        enum: [[bog‸us]]\n'),
      def('  other:\n    properties:\n      status:\n        enum: [bog‸us]\n'),
      schema(
        '      result:\n        type: object\n        properties:\n          status:\n            enum: [bog‸us]\n',
      ),
      '---\nname: triage\nother:\n  exit_tool_schema:\n    properties:\n      status:\n        enum: [bog‸us]\n---\n',
    ])
      assert.doesNotMatch(hoverText(marked), /status/, marked);
  });
});

describe('Polytoken editor: the frontmatter block', () => {
  const SKELETON =
    '---\nname: review-bot\ndescription: ${1:what it does and when to use it}\npolytoken:\n  tools: [${2:file_read, glob, grep}]\n---\n$0';
  const BOT = { path: '/w/.polytoken/subagents/review-bot.md' };

  it('offers the whole frontmatter, named after the file, on the first line of a file without one', () => {
    const [item, ...rest] = items('‸', BOT);
    assert.deepStrictEqual(rest, []);
    assert.deepStrictEqual(
      [item.label, item.kind, item.detail, item.insertTextFormat, newText(item)],
      ['frontmatter', CompletionItemKind.Snippet, 'Polytoken subagent frontmatter', InsertTextFormat.Snippet, SKELETON],
    );
    // What is typed on the line is replaced.
    const typed = items('fr‸', BOT)[0];
    assert.deepStrictEqual(typed.textEdit && 'range' in typed.textEdit && typed.textEdit.range, {
      start: { line: 0, character: 0 },
      end: { line: 0, character: 2 },
    });
    // A client without snippets gets the plain text.
    const plain = items('‸', BOT, { snippets: false })[0];
    assert.strictEqual(plain.insertTextFormat, InsertTextFormat.PlainText);
    assert.strictEqual(
      newText(plain),
      '---\nname: review-bot\ndescription: what it does and when to use it\npolytoken:\n  tools: [file_read, glob, grep]\n---\n',
    );
  });

  it('offers it nowhere else: below the first line, or before a frontmatter', () => {
    assert.deepStrictEqual(labels('Notes\n‸'), []);
    assert.deepStrictEqual(labels('‸---\nname: triage\n---\nBody.\n'), []);
    assert.deepStrictEqual(labels('---\nname: triage\n---\nBody ‸\n'), []);
  });
});

describe('Polytoken editor: inlay hints and removed tools', () => {
  const hints = (marked: string, where?: At, lines?: [number, number, number, number]) => {
    const { analysis } = at(marked, where);
    const [l0, c0, l1, c1] = lines ?? [0, 0, 99, 0];
    return inlayHints(analysis, { start: { line: l0, character: c0 }, end: { line: l1, character: c1 } }).map((h) => [
      h.position.line,
      h.position.character,
      h.label,
      (h.tooltip as MarkupContent).value,
    ]);
  };

  it('counts after each shorthand of `tools` what it grants now, with the list or the reason in the tooltip', () => {
    const text = def('  tools: [file_read, tag!exec, mcp__nope, tag!ALL_MCP]\n  tools_deny: [tag!exec]\n');
    assert.deepStrictEqual(hints(text), [
      [4, 29, '\u2192 1 tool', '**tag!exec**\n\nExpands now to 1 tool: `shell`'],
      [
        4,
        40,
        '\u2192 no tool',
        '**mcp__nope**\n\nExpands to nothing: the server `nope` is not listed under `mcp` in `.subagents.yaml`.',
      ],
      [4, 53, '\u2192 2 tools', `**tag!ALL_MCP**\n\nExpands now to 2 tools: ${GITHUB}`],
    ]);
    assert.deepStrictEqual(hints(def('  tools: [tag!ALL_MCP]\n'), { config: config('') }), [
      [4, 21, '\u2192 no tool', '**tag!ALL_MCP**\n\nExpands to nothing: the catalog holds no such tool.'],
    ]);
    // Only the hints that end in the range asked for (the visible part).
    assert.deepStrictEqual(
      hints(text, undefined, [4, 29, 4, 52]).map((h) => h[1]),
      [29, 40],
    );
  });

  it('fades a literal `tools` entry that `tools_deny` takes away, and nothing else', () => {
    const { analysis, text } = at(
      def('  tools: [file_read, grep, tag!exec, mcp__github]\n  tools_deny: [grep, tag!exec, mcp__github, glob]\n'),
    );
    const faded = removedToolDiagnostics(analysis);
    assert.deepStrictEqual(
      faded.map((d) => [
        d.message,
        text.split('\n')[d.range.start.line].slice(d.range.start.character, d.range.end.character),
        d.severity,
        d.tags,
      ]),
      [
        [
          '`grep` is granted here, then removed by `tools_deny`.',
          'grep',
          DiagnosticSeverity.Hint,
          [DiagnosticTag.Unnecessary],
        ],
      ],
    );
  });
});
