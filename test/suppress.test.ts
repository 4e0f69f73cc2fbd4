import * as assert from 'assert';
import { analyze } from '../shared/engine';
import { defaultLoadedConfig } from '../shared/config/config';
import { SourceText } from '../shared/text/source';
import { findSuppressions, yamlCommentAt, type Suppressions } from '../shared/text/suppress';
import { DirectiveUse } from '../shared/rules/directives';
import { codeActions } from '../shared/features/code-actions';
import { fixAll } from '../shared/fixes/apply';

/** Whether the file's directives silence a rule on a line, as the engine applies them. */
const isSuppressed = (s: Suppressions, rule: string, line: number) => new DirectiveUse(s).silences(rule, line);

const WS = '/ws';
const config = defaultLoadedConfig(WS);
const ROLE = `${WS}/apps/cli/agents/code_review.yaml`;
const POLY = `${WS}/.polytoken/subagents/triage.md`;

const whole = (text: string) => findSuppressions(new SourceText(text), [{ start: 0, end: text.length }]);
const codes = (path: string, text: string) =>
  analyze({ text, path, config, root: WS }).diagnostics.map((d) => String(d.code));

describe('suppression comments: only real YAML comments count', () => {
  it('a directive inside a block scalar, a quoted string or a Markdown body is content', () => {
    for (const text of [
      'name: x\nsystem_prompt: |\n  # subagents-disable picasso/unknown-key\n  text\nbogus: 1\n',
      'name: x\nnote: "# subagents-disable picasso/unknown-key"\nbogus: 1\n',
      "name: x\nnote: '# subagents-disable-next-line picasso/unknown-key'\nbogus: 1\n",
      'name: x\nfolded: >\n  # subagents-disable-next-line picasso/unknown-key\nbogus: 1\n',
    ]) {
      assert.deepStrictEqual(whole(text).directives, [], text);
      assert.ok(codes(ROLE, text).includes('picasso/unknown-key'), text);
    }
    const markdown = '---\nname: triage\ndescription: d\nbogus: 1\n---\n# subagents-disable polytoken/unknown-key\n';
    assert.ok(
      codes(POLY, markdown).includes('polytoken/unknown-key'),
      'a Markdown heading in the body is not a comment',
    );
  });

  it('a real comment silences, also after a value and in a flow collection', () => {
    assert.ok(
      !codes(ROLE, 'name: x\n# subagents-disable picasso/unknown-key\nbogus: 1\n').includes('picasso/unknown-key'),
    );
    assert.ok(
      !codes(ROLE, 'name: x # subagents-disable-next-line picasso/unknown-key\nbogus: 1\n').includes(
        'picasso/unknown-key',
      ),
    );
    const flow = whole('tools: [a, # subagents-disable-next-line picasso/unknown-tool\n  b]\n');
    assert.ok(isSuppressed(flow, 'picasso/unknown-tool', 1));
    const markdown =
      '---\nname: triage\ndescription: d\n# subagents-disable-next-line polytoken/unknown-key\nbogus: 1\n---\nBody.\n';
    assert.ok(!codes(POLY, markdown).includes('polytoken/unknown-key'));
  });

  it('each directive is recorded: kind, range, and every rule id with its range', () => {
    const text =
      'a: 1\n  # subagents-disable-next-line  picasso/unknown-key ,picasso/unknown-tool # why\nb: 2\n# subagents-disable\n';
    const s = whole(text);
    const source = new SourceText(text);
    const slice = (r: { start: { line: number; character: number }; end: { line: number; character: number } }) =>
      text.slice(source.offset(r.start), source.offset(r.end));
    assert.deepStrictEqual(
      s.directives.map((d) => [d.kind, slice(d.range), d.rules.map((r) => [r.id, slice(r.range)])]),
      [
        [
          'line',
          '# subagents-disable-next-line  picasso/unknown-key ,picasso/unknown-tool',
          [
            ['picasso/unknown-key', 'picasso/unknown-key'],
            ['picasso/unknown-tool', 'picasso/unknown-tool'],
          ],
        ],
        ['file', '# subagents-disable', []],
      ],
    );
    assert.ok(isSuppressed(s, 'picasso/unknown-tool', 2));
    assert.ok(isSuppressed(s, 'anything/at-all', 0), 'a directive without ids silences every rule');
  });

  it('a comment that only mentions the word is not a directive', () => {
    assert.deepStrictEqual(whole('a: 1 # see subagents-disable in the docs\n').directives, []);
    assert.deepStrictEqual(whole('a: 1 # subagents-disabled x\n').directives, []);
  });
});

