// Every module-level memo of shared/ registers how to forget it (shared/memos.ts): a mutation run
// forgets them before each test, so a memo that does not register hides mutants from it.
import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import { sourceFiles } from './support/sources';

const ROOT = path.join(__dirname, '..', '..');

/** A Map, WeakMap or Set made empty at module level: filled later, so a memo. */
const MEMO = /^(?:export )?(?:const|let) (\w+)(?:: [^=]+)? = new (?:Weak)?(?:Map|Set)(?:<[^(]*>)?\(\);/gm;

/** The text of each `onForgetMemos(...)` call, and of the named functions such a call is given. */
function forgetting(text: string): string {
  let out = '';
  for (let at = text.indexOf('onForgetMemos('); at >= 0; at = text.indexOf('onForgetMemos(', at + 1)) {
    let depth = 0;
    let end = at + 'onForgetMemos'.length;
    do {
      if (text[end] === '(') depth++;
      else if (text[end] === ')') depth--;
      end++;
    } while (depth > 0 && end < text.length);
    const call = text.slice(at, end);
    out += call;
    const named = /^onForgetMemos\((\w+)\)$/.exec(call);
    const body = named && new RegExp(`function ${named[1]}\\([^)]*\\)[^{]*\\{[\\s\\S]*?\\n\\}`).exec(text);
    if (body) out += body[0];
  }
  return out;
}

/** The memos of these sources that no `onForgetMemos` call forgets. */
export function unforgotten(sources: Record<string, string>): string[] {
  const bad: string[] = [];
  for (const [file, text] of Object.entries(sources)) {
    if (file === 'shared/memos.ts') continue;
    const forgets = forgetting(text);
    for (const [, name] of text.matchAll(MEMO))
      if (!new RegExp(`\\b${name}\\b`).test(forgets)) bad.push(`${file}: ${name}`);
  }
  return bad;
}

describe('architecture: memos can be forgotten', () => {
  it('every module-level Map, WeakMap or Set made empty in shared/ is forgotten by an onForgetMemos call', () => {
    const files = sourceFiles('shared');
    const sources = Object.fromEntries(files.map((f) => [f, fs.readFileSync(path.join(ROOT, f), 'utf8')]));
    const memos = Object.values(sources).reduce((n, text) => n + [...text.matchAll(MEMO)].length, 0);
    assert.ok(memos >= 15, `${memos} memos found`);
    assert.deepStrictEqual(unforgotten(sources), []);
  });

  it('the check can fail: a memo no call names, one a named function does not clear', () => {
    assert.deepStrictEqual(
      unforgotten({
        'shared/a.ts': 'const cache = new Map<string, number>();\nonForgetMemos(() => other.clear());\n',
        'shared/b.ts': 'let byId = new WeakMap();\nonForgetMemos(reset);\nfunction reset(): void {\n  x.clear();\n}\n',
        'shared/c.ts':
          'const seen = new Set<string>();\nonForgetMemos(refresh);\nfunction refresh() {\n  seen.clear();\n}\n',
        'shared/d.ts': 'const TABLE = new Map([[1, 2]]);\n',
      }),
      ['shared/a.ts: cache', 'shared/b.ts: byId'],
    );
  });
});
