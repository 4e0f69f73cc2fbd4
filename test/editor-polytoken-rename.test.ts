/**
 * F2 on a Polytoken definition's `name`: the name and the file together, refused for a name no
 * file can carry or one taken in the folder, with notes on the definitions of the new name that
 * discovery order puts before or after it.
 * test/lsp/* asks the real server the same; these run in-process, where the mutation run
 * (docs/testing.md) sees them.
 */
import * as assert from 'assert';
import type { WorkspaceEdit } from 'vscode-languageserver-types';
import { isRefusal, prepareRename, renameDefinition, type RenameOptions } from '../shared/features/rename';
import { CURSOR, editTexts as newTexts, renameOptions, type At } from './support/editor';
import { config, DEF, def, polytoken } from './support/polytoken-editor';

const { at } = polytoken;

describe('Polytoken editor: F2 renames the definition and its file', () => {
  const URI = `file://${DEF}`;
  const TEXT = def('  tools: [grep]\n');
  const cursorOn = (needle: string, text = TEXT, shift = 1) => {
    const i = text.indexOf(needle) + shift;
    return text.slice(0, i) + CURSOR + text.slice(i);
  };
  const prepared = (marked: string) => {
    const { analysis, position } = at(marked);
    return prepareRename(analysis, position);
  };
  const rename = (typed: string, over?: Partial<RenameOptions>, marked = cursorOn('triage'), where?: At) => {
    const { analysis, position } = at(marked, where);
    return renameDefinition(analysis, where?.path ? `file://${where.path}` : URI, position, typed, renameOptions(over));
  };
  const error = (result: ReturnType<typeof rename>) => (isRefusal(result) ? result.error : JSON.stringify(result));
  const renamedTo = (edit: WorkspaceEdit) =>
    (edit.documentChanges ?? []).flatMap((c) => ('kind' in c && c.kind === 'rename' ? [c.newUri] : []));
  const NOT_ON_A_NAME = 'Put the cursor on the definition\u2019s `name` to rename it.';

  it('starts on `name`, from its first to its last character, and nowhere else', () => {
    const RANGE = {
      range: { start: { line: 1, character: 6 }, end: { line: 1, character: 12 } },
      placeholder: 'triage',
    };
    assert.deepStrictEqual(prepared(cursorOn('triage', TEXT, 0)), RANGE, 'at its start');
    assert.deepStrictEqual(prepared(cursorOn('triage', TEXT, 6)), RANGE, 'at its end');
    assert.deepStrictEqual(prepared(cursorOn(' triage', TEXT, 0)), { error: NOT_ON_A_NAME }, 'before it');
    assert.deepStrictEqual(
      prepared(cursorOn('triage\n', '---\nname: triage  \n---\n', 7)),
      { error: NOT_ON_A_NAME },
      'after it',
    );
    assert.deepStrictEqual(prepared(cursorOn('Reads')), { error: NOT_ON_A_NAME });
    assert.deepStrictEqual(prepared('---\nname: "tri‸age"\n---\n'), {
      range: { start: { line: 1, character: 7 }, end: { line: 1, character: 13 } },
      placeholder: 'triage',
    });
    assert.deepStrictEqual(prepared('---\nname: "‸"\n---\n'), { error: NOT_ON_A_NAME }, 'an empty name');
    assert.deepStrictEqual(prepared('---\ndescription: x‸\n---\n'), { error: NOT_ON_A_NAME }, 'no name');
  });

  it('renames `name` and the file together, or tells the author to rename the file', () => {
    const result = rename('scout');
    assert.ok(result && !isRefusal(result), JSON.stringify(result));
    assert.deepStrictEqual(newTexts(result.edit), ['scout']);
    assert.deepStrictEqual(renamedTo(result.edit), ['file:///w/.polytoken/subagents/scout.md']);
    assert.deepStrictEqual(result.notes, []);
    const withoutFiles = rename('scout', { renameFiles: false });
    assert.ok(withoutFiles && !isRefusal(withoutFiles));
    assert.deepStrictEqual(withoutFiles.notes, [
      'The file was not renamed: this editor cannot rename files through the language server. Rename triage.md to scout.md yourself.',
    ]);
  });

  it('renames only what differs: the file already named so, or nothing at all', () => {
    const same = rename('triage', { exists: () => true });
    assert.ok(same && !isRefusal(same), error(same));
    assert.deepStrictEqual([newTexts(same.edit), renamedTo(same.edit)], [[], []]);
    // `name: triager` in triage.md: only the name changes.
    const marked = cursorOn('triager', TEXT.replace('name: triage', 'name: triager'));
    const nameOnly = rename('triage', { exists: () => true }, marked);
    assert.ok(nameOnly && !isRefusal(nameOnly), error(nameOnly));
    assert.deepStrictEqual([newTexts(nameOnly.edit), renamedTo(nameOnly.edit)], [['triage'], []]);
    // `name: triage` in other.md: only the file.
    const fileOnly = rename('triage', {}, cursorOn('triage'), { path: '/w/.polytoken/subagents/other.md' });
    assert.ok(fileOnly && !isRefusal(fileOnly), error(fileOnly));
    assert.deepStrictEqual(
      [newTexts(fileOnly.edit), renamedTo(fileOnly.edit)],
      [[], ['file:///w/.polytoken/subagents/triage.md']],
    );
  });

  it('refuses a name no file can carry, and says why', () => {
    const why = (typed: string) =>
      error(rename(typed)).replace(/, and Polytoken needs a file named after the definition\.$/, '');
    assert.strictEqual(error(rename('')), '`` is empty, and Polytoken needs a file named after the definition.');
    assert.strictEqual(why('  '), '`  ` is empty');
    for (const bad of ['/', '\\', ':', '*', '?', '"', '<', '>', '|'])
      assert.strictEqual(why(`a${bad}b`), `\`a${bad}b\` holds \`${bad}\`, which a file name cannot hold`);
    for (const control of ['\u0000', '\t', '\u001f', '\u007f'])
      assert.strictEqual(
        why(`a${control}b`),
        `\`a${control}b\` holds a control character, which a file name cannot hold`,
      );
    assert.strictEqual(
      why(' scout'),
      '` scout` starts or ends with white space, which file names do not keep reliably',
    );
    assert.strictEqual(
      why('scout '),
      '`scout ` starts or ends with white space, which file names do not keep reliably',
    );
    assert.strictEqual(why('scout.'), '`scout.` ends with a dot, which file names do not keep reliably');
    for (const fine of ['scout.v2', 'Scout Bot', 'scout-bot_2', 'éclaireur']) {
      const result = rename(fine);
      assert.ok(result && !isRefusal(result), `${fine}: ${error(result)}`);
    }
  });

  it('refuses a file that exists and a name taken in the same folder', () => {
    assert.strictEqual(
      error(rename('scout', { exists: (p) => p === '/w/.polytoken/subagents/scout.md' })),
      'scout.md already exists in this folder; choose another name.',
    );
    const legacy = {
      path: '/w/.polytoken/subagents/legacy.md',
      kind: 'polytoken' as const,
      names: [{ name: 'scout' }],
    };
    assert.strictEqual(
      error(rename('scout', { definitions: [legacy] })),
      'legacy.md in this folder is already named `scout`; choose another name.',
    );
    // Another runtime, the definition itself, a second name, or another folder outside discovery: free, and no note.
    for (const definitions of [
      [{ ...legacy, kind: 'picasso' as const }],
      [{ ...legacy, path: DEF }],
      [{ ...legacy, names: [{ name: 'legacy' }, { name: 'scout' }] }],
      [{ ...legacy, path: '/w/docs/legacy.md' }],
    ]) {
      const result = rename('scout', { definitions });
      assert.ok(result && !isRefusal(result), JSON.stringify(definitions));
      assert.deepStrictEqual(result.notes, [], JSON.stringify(definitions));
    }
  });

  it('names the definitions of the new name that replace it or that it replaces in discovery order', () => {
    const loaded = config('polytoken:\n  subagentDirs: [vendor, team]\n');
    loaded.globalDir = '/home/u/.config/polytoken/subagents';
    const named = (path: string) => ({ path, kind: 'polytoken' as const, names: [{ name: 'scout' }] });
    const GLOBAL = '/home/u/.config/polytoken/subagents/scout.md';
    const VENDOR = '/w/vendor/scout.md';
    const PROJECT = '/w/.polytoken/subagents/scout.md';
    const notes = (path: string, definitions: ReturnType<typeof named>[]) => {
      const result = rename('scout', { definitions }, cursorOn('triage'), { path, config: loaded });
      assert.ok(result && !isRefusal(result), error(result));
      return result.notes;
    };
    assert.deepStrictEqual(notes(DEF, [named(GLOBAL)]), [
      `This definition, now named \`scout\`, replaces an earlier one of that name: ${GLOBAL}. It was not renamed.`,
    ]);
    assert.deepStrictEqual(notes(DEF, [named(GLOBAL), named(VENDOR)]), [
      `This definition, now named \`scout\`, replaces earlier ones of that name: ${GLOBAL}, vendor/scout.md. They were not renamed.`,
    ]);
    assert.deepStrictEqual(notes('/w/vendor/triage.md', [named(PROJECT), named('/w/team/scout.md')]), [
      'Another Polytoken definition named `scout` comes later in discovery order and replaces this one: .polytoken/subagents/scout.md, team/scout.md. It was not renamed.',
    ]);
    assert.deepStrictEqual(notes('/w/vendor/triage.md', [named(GLOBAL), named(PROJECT)]), [
      'Another Polytoken definition named `scout` comes later in discovery order and replaces this one: .polytoken/subagents/scout.md. It was not renamed.',
      `This definition, now named \`scout\`, replaces an earlier one of that name: ${GLOBAL}. It was not renamed.`,
    ]);
  });
});
