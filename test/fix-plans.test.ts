// The building blocks every rule's quick fixes are made of (shared/fixes/plans.ts and the
// scalar writing of shared/fixes/edits.ts), tested directly: the golden fixtures reach only the
// branches some rule happens to take, and the mutation run (docs/testing.md) found the rest.
import * as assert from 'assert';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { Diagnostic } from 'vscode-languageserver-types';
import { parse as parseWithPackage } from 'yaml';
import { replaceValueEdit, yamlScalar } from '../shared/fixes/edits';
import {
  keyRenameFixes,
  normalizingFixes,
  removeFix,
  replaceFix,
  standardFixes,
  toolSuggestionFixes,
} from '../shared/fixes/plans';
import { parseJsonFile, parseYamlFile, type ParsedFile } from '../shared/text/document';
import type { AstNode } from '../shared/text/tree';
import { nodeAtOffset } from '../shared/text/tree';
import type { FixPlan, FixRequest } from '../shared/types';

const diagnostic: Diagnostic = {
  range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  message: '',
};

/** A fix request on the node written `needle` (its first occurrence) in `text`. */
function requestOn(
  text: string,
  needle: string,
  data: Record<string, unknown> = {},
  format: 'yaml' | 'json' = 'yaml',
): FixRequest {
  const file: ParsedFile = format === 'json' ? parseJsonFile(text) : parseYamlFile(text);
  const start = text.indexOf(needle);
  assert.ok(start >= 0, `${needle} in the text`);
  const end = start + needle.length;
  let node: AstNode | undefined = nodeAtOffset(file.root, start);
  while (node && !(node.start === start && node.end === end)) node = node.parent;
  if (!node) {
    // A key is not an ancestor of its value: look among the properties.
    const keyNodes = (n: AstNode | undefined): AstNode[] =>
      n
        ? [
            ...(n.properties ?? []).flatMap((p) => [p.keyNode, ...keyNodes(p.value)]),
            ...(n.items ?? []).flatMap(keyNodes),
          ]
        : [];
    node = keyNodes(file.root).find((k) => k.start === start && k.end === end);
  }
  assert.ok(node, `a node spans ${needle}`);
  return { ctx: { file } as FixRequest['ctx'], diagnostic, data, start, end, node, directives: [] };
}

function applied(req: FixRequest, plan: FixPlan): string {
  const doc = TextDocument.create('file:///t', 'yaml', 1, req.ctx.file.source.text);
  return TextDocument.applyEdits(doc, plan.edits);
}

const summary = (plans: FixPlan[]) => plans.map((p) => `${p.preferred ? '*' : ''}${p.title}`);

