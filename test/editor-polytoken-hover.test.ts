/**
 * The Polytoken hovers on tool entries and shorthands (what they grant now, or why nothing) and
 * the body template's names, hovers and completion.
 * test/lsp/* asks the real server the same; these run in-process, where the mutation run
 * (docs/testing.md) sees them.
 */
import * as assert from 'assert';
import { CompletionItemKind, type MarkupContent } from 'vscode-languageserver-types';
import { newTextOf as newText } from './support/editor';
import { config, def, GITHUB, polytoken } from './support/polytoken-editor';

const { items, labels, hovered, hoverText } = polytoken;
const SHORTHAND_FOOTER = 'Valid only in `tools`; `tools_deny` and `undeferred_tools` take literal names.';

describe('Polytoken editor: hovers on tool entries', () => {
  it('describes a literal name, or the name a misspelt one is near', () => {
    assert.deepStrictEqual(hovered(def('  tools: [gr‸ep]\n')), {
      text: '**grep** \u2014 Polytoken tool (built-in)\n\nSearches file contents for a pattern.\n\nBuilt into: Polytoken, Profy, Picasso',
      over: 'grep',
    });
    assert.match(
      hoverText(def('  tools_deny: [file_re‸]\n')),
      /^\*\*file_re\*\* — not in the Polytoken catalog\n\nDid you mean `file_read`\?/,
    );
    assert.match(
      hoverText(def('  undeferred_tools: [mcp__github__list_issue‸]\n')),
      /Did you mean `mcp__github__list_issues`\?/,
    );
    // Another runtime's built-in: named, and the way to declare it here.
    assert.strictEqual(
      hoverText(def('  tools: [query_mem‸ory]\n')),
      '**query_memory** — not in the Polytoken catalog\n\nIt is a built-in tool of Picasso, not of Polytoken.\n\n' +
        'Add it under `tools.polytoken` (or `mcp`) in `.subagents.yaml` if the runtime provides it.',
    );
  });

  it('says what each shorthand grants now, or why it grants nothing', () => {
    assert.deepStrictEqual(hovered(def('  tools: [tag!ALL_‸MCP]\n')), {
      text: `**tag!ALL_MCP** \u2014 Polytoken shorthand: every MCP tool\n\nExpands now to 2 tools: ${GITHUB}\n\n${SHORTHAND_FOOTER}`,
      over: 'tag!ALL_MCP',
    });
    assert.match(
      hoverText(def('  tools: [tag!A‸LL]\n')),
      /^\*\*tag!ALL\*\* — Polytoken shorthand: every catalog tool and every MCP tool\n\nExpands now to 18 tools: /,
    );
    assert.strictEqual(
      hoverText(def('  tools: [tag!ex‸ec]\n')),
      `**tag!exec** \u2014 Polytoken shorthand: every catalog tool tagged \`exec\`\n\nExpands now to 1 tool: \`shell\`\n\n${SHORTHAND_FOOTER}`,
    );
    assert.strictEqual(
      hoverText(def('  tools: [mcp__git‸hub]\n')),
      `**mcp__github** \u2014 Polytoken shorthand: every tool of the MCP server \`github\`\n\nExpands now to 2 tools: ${GITHUB}\n\n${SHORTHAND_FOOTER}`,
    );
    assert.strictEqual(
      hoverText(def('  tools: [tag!ex‸e]\n')),
      `**tag!exe** \u2014 Polytoken shorthand: every catalog tool tagged \`exe\`\n\nExpands to nothing: no catalog tool carries the tag \`exe\`.\n\nDid you mean \`tag!exec\`?\n\n${SHORTHAND_FOOTER}`,
    );
    assert.strictEqual(
      hoverText(def('  tools: [mcp__gitl‸ab]\n')),
      `**mcp__gitlab** \u2014 Polytoken shorthand: every tool of the MCP server \`gitlab\`\n\nExpands to nothing: the server \`gitlab\` is not listed under \`mcp\` in \`.subagents.yaml\`.\n\nDid you mean \`mcp__github\`?\n\n${SHORTHAND_FOOTER}`,
    );
    assert.strictEqual(
      hoverText(def('  tools: [tag!ALL_M‸CP]\n'), { config: config('') }),
      `**tag!ALL_MCP** \u2014 Polytoken shorthand: every MCP tool\n\nExpands to nothing: the catalog holds no such tool.\n\n${SHORTHAND_FOOTER}`,
    );
    assert.doesNotMatch(hoverText(def('  tools: [tag!zz‸z]\n')), /Did you mean/, 'nothing near');
  });

  it('says what a shorthand would grant where only literal names belong', () => {
    // The model expands `tools` entries only: the other lists' shorthands are expanded for the hover.
    assert.strictEqual(
      hoverText(def('  tools_deny: [mcp__git‸hub]\n')),
      `**mcp__github** \u2014 Polytoken shorthand: every tool of the MCP server \`github\`\n\nExpands now to 2 tools: ${GITHUB}\n\n${SHORTHAND_FOOTER}`,
    );
    assert.match(hoverText(def('  undeferred_tools: [tag!ex‸ec]\n')), /\n\nExpands now to 1 tool: `shell`\n\n/);
    // A tag or a server no list knows is polytoken/unknown-tool's in `tools` only: no near name elsewhere.
    assert.doesNotMatch(hoverText(def('  undeferred_tools: [tag!ex‸e]\n')), /Did you mean/);
    assert.doesNotMatch(hoverText(def('  tools_deny: [mcp__gitl‸ab]\n')), /Did you mean/);
    assert.match(hoverText(def('  tools: [mcp__gitl‸ab]\n')), /Did you mean `mcp__github`\?/);
  });

  it('reads an entry of text that does not parse', () => {
    const broken = '---\nname: triage\npolytoken:\n  tools: [file_read, tag!ex‸ec\n---\nBody.\n';
    assert.deepStrictEqual(hovered(broken), {
      text: `**tag!exec** \u2014 Polytoken shorthand: every catalog tool tagged \`exec\`\n\nExpands now to 1 tool: \`shell\`\n\n${SHORTHAND_FOOTER}`,
      over: 'tag!exec',
    });
    assert.match(
      hoverText('---\nname: triage\npolytoken:\n  tools_deny:\n    - glo‸\n  x: [\n---\n'),
      /Did you mean `glob`\?/,
    );
  });

  it('says nothing of entries of other lists, or of lists of the same name elsewhere', () => {
    for (const marked of [
      '---\nname: triage\ntools: [gr‸ep]\n---\n',
      '---\nname: triage\nother:\n  tools: [gr‸ep]\n---\n',
      def('  skills_allow: [gr‸ep]\n'),
      def('  exit_tool_schema:\n    tools: [gr‸ep]\n'),
      def('  tools:\n    extra: [gr‸ep]\n'),
    ])
      assert.doesNotMatch(hoverText(marked), /Polytoken tool|Searches file contents/, marked);
  });
});

