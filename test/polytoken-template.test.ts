// The Polytoken body template, token by token (shared/dialects/polytoken/template.ts): where each
// token starts and ends, which tags have a name, raw blocks, and every problem with its message.
import * as assert from 'assert';
import { templateProblems, tokenizeTemplate } from '../shared/dialects/polytoken/template';

/** `kind start-end`, `!` when never closed, then a statement's name and where it is. */
const shape = (text: string, base = 0) =>
  tokenizeTemplate(text, base)
    .map(
      (t) =>
        `${t.kind}${t.closed ? '' : '!'} ${t.start}-${t.end}${t.name ? ` ${t.name}@${t.nameStart}-${t.nameEnd}` : ''}` +
        `${t.rawUnterminated ? ' unterminated' : ''}${t.rawEnd ? ' rawEnd' : ''}`,
    )
    .join(' | ');

/** Each problem as the text it covers, its tag and its message. */
const problems = (text: string, base = 0) =>
  templateProblems(tokenizeTemplate(text, base), text, base).map((p) => [
    text.slice(p.start - base, p.end - base),
    p.tag,
    p.message,
  ]);

const FAILS = 'so Polytoken cannot render the prompt';

describe('Polytoken template: tokens', () => {
  const cases: [string, string][] = [
    ['{{ "}}" }}x', 'expression 0-10 | text 10-11'],
    // Inside a string only its own quote ends it.
    ['{{ "a}}" }}x', 'expression 0-11 | text 11-12'],
    ['{{ "it\'s}}" }}', 'expression 0-14'],
    ["{{ 'a\\'}}' }}", 'expression 0-13'],
    ['{{ "a\\"}}" }}', 'expression 0-13'],
    // An apostrophe that never closes does not hide the delimiter.
    ["{{ it's }} b", 'expression 0-10 | text 10-12'],
    // Comments do not skip strings.
    ['{# "#}" #}', 'comment 0-6 | text 6-10'],
    ['a { b {x} {', 'text 0-11'],
    ['{{', 'expression! 0-2'],
    ['{%- if x -%}', 'statement 0-12 if@4-6'],
    ['{%+endfor%}', 'statement 0-11 endfor@3-9'],
    ['{% 1 %}', 'statement 0-7'],
    // Only a statement is a tag with a name: `{{ raw }}` opens nothing.
    ['{{ raw }}{{ x }}', 'expression 0-9 | expression 9-16'],
    [
      '{% raw %}{{ x }}{%- endraw +%}y',
      'statement 0-9 raw@3-6 | raw 9-16 | statement 16-30 endraw@20-26 rawEnd | text 30-31',
    ],
    ['{% raw %}{% endraw %}', 'statement 0-9 raw@3-6 | statement 9-21 endraw@12-18 rawEnd'],
    ['{% raw %}', 'statement 0-9 raw@3-6 unterminated'],
    ['{% raw %}abc', 'statement 0-9 raw@3-6 unterminated | raw! 9-12'],
  ];
  for (const [text, expected] of cases) it(JSON.stringify(text), () => assert.strictEqual(shape(text), expected));

  it('offsets every token and name by the body’s start', () => {
    assert.strictEqual(
      shape('a{% raw %}b{% endraw %}c{% if x %}', 100),
      'text 100-101 | statement 101-110 raw@104-107 | raw 110-111 | statement 111-123 endraw@114-120 rawEnd | text 123-124 | statement 124-134 if@127-129',
    );
  });
});

describe('Polytoken template: problems', () => {
  const unclosed = (open: string, close: string) =>
    `This \`${open}\` is never closed with \`${close}\`, ${FAILS}; close it, or wrap literal braces in \`{% raw %}…{% endraw %}\`.`;

  it('an unclosed delimiter covers the rest of its line, trailing blanks left out, at least itself', () => {
    assert.deepStrictEqual(problems('x {{ y  \nz'), [['{{ y', undefined, unclosed('{{', '}}')]]);
    assert.deepStrictEqual(problems('x {% y \r\nz'), [['{% y', undefined, unclosed('{%', '%}')]]);
    assert.deepStrictEqual(problems('a {#\nb'), [['{#', undefined, unclosed('{#', '#}')]]);
    assert.deepStrictEqual(problems('\n {{ a', 50), [['{{ a', undefined, unclosed('{{', '}}')]]);
    // A lone carriage return ends the line too; blanks before the delimiter are not taken in.
    assert.deepStrictEqual(problems('x {{ y\rz'), [['{{ y', undefined, unclosed('{{', '}}')]]);
    assert.deepStrictEqual(problems('  {{', 50), [['{{', undefined, unclosed('{{', '}}')]]);
  });

  it('a block closed by another’s end, and blocks never closed, in the order they start', () => {
    assert.deepStrictEqual(problems('{% if %}{% for %}{% endif %}'), [
      [
        '{% for %}',
        'for',
        `\`{% for %}\` is not closed before \`{% endif %}\`, ${FAILS}; add \`{% endfor %}\` where the block ends.`,
      ],
    ]);
    const never = (tag: string) =>
      `\`{% ${tag} %}\` is never closed, ${FAILS}; add \`{% end${tag} %}\` where the block ends.`;
    assert.deepStrictEqual(problems('{% for %}{% if %}'), [
      ['{% for %}', 'for', never('for')],
      ['{% if %}', 'if', never('if')],
    ]);
    assert.deepStrictEqual(problems('{% if %}{% endfor %}'), [
      ['{% if %}', 'if', never('if')],
      [
        '{% endfor %}',
        'for',
        `\`{% endfor %}\` closes no open \`{% for %}\` block, ${FAILS}; remove it or add the opening tag.`,
      ],
    ]);
    assert.deepStrictEqual(problems('{% if x %}{% notif %}'), [['{% if x %}', 'if', never('if')]]);
  });

  it('a second end after its block closed closes nothing', () => {
    assert.deepStrictEqual(
      problems('{% if %}{% endif %}{% endif %}').map(([covered]) => covered),
      ['{% endif %}'],
    );
    assert.deepStrictEqual(problems('{% if %}{% if %}{% endif %}{% endif %}'), []);
  });

  it('else and elif outside the blocks that take them', () => {
    assert.deepStrictEqual(problems('{% with %}{% else %}{% endwith %}'), [
      [
        '{% else %}',
        'else',
        `\`{% else %}\` is not inside an open \`{% if %}\` or \`{% for %}\` block, ${FAILS}; remove it or add the opening tag.`,
      ],
    ]);
    assert.deepStrictEqual(problems('{% elif %}'), [
      [
        '{% elif %}',
        'elif',
        `\`{% elif %}\` is not inside an open \`{% if %}\` block, ${FAILS}; remove it or add the opening tag.`,
      ],
    ]);
    assert.deepStrictEqual(problems('{% for %}{% elif %}{% endfor %}').length, 1);
    assert.deepStrictEqual(problems('{% if %}{% elif %}{% else %}{% endif %}'), []);
  });

  it('tags that are not blocks, an unclosed raw block', () => {
    assert.deepStrictEqual(problems('{% set x %}{% endset %}'), []);
    assert.deepStrictEqual(problems('{% raw %}{% if %}'), [
      [
        '{% raw %}',
        'raw',
        `\`{% raw %}\` is never closed with \`{% endraw %}\`, ${FAILS}; add \`{% endraw %}\` where the block ends.`,
      ],
    ]);
    assert.deepStrictEqual(problems('{% raw %}abc'), problems('{% raw %}'));
  });
});