describe('fix plans (shared/fixes/plans.ts)', () => {
  it('titles a change on a key "Rename to", elsewhere "Change to", without the JSON quotes', () => {
    const key = requestOn('nmae: x\n', 'nmae');
    assert.deepStrictEqual(summary([replaceFix(key, 'name')]), ['*Rename to `name`']);
    assert.strictEqual(applied(key, replaceFix(key, 'name')), 'name: x\n');
    const json = requestOn('{"tools": ["Raed"]}', '"Raed"', {}, 'json');
    assert.deepStrictEqual(summary([replaceFix(json, '"Read"', false)]), ['Change to `Read`']);
    assert.strictEqual(applied(json, replaceFix(json, '"Read"')), '{"tools": ["Read"]}');
    // Text that only looks like JSON is shown as written.
    const odd = requestOn('a: b\n', 'b');
    assert.deepStrictEqual(summary([replaceFix(odd, '"x" "y"')]), ['*Change to `"x" "y"`']);
    assert.deepStrictEqual(summary([replaceFix(odd, ' "x"'), replaceFix(odd, '"x" ')]), [
      '*Change to ` "x"`',
      '*Change to `"x" `',
    ]);
  });

  it('keeps a string value quoted as it was; replaces any other range as written', () => {
    const quoted = requestOn("model: 'gpt'\n", "'gpt'");
    assert.strictEqual(applied(quoted, replaceFix(quoted, "it's")), "model: 'it''s'\n");
    const number = requestOn('count: 12\n', '12');
    assert.strictEqual(applied(number, replaceFix(number, 'true')), 'count: true\n');
    // A range that is only part of a string node is replaced as written, at either end.
    const whole = requestOn("model: 'gpt'\n", "'gpt'");
    const tail = { ...whole, start: whole.start + 1 };
    assert.strictEqual(applied(tail, replaceFix(tail, 'x: y')), "model: 'x: y\n");
    const head = { ...whole, end: whole.end - 1 };
    assert.strictEqual(applied(head, replaceFix(head, 'x: y')), "model: x: y'\n");
  });

  it('offers each suggestion (the first preferred), else the replacement, then a removal', () => {
    const req = requestOn('tools: [Raed, Bash]\n', 'Raed', {
      suggestions: ['Read', 7, 'Reed'],
      replacement: 'Never',
      removable: true,
    });
    assert.deepStrictEqual(summary(standardFixes(req)), [
      '*Change to `Read`',
      'Change to `Reed`',
      'Remove `Raed` from `tools`',
    ]);
    // The removal is preferred only when asked and nothing else is offered.
    assert.deepStrictEqual(summary(standardFixes(req, { removePreferred: true })).at(-1), 'Remove `Raed` from `tools`');
    const only = requestOn('tools: [Raed, Bash]\n', 'Raed', { removable: true });
    assert.deepStrictEqual(summary(standardFixes(only, { removePreferred: true })), ['*Remove `Raed` from `tools`']);
    assert.deepStrictEqual(summary(standardFixes(only)), ['Remove `Raed` from `tools`']);
    const replacement = requestOn('tools: [Raed, Bash]\n', 'Raed', { suggestions: 'Read', replacement: 'Read' });
    assert.deepStrictEqual(summary(standardFixes(replacement)), ['*Change to `Read`']);
    const nothing = requestOn('tools: [Raed, Bash]\n', 'Raed', { replacement: 3, removable: false });
    assert.deepStrictEqual(standardFixes(nothing), []);
  });

  it('removes a key, a list entry or the property a value belongs to, named in the title', () => {
    const key = requestOn('name: a\nmodle: b\n', 'modle');
    assert.deepStrictEqual(summary([removeFix(key)!]), ['Remove `modle`']);
    assert.strictEqual(applied(key, removeFix(key)!), 'name: a\n');
    const value = requestOn('name: a\nmodle: b\n', 'b');
    assert.deepStrictEqual(summary([removeFix(value, value.node, true)!]), ['*Remove `modle`']);
    assert.strictEqual(applied(value, removeFix(value)!), 'name: a\n');
    const entry = requestOn('- 12\n- b\n', '12');
    assert.deepStrictEqual(summary([removeFix(entry)!]), ['Remove `12`']);
    assert.strictEqual(applied(entry, removeFix(entry)!), '- b\n');
    assert.strictEqual(removeFix(requestOn('just text\n', 'just text')), undefined);
    assert.strictEqual(removeFix({ ...entry, node: undefined }), undefined);
  });

  it('offers a tool name suggestion, never prefers it, and removes instead when the name is listed', () => {
    const typo = requestOn('tools: [Raed, Bash]\n', 'Raed', { replacement: 'Read', removable: false });
    assert.deepStrictEqual(summary(toolSuggestionFixes(typo)), ['Change to `Read`']);
    const twice = requestOn('tools: [Raed, Read]\n', 'Raed', { replacement: 'Read' });
    assert.deepStrictEqual(summary(toolSuggestionFixes(twice)), ['Remove `Raed` from `tools`']);
    const json = requestOn('{"tools": ["Raed", "Read"]}', '"Raed"', { replacement: '"Read"' }, 'json');
    assert.deepStrictEqual(summary(toolSuggestionFixes(json)), ['Remove `Raed` from `tools`']);
    // The entry itself does not count as the listed name.
    const self = requestOn('tools: [Read]\n', 'Read', { replacement: 'Read' });
    assert.deepStrictEqual(summary(toolSuggestionFixes(self)), ['Change to `Read`']);
    // Without a replacement, an entry that is a mapping (no value of its own) does not count as listed.
    const mapping = requestOn('tools: [Raed, {a: 1}]\n', 'Raed', {});
    assert.deepStrictEqual(summary(toolSuggestionFixes(mapping)), []);
  });

  it('offers no rename of a tool the configuration mentions, still its removal', () => {
    const req = requestOn('tools: [Raed, Bash]\n', 'Raed', { replacement: 'Read', removable: true });
    const config = { mentioned: new Set(['Raed']) } as unknown as FixRequest['ctx']['config'];
    const mentioned = { ...req, ctx: { ...req.ctx, config } };
    assert.deepStrictEqual(summary(toolSuggestionFixes(mentioned)), ['Remove `Raed` from `tools`']);
    assert.deepStrictEqual(summary(toolSuggestionFixes(req)), ['Change to `Read`', 'Remove `Raed` from `tools`']);
  });

  it('prefers a key rename unless the key it becomes grants tools', () => {
    const plain = requestOn('nmae: x\n', 'nmae', { replacement: 'name' });
    assert.deepStrictEqual(summary(keyRenameFixes(plain, ['tools'])), ['*Rename to `name`']);
    const granting = requestOn('tols: [Read]\n', 'tols', { replacement: 'tools' });
    assert.deepStrictEqual(summary(keyRenameFixes(granting, ['tools'])), ['Rename to `tools`']);
    const json = requestOn('{"tols": ["Read"]}', '"tols"', { replacement: '"tools"' }, 'json');
    assert.deepStrictEqual(summary(keyRenameFixes(json, ['tools'])), ['Rename to `tools`']);
  });

  it('prefers a normalisation only when the value is the same one written differently', () => {
    const same = requestOn('memory: Read_Only\n', 'Read_Only', { replacement: 'read-only' });
    assert.deepStrictEqual(summary(normalizingFixes(same)), ['*Change to `read-only`']);
    const near = requestOn('memory: Reed\n', 'Reed', { replacement: 'read-only', normalized: false });
    assert.deepStrictEqual(summary(normalizingFixes(near)), ['Change to `read-only`']);
  });
});