describe('suppression comments: regions and positions', () => {
  const ids = (s: Suppressions) => s.directives.map((d) => [d.kind, d.rules.map((r) => r.id)]);

  it('reads only inside the given regions, at their offsets in the whole text', () => {
    const text = '# subagents-disable a/b\n---\nk: 1 # subagents-disable-next-line c/d\n---\n# subagents-disable e/f\n';
    const start = text.indexOf('k: 1');
    const end = text.indexOf('---', start);
    const s = findSuppressions(new SourceText(text), [{ start, end }]);
    assert.deepStrictEqual(ids(s), [['line', ['c/d']]]);
    assert.deepStrictEqual(s.directives[0].range.start, { line: 2, character: 5 });
    assert.deepStrictEqual(s.directives[0].rules[0].range, {
      start: { line: 2, character: 35 },
      end: { line: 2, character: 38 },
    });
    // A marker that starts before the region's end but is cut by it is not read.
    const cut = findSuppressions(new SourceText(text), [{ start, end: start + 'k: 1 # subagents-dis'.length }]);
    assert.deepStrictEqual(cut.directives, []);
    // Two regions: both read, in order.
    const both = findSuppressions(new SourceText(text), [
      { start: 0, end: text.indexOf('---') },
      { start: text.lastIndexOf('---') + 4, end: text.length },
    ]);
    assert.deepStrictEqual(ids(both), [
      ['file', ['a/b']],
      ['file', ['e/f']],
    ]);
  });

  it('takes the ids up to a second #, skipping empty ones, and knows the two spellings apart', () => {
    assert.deepStrictEqual(ids(whole('#subagents-disable-next-line a/b,,  c/d , # e/f\nx: 1\n')), [
      ['line', ['a/b', 'c/d']],
    ]);
    assert.deepStrictEqual(ids(whole('# subagents-disable-next-linex a/b\n')), []);
    assert.deepStrictEqual(ids(whole('# subagents-disable-next a/b\n')), []);
    assert.deepStrictEqual(ids(whole('#   subagents-disable\ta/b\n')), [['file', ['a/b']]]);
  });
});