describe('Polytoken editor: the body template', () => {
  const body = (text: string) => `---\nname: triage\n---\n${text}`;

  it('documents `prompt`, `transclude`, `raw` and `endraw` where the template reads them', () => {
    assert.deepStrictEqual(hovered(body('Task: {{ pro‸mpt }}\n')), {
      text: '**prompt** \u2014 Polytoken template\n\nThe task the calling model gave in its subagent call. Polytoken renders that task as a template first, then this body with the rendered task available as `prompt`; both render once for each clone of a counted batch.',
      over: 'prompt',
    });
    assert.deepStrictEqual(hovered(body('{{ transclude("x") }} {% raw %}{{ a }}{% endr‸aw %} {{prompt}}\n')), {
      text: '**endraw** \u2014 Polytoken template\n\nEnds a `{% raw %}` block.',
      over: 'endraw',
    });
    // Several tokens: each is found (the search is binary).
    const many = '{{ transclude("a") }} {% if x %}{{ prompt }}{% endif %} {%- r‸aw %}x{% endraw %}\n';
    assert.deepStrictEqual(hovered(body(many)), {
      text: '**raw** \u2014 Polytoken template\n\nEverything up to `{% endraw %}` is literal text: use it for a `{{ … }}` or `{% … %}` that must reach the model as written.',
      over: 'raw',
    });
    assert.deepStrictEqual(hovered(body('{{ transc‸lude("a") }} {{ prompt }}\n')), {
      text: '**transclude** \u2014 Polytoken template\n\nIncludes a prompt fragment that ships with Polytoken, for reference text several subagents share.',
      over: 'transclude',
    });
    // A tag that never closes runs to the end of the file.
    assert.strictEqual(hovered(body('Task: {{ prompt‸'))?.over, 'prompt');
    assert.strictEqual(hovered(body('Task: {{prompt‸}}'))?.over, 'prompt');
  });

  it('says nothing in text, comments, raw blocks, or of a name the template does not give', () => {
    for (const marked of [
      body('Say pro‸mpt.\n'),
      body('{# pro‸mpt #}\n'),
      body('{% raw %}Say pro‸mpt{% endraw %}\n'),
      body('{% raw %}{{ pro‸mpt }}{% endraw %}\n'),
      body('{{ constructor‸ }}\n'),
      body('{{ x‸ }}\n'),
      body('{{ prompt }}‸ after\n'),
    ])
      assert.strictEqual(hovered(marked), undefined, marked);
  });

  it('completes `prompt` right after `{{` and the block tags right after `{%`, replacing the word', () => {
    const prompt = items(body('Task: {{ pr‸om }}\n'));
    assert.deepStrictEqual(
      prompt.map((i) => [i.label, i.kind, i.detail, newText(i)]),
      [['prompt', CompletionItemKind.Variable, "the caller's rendered task", 'prompt']],
    );
    assert.deepStrictEqual(prompt[0].textEdit && 'range' in prompt[0].textEdit && prompt[0].textEdit.range, {
      start: { line: 3, character: 9 },
      end: { line: 3, character: 13 },
    });
    assert.match((prompt[0].documentation as MarkupContent).value, /^The task the calling model gave/);
    assert.deepStrictEqual(labels(body('{{-‸')), ['prompt']);
    const tags = items(body('{{ prompt }} {%+ ‸ %}\n'));
    assert.deepStrictEqual(
      tags.map((i) => [i.label, i.sortText]),
      [
        ['if', '00000if'],
        ['for', '00001for'],
        ['raw', '00002raw'],
        ['macro', '00003macro'],
        ['block', '00004block'],
        ['with', '00005with'],
        ['call', '00006call'],
        ['filter', '00007filter'],
      ],
    );
    assert.ok(
      tags.every((i) => i.kind === CompletionItemKind.Keyword),
      'keywords',
    );
    assert.match((tags[2].documentation as MarkupContent).value, /^Everything up to `\{% endraw %\}`/);
    assert.strictEqual(tags[0].documentation, undefined);
    // No space after `{%`, or several, and the word begun: the same tags.
    for (const marked of [body('{%wi‸'), body('{%-  ca‸ll %}\n')])
      assert.deepStrictEqual(labels(marked), ['if', 'for', 'raw', 'macro', 'block', 'with', 'call', 'filter'], marked);
  });

  it('completes nothing after the first word of a tag, in a comment or in a raw block', () => {
    for (const marked of [
      body('{{ x + pr‸ }}\n'),
      body('{% if x ‸ %}\n'),
      body('{{ "{{ pr‸'),
      body('{% set x = "{% ‸'),
      body('{# pr‸ #}\n'),
      body('{% raw %}{{ pr‸{% endraw %}\n'),
      body('{% raw %}{% ‸{% endraw %}\n'),
    ])
      assert.deepStrictEqual(labels(marked), [], marked);
  });
});

