import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { keyReferenceMarkdown } from '../shared/docs/keys';
import { rulesWithFixes } from '../shared/fixes/registry';
import { RULES, ruleDocsUrl } from '../shared/rules/registry';
import { DIALECTS } from '../shared/dialects';
import { fixPlansInFolder } from './support/fix-plans';

const root = path.resolve(__dirname, '../..');
const SECTIONS = ['## What it checks', '## Why', '## Bad', '## Good', '## How to fix', '## How to silence'];

/** A page's "How to fix" section, white space collapsed (titles may wrap). */
function howToFix(page: string): string {
  const start = page.indexOf('\n## How to fix\n');
  const end = page.indexOf('\n## ', start + 1);
  return start < 0 ? '' : page.slice(start, end < 0 ? undefined : end).replace(/\s+/g, ' ');
}

/**
 * Finds a fix title on a page, where titles are written in italics: the title's fixed words
 * in order, its variable parts free (code spans, counts, the list of what a rename changes),
 * so `*Remove `<tool>` from `tools`*` is the title "Remove `edit_file` from `tools`".
 */
export function titlePattern(title: string): RegExp {
  const free = '[^*]{0,80}?';
  const variable = /`[^`]*`|\d+|\(\w+(?:, \w+)*\)/g;
  const fixed = (text: string) =>
    text
      .trim()
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('\\s+');
  const parts: string[] = [];
  let at = 0;
  for (const m of title.matchAll(variable)) {
    parts.push(fixed(title.slice(at, m.index)), free);
    at = m.index! + m[0].length;
  }
  parts.push(fixed(title.slice(at)));
  return new RegExp(`\\*${parts.filter(Boolean).join('\\s*')}${free}\\*`);
}

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
  describe('the quick fixes each page names are the ones the editor offers', () => {
    const withFixes = new Set<string>(rulesWithFixes());
    it('titles on a page are recognized with placeholders, and a wrong title is not', () => {
      const page = howToFix(
        '\n## How to fix\n**Quick fix:** *Remove `<tool>` from\n`tools`* (preferred: ...), *Expand `<reference>` into <n> tool names*, *Rename role to `<target>` (name, invocation, file)*.\n',
      );
      assert.match(page, titlePattern('Remove `edit_file` from `tools`'));
      assert.match(page, titlePattern('Expand `tag!release` into 1 tool name'));
      assert.match(page, titlePattern('Rename role to `docs` (name, invocation)'));
      assert.doesNotMatch(page, titlePattern('Remove `edit_file` from `deny` entirely'));
      assert.doesNotMatch(page, titlePattern('Set name to `lint`'));
    });
    for (const rule of RULES) {
      it(`${rule.id}: "Quick fix" names every fix its invalid fixture gets, and which is preferred`, function () {
        this.timeout(20_000);
        const section = howToFix(fs.readFileSync(path.join(root, 'docs/rules', `${rule.id}.md`), 'utf8'));
        assert.ok(section.includes('**Quick fix:**'), 'How to fix has a **Quick fix:** part');
        const none = section.includes('**Quick fix:** none');
        assert.strictEqual(
          none,
          !withFixes.has(rule.id),
          none
            ? 'the page says "Quick fix: none" but the rule has fixes'
            : 'the rule has no fix: say "**Quick fix:** none"',
        );
        if (!withFixes.has(rule.id)) return;
        const found = fixPlansInFolder(path.join(root, 'test/fixtures/rules', rule.id, 'invalid')).filter(
          (d) => d.rule === rule.id,
        );
        // What the rule proposes as preferred; the machinery keeps it so only when it holds the fix property.
        const plans = found.flatMap((d) => d.proposed);
        assert.ok(plans.length > 0, "the invalid fixture exercises the rule's fixes");
        for (const title of new Set(plans.map((p) => p.title)))
          assert.match(section, titlePattern(title), `the page names the fix "${title}"`);
        const demoted = found.flatMap((d) =>
          d.proposed.filter((p) => p.preferred && !d.plans.some((v) => v.title === p.title && v.preferred)),
        );
        if (demoted.length)
          assert.match(
            section,
            /\]\(\.\.\/\.\.\/fixes\.md[#)]/,
            `"${demoted[0].title}" is offered, not preferred, where it would add a problem or grant a tool: the page says when, linking docs/fixes.md`,
          );
        for (const title of new Set(plans.filter((p) => p.preferred).map((p) => p.title))) {
          assert.match(
            section,
            new RegExp(`${titlePattern(title).source}\\s*\\(preferred`),
            `the page says "${title}" is preferred: *title* (preferred…)`,
          );
        }
        // And the other way: a fix the fixture only gets as offered is not called preferred (unless
        // a preferred fix of the same shape, `Rename to `<key>``, shares the page's words).
        const shape = (title: string) => title.replace(/`[^`]*`|\d+|\(\w+(?:, \w+)*\)/g, '…');
        const preferredShapes = new Set(plans.filter((p) => p.preferred).map((p) => shape(p.title)));
        for (const title of new Set(
          plans.filter((p) => !p.preferred && !preferredShapes.has(shape(p.title))).map((p) => p.title),
        )) {
          assert.doesNotMatch(
            section,
            new RegExp(`${titlePattern(title).source}\\s*\\(preferred`),
            `the page calls "${title}" preferred, but it is only offered`,
          );
        }
      });
    }
  });

  for (const dialect of DIALECTS) {
    it(`docs/keys/${dialect}.md is generated from the hover documentation and up to date`, () => {
      const file = path.join(root, 'docs/keys', `${dialect}.md`);
      assert.ok(fs.existsSync(file), 'run `node out/scripts/gen-key-docs.js`');
      assert.strictEqual(
        fs.readFileSync(file, 'utf8'),
        keyReferenceMarkdown(dialect),
        'stale: run `node out/scripts/gen-key-docs.js`',
      );
    });
  }
});
