import * as assert from 'assert';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { pathToFileURL } from 'url';
import { DIALECT_MODULES } from '../../shared/dialects';
import { kindOf } from '../../shared/recognition';
import { defaultLoadedConfig } from '../../shared/config/config';
import { SourceText } from '../../shared/text/source';
import { walkFiles } from '../../shared/node/walk';
import {
  definitionNames,
  namesFromText,
  neighbourFolders,
  quickName,
  type IndexEntry,
} from '../../shared/workspace/names';
import { DefinitionIndex } from '../../shared/workspace/definitions';
import type { Dialect } from '../../shared/types';
import { REPO } from './harness';

/** The start-up index reads names without a YAML parse when it can: it must agree with the parse. */
describe('index: quick name reading agrees with the parser', () => {
  /** `quick`: a plain name the quick reader must answer; `either`: it may leave the file to the parser. */
  const cases: [Dialect, string, string, 'quick' | 'either'][] = [
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: a\ndescription: d\n---\nbody\n', 'quick'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: "quoted"\n---\n', 'quick'],
    ['polytoken', '/w/.polytoken/subagents/a.md', "---\nname: 'single'   \n---\n", 'quick'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: 123\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: true\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: a#b\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: x # comment\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname:\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\nname: a\nname: b\n---\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', 'no frontmatter\n', 'either'],
    ['polytoken', '/w/.polytoken/subagents/a.md', '---\r\nname: crlf\r\n---\r\n', 'quick'],
    // A byte order mark is not part of the text the ranges count.
    ['polytoken', '/w/.polytoken/subagents/a.md', '\ufeff---\nname: bom\n---\n', 'quick'],
    ['picasso', '/w/apps/cli/agents/r.yaml', '\ufeffname: bom_role\n', 'quick'],
    ['picasso', '/w/apps/cli/agents/r.yaml', 'model: m\nname: role_x\n', 'quick'],
    ['picasso', '/w/.picasso/agents/r.md', '---\nname: fm_role\n---\n', 'quick'],
    ['picasso', '/w/.picasso/agents/r.md', 'name: plain_md\ntools: []\n', 'either'],
  ];
  for (const [kind, file, text, reader] of cases) {
    it(`${kind} ${JSON.stringify(text.slice(0, 30))}`, () => {
      const quick = quickName(kind, text, file);
      if (reader === 'quick') assert.ok(quick, 'a plain name is read without a parse');
      if (!quick) return; // the caller parses: nothing to compare
      const full = definitionNames(kind, DIALECT_MODULES[kind].parse(new SourceText(text), file), file);
      assert.deepStrictEqual(namesFromText(kind, text, file), full);
    });
  }

  it('takes the quick path for plain names (so it is used at all)', () => {
    assert.ok(quickName('polytoken', '---\nname: a\n---\n', '/w/.polytoken/subagents/a.md'));
    assert.strictEqual(quickName('polytoken', '---\nname: 123\n---\n', '/w/.polytoken/subagents/a.md'), undefined);
  });

  it('agrees on every file of a generated benchmark workspace', async () => {
    const gen = (await import(pathToFileURL(path.join(REPO, 'bench', 'generate.mjs')).href)) as {
      generateWorkspace(root: string, total: number): unknown;
    };
    const ws = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-quick-')));
    gen.generateWorkspace(ws, 300);
    const config = defaultLoadedConfig(ws);
    let compared = 0;
    for (const file of walkFiles(ws)) {
      const kind = kindOf({ path: file, config, root: ws });
      if (!kind || kind === 'config' || kind === 'profy') continue;
      const text = fs.readFileSync(file, 'utf8');
      if (!quickName(kind, text, file)) continue;
      const quick = namesFromText(kind, text, file);
      compared++;
      assert.deepStrictEqual(
        quick,
        definitionNames(kind, DIALECT_MODULES[kind].parse(new SourceText(text), file), file),
        file,
      );
    }
    fs.rmSync(ws, { recursive: true, force: true });
    assert.ok(compared > 50, `${compared} compared`);
  });
});

describe('index: the folders a file checked on its own is checked with', () => {
  it("its own folder and its project's definition folders where names clash, none for Profy", () => {
    const loaded = defaultLoadedConfig('/w');
    assert.deepStrictEqual(neighbourFolders('polytoken', '/w/team/triage.md', loaded), [
      '/w/team',
      '/w/.polytoken/subagents',
    ]);
    assert.deepStrictEqual(neighbourFolders('profy', '/w/experts/book.expert.json', loaded), []);
  });
});

describe('index: replacing every entry after a new scan', () => {
  const entry = (path: string, name: string): IndexEntry => ({
    path,
    uri: `file://${path}`,
    kind: 'polytoken',
    names: [{ name, range: new SourceText('').firstLine(), symbolKind: 5 }],
  });
  const DIR = '/w/.polytoken/subagents';

  it('drops what the scan no longer finds, adds what it found, and leaves the protected (open) files alone', () => {
    const index = new DefinitionIndex();
    for (const [file, name] of [
      ['gone.md', 'triage'],
      ['kept.md', 'triage'],
      ['open.md', 'open'],
    ])
      index.set(`${DIR}/${file}`, entry(`${DIR}/${file}`, name));
    const next = new Map([
      [`${DIR}/kept.md`, entry(`${DIR}/kept.md`, 'triage')],
      [`${DIR}/new.md`, entry(`${DIR}/new.md`, 'review')],
      [`${DIR}/open.md`, entry(`${DIR}/open.md`, 'renamed on disk')],
    ]);
    const touched = index.replaceAll(next, (path) => path === `${DIR}/open.md`);
    assert.deepStrictEqual(touched, ['polytoken:triage', 'polytoken:review']);
    assert.deepStrictEqual(
      [...index.all()].map((e) => [e.path, e.names[0].name]),
      [
        [`${DIR}/kept.md`, 'triage'],
        [`${DIR}/open.md`, 'open'],
        [`${DIR}/new.md`, 'review'],
      ],
    );
    assert.deepStrictEqual(index.pathsNamed('polytoken:triage'), [`${DIR}/kept.md`]);
    // triage: set twice, then one removed; a file found again unchanged moves no revision (its analyses stay valid).
    assert.deepStrictEqual(
      ['polytoken:triage', 'polytoken:open', 'polytoken:review'].map((key) => index.revisionOf(key)),
      [3, 1, 1],
    );
  });
});