describe('Polytoken editor: inside exit_tool_schema', () => {
  const schema = (lines: string) => def(`  exit_tool_schema:\n${lines}`);

  it('documents JSON Schema keywords at any depth, and the payload fields under the top `properties`', () => {
    assert.match(hoverText(schema('    ty‸pe: object\n')), /^\*\*type\*\* — string\n\nThe JSON type of the value/);
    assert.match(
      hoverText(schema('    properties:\n      summary:\n        ty‸pe: string\n')),
      /^\*\*type\*\* — string/,
    );
    assert.match(hoverText(schema('    properties:\n      stat‸us:\n        type: string\n')), /^\*\*status\*\*/);
    // A field of a nested object is not the payload's own: no payload field doc, nor keyword doc.
    assert.strictEqual(
      hoverText(schema('    properties:\n      result:\n        properties:\n          stat‸us: { type: string }\n')),
      '',
    );
    // `items` is a keyword where it is a key, a field name under `properties`.
    assert.strictEqual(hoverText(schema('    properties:\n      ite‸ms: { type: array }\n')), '');
  });

  it('says nothing of the same words outside it', () => {
    assert.strictEqual(hoverText('---\nname: triage\nexit_tool_schema:\n  ty‸pe: object\n---\n'), '');
    assert.strictEqual(hoverText(def('  tools_deny:\n    ty‸pe: object\n')), '');
  });

  it('completes keywords in a schema, the payload fields under its top `properties`, nothing under a nested one', () => {
    const keywords = ['type', 'properties', 'required', 'enum', 'description', 'items', 'additionalProperties'];
    assert.deepStrictEqual(labels(schema('    ‸\n')).sort(), [...keywords].sort());
    assert.deepStrictEqual(labels(schema('    properties:\n      status:\n        ‸\n')).sort(), [...keywords].sort());
    assert.deepStrictEqual(labels(schema('    properties:\n      ‸\n')).sort(), [
      'kind',
      'outcome',
      'status',
      'success',
      'summary',
    ]);
    assert.deepStrictEqual(labels(schema('    properties:\n      result:\n        properties:\n          ‸\n')), []);
  });
});