describe('suppression comments: a directive later in a comment, and the comment under the cursor', () => {
  it('reads a directive that follows other words in the same comment, from its own #', () => {
    const text = 'a: 1 # note # subagents-disable-next-line x/y\nb: 2\n';
    const s = whole(text);
    assert.deepStrictEqual(
      s.directives.map((d) => [d.kind, d.range.start.character, d.rules.map((r) => [r.id, r.range.start.character])]),
      [['line', text.indexOf('# subagents'), [['x/y', text.indexOf('x/y')]]]],
    );
    assert.strictEqual(s.directives[0].range.end.character, text.indexOf('x/y') + 3);
  });

  it('yamlCommentAt: the comment holding the offset (its end included), only real comments, only in the region', () => {
    const text = '---\na: 1 # hello\nb: "# not"\nc: 2\n---\n# body\n';
    const region = { start: 4, end: text.indexOf('---', 4) };
    const comment = text.indexOf('# hello');
    const at = (offset: number) => yamlCommentAt(text, region, offset);
    assert.deepStrictEqual(at(comment + 3), { start: comment, text: '# hello' });
    assert.deepStrictEqual(at(comment + '# hello'.length), { start: comment, text: '# hello' }, 'the cursor after it');
    assert.deepStrictEqual(at(comment + 1), { start: comment, text: '# hello' });
    assert.strictEqual(at(comment), undefined, 'before the #');
    assert.strictEqual(at(text.indexOf('# not') + 2), undefined, 'inside a quoted string');
    assert.strictEqual(at(text.indexOf('c: 2') + 2), undefined, 'a line with no #');
    assert.strictEqual(at(text.indexOf('# body') + 2), undefined, 'past the region');
    assert.strictEqual(
      yamlCommentAt(text, { start: comment + 2, end: region.end }, comment + 1),
      undefined,
      'before the region',
    );
    // A region that starts inside a line: only its part of the line counts.
    const inline = 'x # a\ny: 1\n';
    assert.strictEqual(yamlCommentAt(inline, { start: 4, end: inline.length }, 5), undefined);
  });

  it('yamlCommentAt: a comment at the very end of the region, a # in a string before a comment on the same line', () => {
    const last = 'a: 1 # end';
    const whole = { start: 0, end: last.length };
    assert.deepStrictEqual(
      yamlCommentAt(last, whole, last.length),
      { start: 5, text: '# end' },
      'the end of the region',
    );
    const text = 'a: "x#y" # note\nb: 2\n';
    const region = { start: 0, end: text.length };
    const comment = text.indexOf('# note');
    assert.strictEqual(
      yamlCommentAt(text, region, text.indexOf('#y') + 1),
      undefined,
      'in the string, a comment later',
    );
    // The `#` in the string lets the line be parsed; the cursor before the comment's own `#` is still outside it.
    assert.strictEqual(yamlCommentAt(text, region, comment), undefined, 'before the #');
    assert.deepStrictEqual(yamlCommentAt(text, region, comment + 1), { start: comment, text: '# note' });
  });

  it('gives the directives in text order, across lines and documents', () => {
    const text =
      'a: 1 # subagents-disable-next-line r/one\nb: # subagents-disable r/two\n  - x # subagents-disable-next-line r/three\n---\n# subagents-disable r/four\nc: 1\n';
    assert.deepStrictEqual(
      whole(text).directives.map((d) => [d.range.start.line, d.rules.map((r) => r.id)]),
      [
        [0, ['r/one']],
        [1, ['r/two']],
        [2, ['r/three']],
        [4, ['r/four']],
      ],
    );
  });

  it('gives each rule id its own range, past the spaces after a comma', () => {
    const text = '# subagents-disable a/b,   c/d,\te/f\n';
    const source = new SourceText(text);
    assert.deepStrictEqual(
      whole(text).directives[0].rules.map((r) => [r.id, source.offset(r.range.start), source.offset(r.range.end)]),
      [
        ['a/b', text.indexOf('a/b'), text.indexOf('a/b') + 3],
        ['c/d', text.indexOf('c/d'), text.indexOf('c/d') + 3],
        ['e/f', text.indexOf('e/f'), text.indexOf('e/f') + 3],
      ],
    );
  });
});

