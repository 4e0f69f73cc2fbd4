import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { keyReferenceMarkdown } from '../shared/docs/keys';
import { RULES, ruleDocsUrl } from '../shared/rules/registry';
import { DIALECTS } from '../shared/types';

const root = path.resolve(__dirname, '../..');
const SECTIONS = ['## What it checks', '## Why', '## Bad', '## Good', '## How to fix', '## How to silence'];

describe('docs', () => {
  for (const rule of RULES) {
    it(`${rule.id} has a page with every section, linked from its diagnostics`, () => {
      const file = path.join(root, 'docs/rules', `${rule.id}.md`);
      assert.ok(fs.existsSync(file), `missing docs/rules/${rule.id}.md`);
      const text = fs.readFileSync(file, 'utf8');
      assert.ok(text.startsWith(`# ${rule.id}\n`), 'the title is the rule id');
      assert.ok(text.includes(`**Default severity:** ${rule.defaultSeverity}`), 'the page states the default severity');
      for (const s of SECTIONS) assert.ok(text.includes(`\n${s}\n`), `section ${s}`);
      assert.ok(ruleDocsUrl(rule.id).endsWith(`/docs/rules/${rule.id}.md`));
    });
  }
  for (const dialect of DIALECTS) {
    it(`docs/keys/${dialect}.md is generated from the hover documentation and up to date`, () => {
      const file = path.join(root, 'docs/keys', `${dialect}.md`);
      assert.ok(fs.existsSync(file), 'run `node out/scripts/gen-key-docs.js`');
      assert.strictEqual(fs.readFileSync(file, 'utf8'), keyReferenceMarkdown(dialect), 'stale: run `node out/scripts/gen-key-docs.js`');
    });
  }
});
