import * as assert from 'assert';
import { headingAnchor, keyDoc, keyDocMarkdown, keyReferenceMarkdown, keysAt } from '../../shared/docs/keys';
import { POLYTOKEN_KEYS, TOP_LEVEL_KEYS } from '../../shared/dialects/polytoken/constants';
import { ALL_KEYS } from '../../shared/dialects/picasso/constants';
import { EXPERT_KEYS, SUBAGENT_KEYS } from '../../shared/dialects/profy/constants';
import type { Dialect } from '../../shared/types';

/** Every key the dialects know has documentation (type, summary, a docs link) for hover and completion. */
describe('key documentation covers every key of every dialect', () => {
  const all: [Dialect, (string | number)[]][] = [
    ...TOP_LEVEL_KEYS.map((k): [Dialect, (string | number)[]] => ['polytoken', [k]]),
    ...POLYTOKEN_KEYS.map((k): [Dialect, (string | number)[]] => ['polytoken', ['polytoken', k]]),
    ...ALL_KEYS.map((k): [Dialect, (string | number)[]] => ['picasso', [k]]),
    ...EXPERT_KEYS.map((k): [Dialect, (string | number)[]] => ['profy', [k]]),
    ...SUBAGENT_KEYS.map((k): [Dialect, (string | number)[]] => ['profy', ['subagents', 0, k]]),
  ];
  for (const [dialect, path] of all) {
    it(`${dialect} ${path.join('.')}`, () => {
      const doc = keyDoc(dialect, path);
      assert.ok(doc, 'documented');
      assert.strictEqual(doc.key, path[path.length - 1]);
      assert.ok(doc.type && doc.summary.length > 20);
      const md = keyDocMarkdown(dialect, path, doc);
      assert.match(md, /\]\(https:\/\/[^)]+#[\w-]+\)/);
    });
  }

  it('completion offers exactly the known keys at each level', () => {
    assert.deepStrictEqual(
      keysAt('polytoken', [])
        .map((d) => d.key)
        .sort(),
      [...TOP_LEVEL_KEYS].sort(),
    );
    assert.deepStrictEqual(
      keysAt('polytoken', ['polytoken'])
        .map((d) => d.key)
        .sort(),
      [...POLYTOKEN_KEYS].sort(),
    );
    assert.deepStrictEqual(
      keysAt('picasso', [])
        .map((d) => d.key)
        .sort(),
      [...ALL_KEYS].sort(),
    );
    assert.deepStrictEqual(
      keysAt('profy', [])
        .map((d) => d.key)
        .sort(),
      [...EXPERT_KEYS].sort(),
    );
    assert.deepStrictEqual(
      keysAt('profy', ['subagents', 3])
        .map((d) => d.key)
        .sort(),
      [...SUBAGENT_KEYS].sort(),
    );
  });
});

describe('key reference pages (docs/keys/<dialect>.md) match the hover links', () => {
  for (const dialect of ['polytoken', 'picasso', 'profy'] as const) {
    it(dialect, () => {
      const page = keyReferenceMarkdown(dialect);
      const anchors = new Set([...page.matchAll(/^## (.+)$/gm)].map((m) => headingAnchor(m[1])));
      const paths: (string | number)[][] =
        dialect === 'polytoken'
          ? [['name'], ['polytoken', 'tools_deny'], ['polytoken', 'exit_tool_schema']]
          : dialect === 'picasso'
            ? [['max_steps'], ['hooks', 'skip']]
            : [['delegationBrief'], ['subagents', 0, 'system_prompt']];
      for (const path of paths) {
        const md = keyDocMarkdown(dialect, path, keyDoc(dialect, path)!);
        const anchor = /#([\w-]+)\)$/.exec(md)![1];
        assert.ok(anchors.has(anchor), `${anchor} in ${[...anchors].join(', ')}`);
      }
    });
  }
});