describe('suppression comments: which of their ids are used', () => {
  it('a directive whose ids each silence findings on other lines uses them all (no directive/unused)', () => {
    const text =
      'name: x\n# subagents-disable picasso/unknown-key, picasso/unknown-tool\nbogus: 1\ntools: [zzz_tool]\n';
    const found = codes(ROLE, text);
    for (const rule of ['picasso/unknown-key', 'picasso/unknown-tool', 'directive/unused'])
      assert.ok(!found.includes(rule), `${rule} in ${found.join(', ')}`);
    // Without the directive both are reported: it silences them.
    const plain = codes(ROLE, text.replace(/# subagents-disable .*\n/, ''));
    assert.ok(plain.includes('picasso/unknown-key') && plain.includes('picasso/unknown-tool'), plain.join(', '));
  });
});

describe('suppression comments: their quick fixes', () => {
  const AUDITOR = `${WS}/apps/cli/agents/auditor.yaml`;
  const role =
    'name: auditor\ninvocation: "@auditor"\nmodel: m\ntools: [read_file]\nmax_steps: 3\nmax_depth: 0\noutput_schema: findings\ndescription: Audits.\nwhen_to_use: Always.';
  const fixed = (text: string) => fixAll({ text, path: AUDITOR, config, root: WS });

  it('"Fix all" removes an unused directive after a value with the blanks before it, and an unused first id with its comma', () => {
    const trailing = fixed(`${role} \t # subagents-disable-next-line picasso/unknown-key\n`);
    assert.strictEqual(trailing.text, `${role}\n`);
    assert.deepStrictEqual(
      trailing.applied.map((a) => a.rule),
      ['directive/unused'],
    );
    // On a line of its own, the whole line goes, with its CRLF.
    const crlf = `${role}\n# subagents-disable-next-line picasso/unknown-key\nmemory: none\n`.replace(/\n/g, '\r\n');
    assert.strictEqual(fixed(crlf).text, `${role}\nmemory: none\n`.replace(/\n/g, '\r\n'));
    const first = fixed(`${role}\n# subagents-disable-next-line picasso/unknown-tool, picasso/unknown-key\nbogus: 1\n`);
    assert.strictEqual(first.text, `${role}\n# subagents-disable-next-line picasso/unknown-key\nbogus: 1\n`);
    assert.deepStrictEqual(first.analysis.diagnostics, []);
  });

  it('"Disable for this line" adds the rule to the directive on the line above, before its line break (LF or CRLF)', () => {
    for (const eol of ['\n', '\r\n']) {
      const text = [
        '---',
        'name: triage',
        'description: d',
        'polytoken:',
        '  # subagents-disable-next-line polytoken/shadowed',
        '  tools: [grep, gerp]',
        '---',
        'body',
        '',
      ].join(eol);
      const analysis = analyze({ text, path: POLY, config, root: WS });
      const unknown = analysis.diagnostics.filter((d) => d.code === 'polytoken/unknown-tool');
      assert.strictEqual(unknown.length, 1);
      const disable = codeActions(analysis, 'file:///x', unknown[0].range, { diagnostics: unknown }).find((a) =>
        a.title.startsWith('Disable'),
      );
      assert.deepStrictEqual(
        [disable?.title, disable?.edit],
        [
          'Disable polytoken/unknown-tool for this line',
          {
            changes: {
              'file:///x': [
                {
                  range: { start: { line: 4, character: 50 }, end: { line: 4, character: 50 } },
                  newText: ', polytoken/unknown-tool',
                },
              ],
            },
          },
        ],
        JSON.stringify(eol),
      );
    }
  });
});

describe('code actions: which kinds a client asks for, and file-level disabling', () => {
  const actionsFor = (text: string) => {
    const analysis = analyze({ text, path: POLY, config, root: WS });
    return (only?: string[]) =>
      analysis.diagnostics.flatMap((d) =>
        codeActions(
          analysis,
          'file:///x',
          d.range,
          { diagnostics: [d], only },
          { fixAll: () => [{ range: d.range, newText: 'x' }] },
        ),
      );
  };

  it('`only` selects by kind and by its parents (`source` holds `source.fixAll.subagents`); Fix all only when asked', () => {
    const actions = actionsFor('---\nname: triage\ndescription: d\npolytoken:\n  tools: [file_raed]\n---\nx\n');
    const kinds = (only?: string[]) => actions(only).map((a) => a.kind);
    assert.deepStrictEqual(kinds(), ['quickfix', 'quickfix']);
    assert.deepStrictEqual(kinds(['quickfix']), ['quickfix', 'quickfix']);
    for (const only of [['source'], ['source.fixAll'], ['source.fixAll.subagents']])
      assert.deepStrictEqual(kinds(only), ['source.fixAll.subagents'], only[0]);
    assert.deepStrictEqual(kinds(['']), ['quickfix', 'quickfix', 'source.fixAll.subagents']);
    for (const only of [['refactor'], ['quick']]) assert.deepStrictEqual(kinds(only), [], only[0]);
  });

  it('a problem of the whole file can be disabled for the file, a syntax problem cannot', () => {
    const titles = (text: string) => actionsFor(text)().map((a) => a.title);
    assert.deepStrictEqual(titles('---\ndescription: d\n---\nx\n'), [
      'Add `name: triage`',
      'Disable polytoken/missing-name for this file',
    ]);
    assert.deepStrictEqual(titles('no frontmatter\n'), ['Insert a new definition named `triage`']);
  });
});
