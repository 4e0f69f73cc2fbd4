/**
 * Random texts inside the subset the fast YAML reader promises to read itself (shared/text/yaml-fast.ts): block
 * mappings and sequences, plain and simple quoted scalars, one-line flow collections, `|` and `|-` blocks, comments
 * after a value. Where randomYaml (yaml-gen.ts) tests that the reader is never wrong, these test that it does not
 * leave to the package what it can read: a reader that gives up more often is slower, and nothing else shows it.
 */

const KEYS = ['a', 'b', 'name', 'tools', 'x y', 'k-1', 'é', '"q"', "'s'", "'it''s'", '"a b"', 'k#x', '-k', 'a.b'];
const SCALARS = [
  'v',
  'two words',
  'ends.',
  'a#b',
  'http://x.y:80/z',
  "don't",
  'say "hi"',
  '-x',
  '😀',
  '1',
  '-1',
  '+1',
  '012',
  '0o17',
  '0x1F',
  '1.5',
  '1.',
  '.5',
  '1e3',
  '-.Inf',
  '.nan',
  'true',
  'False',
  'tRue',
  'null',
  'NULL',
  '~',
  '"dq"',
  '""',
  "'sq'",
  "'it''s'",
  "''",
];
const FLOWS = [
  '[]',
  '{}',
  '[ ]',
  '[a, b]',
  '[ a , b ]',
  '[1, 2.5, true, null]',
  "['a', \"b\", 'c''d']",
  '{a: b, n: 1}',
  '{ name: shell, tags: [exec, read] }',
  '{"a": b}',
  '[a, [b, c], {d: e}]',
  '{a: 1, a: 2}',
  '[-1, -x]',
];
const BLOCK_LINES = ['text', 'more text', '# not a comment', 'key: v', '- item', "'q'"];

/** One text the fast reader must read itself. Deterministic for a `rand`. */
export function plainOnlyYaml(rand: () => number): string {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)];
  const lines: string[] = [];
  const spaces = (n: number) => ' '.repeat(n);
  const trail = () => (rand() < 0.15 ? pick([' # t', '  # two', ' #']) : '');

  /** What follows `head` (a `key:` or a `-`) in column `indent`; whether it is a value written on the head's line. */
  const value = (head: string, indent: number, depth: number, inSeq: boolean): boolean => {
    const r = rand();
    const onHeadLine = r < 0.5 || depth > 4;
    if (onHeadLine) lines.push(`${head} ${pick(r < 0.4 || depth > 4 ? SCALARS : FLOWS)}${trail()}`);
    else if (r < 0.6) {
      lines.push(`${head} ${pick(['|', '|-', '| # h', '|- # h'])}`);
      const inner = indent + 1 + Math.floor(rand() * 3);
      const count = 1 + Math.floor(rand() * 3);
      for (let i = 0; i < count; i++) {
        // A blank line inside the block, no longer than its indentation (never first: it would set that).
        if (i > 0 && rand() < 0.3) lines.push(spaces(Math.floor(rand() * (inner + 1))));
        lines.push(spaces(inner + (i > 0 && rand() < 0.2 ? 2 : 0)) + pick(BLOCK_LINES));
      }
    } else if (r < 0.68) lines.push(head);
    else if (inSeq && r < 0.78) {
      // A compact mapping: `- k: v` and its next keys in the first key's column.
      const column = indent + 2;
      value(`${head} ${pick(KEYS)}:`, column, depth + 1, false);
      const more = Math.floor(rand() * 3);
      for (let i = 0; i < more; i++) value(`${spaces(column)}${pick(KEYS)}:`, column, depth + 1, false);
    } else {
      lines.push(head + (rand() < 0.15 ? ' # after' : ''));
      // A mapping's sequence may sit in the mapping's own column.
      const inner = !inSeq && rand() < 0.2 ? indent : indent + 1 + Math.floor(rand() * 3);
      collection(inner, depth + 1, !inSeq && inner === indent ? 'seq' : undefined);
    }
    return onHeadLine;
  };
  const collection = (indent: number, depth: number, kind?: 'seq') => {
    const seq = kind === 'seq' || rand() < 0.4;
    const count = 1 + Math.floor(rand() * 4);
    let oneLine = false;
    for (let i = 0; i < count; i++) {
      // A comment line between two entries, in their column: after a value written on its entry's line, and before an
      // entry that is not empty (elsewhere the package's ranges depend on the comment, and the reader leaves it).
      const at = lines.length;
      const commentable = oneLine;
      oneLine = seq
        ? value(`${spaces(indent)}-`, indent, depth, true)
        : value(`${spaces(indent)}${pick(KEYS)}:`, indent, depth, false);
      if (commentable && !/(:|-)$/.test(lines[at]) && rand() < 0.15) lines.splice(at, 0, `${spaces(indent)}# between`);
      if (rand() < 0.1) lines.push('');
    }
  };
  collection(0, 0);
  return lines.join('\n') + (rand() < 0.9 ? '\n' : '');
}
