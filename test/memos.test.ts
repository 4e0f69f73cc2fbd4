// The engine's memos (shared/memos.ts): forgetting them changes no answer, and each is really forgotten.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { analyze } from '../shared/engine';
import { defaultLoadedConfig } from '../shared/config/config';
import { catalogFor } from '../shared/catalog/by-dialect';
import { configSchema } from '../shared/config/schema';
import { forgetMemos } from '../shared/memos';

const RULES = path.join(__dirname, '..', '..', 'test', 'fixtures', 'rules');

function* filesUnder(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* filesUnder(full);
    else if (entry.isFile()) yield full;
  }
}

describe('engine memos', () => {
  it('every invalid rule fixture is judged the same before and after they are forgotten', () => {
    let files = 0;
    for (const dialect of fs.readdirSync(RULES))
      for (const rule of fs.readdirSync(path.join(RULES, dialect))) {
        const root = path.join(RULES, dialect, rule, 'invalid');
        if (!fs.existsSync(root)) continue;
        for (const file of filesUnder(root)) {
          const input = { text: fs.readFileSync(file, 'utf8'), path: file, config: defaultLoadedConfig(root), root };
          const before = analyze(input).diagnostics;
          forgetMemos();
          assert.deepStrictEqual(analyze(input).diagnostics, before, file);
          files++;
        }
      }
    assert.ok(files > 40, `${files} files`);
  });

  it('a catalog and the configuration schema are built again once forgotten', () => {
    const config = defaultLoadedConfig('/ws').config;
    const catalog = catalogFor('polytoken', config);
    const schema = configSchema();
    assert.strictEqual(catalogFor('polytoken', config), catalog);
    assert.strictEqual(configSchema(), schema);
    forgetMemos();
    assert.notStrictEqual(catalogFor('polytoken', config), catalog);
    assert.notStrictEqual(configSchema(), schema);
    assert.deepStrictEqual(configSchema(), schema);
  });
});