describe('YAML scalars written by fixes (shared/fixes/edits.ts)', () => {
  // Characters that mean something to YAML, with enough plain ones to form words.
  const yamlish = fc.string({
    unit: fc.constantFrom(...'aZ09_.+-@`!&*%|>?:,[]{}#\'" ~()/'.split('')),
    maxLength: 12,
  });

  it('reads back as the same string in a block mapping', () => {
    fc.assert(
      fc.property(yamlish, (value) => {
        assert.deepStrictEqual(parseWithPackage(`key: ${yamlScalar(value)}\n`), { key: value });
      }),
      { numRuns: 2000 },
    );
  });

  it('writes a name plain when YAML reads it as that string', () => {
    for (const plain of ['Read', 'mcp__github', 'Bash(git *)', 'tag!ALL', 'read-only', 'a:b', 'a#b'])
      assert.strictEqual(yamlScalar(plain), plain);
    for (const quoted of [
      '',
      ' x',
      'x ',
      'a: b',
      'a:',
      'a #b',
      'yes',
      'Off',
      '~',
      'null',
      '1.5e3',
      '-x',
      '#x',
      '[x',
      '*x',
    ])
      assert.strictEqual(yamlScalar(quoted), JSON.stringify(quoted), quoted);
  });

  it('keeps the quotes the replaced value was written with', () => {
    assert.strictEqual(yamlScalar("it's", "'old'"), "'it''s'");
    assert.strictEqual(yamlScalar('say "x"', '"old"'), '"say \\"x\\""');
    assert.strictEqual(yamlScalar('plain', 'old'), 'plain');
    const json = parseJsonFile('{"a": "b", "n": 1}');
    const at = (s: string) => json.source.text.indexOf(s);
    assert.strictEqual(replaceValueEdit({ file: json }, at('"b"'), at('"b"') + 3, 'c').newText, '"c"');
    assert.strictEqual(replaceValueEdit({ file: json }, at('"b"'), at('"b"') + 3, '["c"]').newText, '["c"]');
    assert.strictEqual(replaceValueEdit({ file: json }, at('"b"'), at('"b"') + 3, '[c').newText, '"[c"');
    assert.strictEqual(replaceValueEdit({ file: json }, at('1'), at('1') + 1, '2').newText, '2');
    const yaml = parseYamlFile('a: |\n  text\nb: c\n');
    const start = yaml.source.text.indexOf('|');
    const edit = replaceValueEdit({ file: yaml }, start, yaml.source.text.indexOf('b:'), 'one');
    assert.strictEqual(edit.newText, 'one');
    assert.strictEqual(edit.range.end.line, 1, 'the block scalar keeps its line break');
    assert.strictEqual(replaceValueEdit({ file: yaml }, start, start + 1, '"q"').newText, '"q"');
    assert.strictEqual(replaceValueEdit({ file: yaml }, start, start + 1, '"').newText, '"\\""');
  });
});
