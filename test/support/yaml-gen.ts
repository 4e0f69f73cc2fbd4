/**
 * Random YAML-like texts for the differential test of the fast YAML reader: mostly the plain
 * YAML definitions are written in, with the near misses around it (odd indentation, comments
 * in every place, tricky scalars, flow collections, block scalars), then mutated character
 * by character. Deterministic for a seed.
 */
import * as path from 'path';
import { pathToFileURL } from 'url';

/** The bench's seeded generator (bench/generate.mjs, an ES module): `prng(seed)` gives numbers in [0, 1). */
export async function loadPrng(): Promise<(seed: number) => () => number> {
  const file = path.join(__dirname, '..', '..', '..', 'bench', 'generate.mjs');
  const module = (await import(pathToFileURL(file).href)) as { prng: (seed: number) => () => number };
  return module.prng;
}

const KEYS = [
  'a',
  'b',
  'c',
  'name',
  'tools',
  'x y',
  '-k',
  'k#x',
  '"q"',
  "'s'",
  "'it''s'",
  '"a b"',
  'k #x',
  '""',
  '1',
  '01',
  'true',
  'null',
  '~',
  '<<',
  '? x',
  'k:v',
  'é',
  '😀',
  '.5',
  'a\\b',
  '"a\\"b"',
  '[k]',
  '{k}',
  'k,',
  '@k',
  '&k',
  '*k',
  '!k',
  '%k',
];
const SCALARS = [
  'v',
  'word',
  'two words',
  'ends.',
  '1',
  '-1',
  '+1',
  '0',
  '00',
  '012',
  '0o17',
  '0o8',
  '0x1F',
  '0xg',
  '1.5',
  '1.',
  '1e3',
  '1E-2',
  '.5',
  '-.5',
  '.inf',
  '-.Inf',
  '+.INF',
  '.nan',
  '.NaN',
  'true',
  'False',
  'TRUE',
  'tRue',
  'null',
  'Null',
  'NULL',
  '~',
  'yes',
  'no',
  'on',
  '"dq"',
  '"d\\"q"',
  '"a\\nb"',
  "'sq'",
  "'it''s'",
  "''",
  '""',
  "'a''",
  '"a',
  'a: b',
  'a:b',
  'a:',
  'a #b',
  'a#b',
  '- x',
  '-x',
  '-',
  '?x',
  '? x',
  ':x',
  ': x',
  '@x',
  '`x',
  '%x',
  '!tag x',
  '!!str 1',
  '&a x',
  '*a',
  '|',
  '|-',
  '|+',
  '>',
  '>-',
  '|2',
  '|#c',
  '| #c',
  'x ',
  'x  ',
  'http://x.y/z',
  '12345678901234567890',
  '1_000',
  '0b1',
  '1:2',
  'a, b',
  'a ]',
  'a }',
  'a [b]',
  "don't",
  'say "hi"',
  '---',
  '...',
  'a\\b',
  '😀',
  'é',
  '#',
];
const FLOWS = [
  '[a, b]',
  '[]',
  '[ ]',
  '{}',
  '{ }',
  '{a: b}',
  '[a, [b, c]]',
  '{a: [b], c: {d: e}}',
  '{"a": b}',
  "['a', 'b''c']",
  '[ a , b ]',
  '[1, 2.5, true]',
  '[a,]',
  '[,a]',
  '[a,,b]',
  '{a}',
  '{a: }',
  '{a:b}',
  '[a: b]',
  '{"a":b}',
  '["a" : b]',
  '[-1, -x, - x]',
  '[a #b]',
  '[a#b]',
  '[a',
  '{a: b',
  '[a]]',
  '[a] b',
  '[a]: b',
  '{ name: shell, description: Runs a command., tags: [exec] }',
  '{a: 1, a: 2}',
  '[&x a, *x]',
  '[!t a]',
  '[a, "b\\"c"]',
  '["é", 😀]',
  '[? a]',
  '{? a: b}',
  '[a, {b: c}]',
  '[a:b]',
  '[:a]',
  '[a:]',
  '{<<: {a: b}}',
  '[[], {}]',
  '{a: [}',
];
const BLOCK_LINES = [
  'text',
  'more text',
  '# not a comment',
  'key: v',
  '- item',
  '',
  ' ',
  '  indented',
  '---',
  "'q'",
  '|',
];
const COMMENTS = ['# c', '#c', '# subagents-disable-next-line x', '#', '# a: b'];
const MUTATIONS = [
  ' ',
  '\n',
  '#',
  ':',
  '-',
  '"',
  "'",
  '[',
  ']',
  '{',
  '}',
  ',',
  '|',
  '>',
  '\t',
  '\r',
  'x',
  '&',
  '*',
  '!',
  '?',
];

export interface YamlGenOptions {
  /** Chance that the text is mutated afterwards (0..1). */
  mutate?: number;
}

/** One random text. */
export function randomYaml(rand: () => number, options: YamlGenOptions = {}): string {
  // Half the texts keep mostly to the first, plain entries of each list (what the fast reader takes).
  const plain = rand() < 0.5;
  const pick = <T>(list: readonly T[]): T =>
    list[Math.floor(rand() * (plain && rand() < 0.9 ? Math.min(list.length, 12) : list.length))];
  const lines: string[] = [];
  const spaces = (n: number) => ' '.repeat(Math.max(0, n));
  /** Blank lines and comments between entries, at random columns. */
  const filler = (indent: number) => {
    while (rand() < 0.15) {
      const r = rand();
      if (r < 0.4) lines.push('');
      else if (r < 0.55) lines.push(spaces(Math.floor(rand() * 6)));
      else lines.push(spaces(indent + Math.floor(rand() * 5) - 2) + pick(COMMENTS));
    }
  };
  const trail = () => (rand() < 0.1 ? ' # t' : rand() < 0.05 ? '#t' : rand() < 0.08 ? '  ' : '');
  /** Text after an indicator (`key:` or `-`) and the lines it owns. */
  const value = (head: string, indent: number, depth: number) => {
    const r = rand();
    if (r < 0.45) lines.push(`${head} ${pick(SCALARS)}${trail()}`);
    else if (r < 0.55) lines.push(`${head} ${pick(FLOWS)}${trail()}`);
    else if (r < 0.65) {
      lines.push(`${head} ${pick(['|', '|-', '| # h', '|+', '>', '|2'])}`);
      const inner = indent + 1 + Math.floor(rand() * 3);
      const count = Math.floor(rand() * 4);
      for (let i = 0; i < count; i++) {
        const text = pick(BLOCK_LINES);
        const shift = rand() < 0.8 ? 0 : Math.floor(rand() * 5) - 2;
        lines.push(text ? spaces(inner + shift) + text : spaces(rand() < 0.7 ? 0 : inner + shift));
      }
    } else if (r < 0.72 || depth > 4) lines.push(head + trail());
    else {
      lines.push(head + (rand() < 0.1 ? ' # after' : ''));
      filler(indent);
      const inner = rand() < 0.15 ? indent : indent + 1 + Math.floor(rand() * 3);
      collection(inner, depth + 1);
    }
  };
  const collection = (indent: number, depth: number) => {
    const seq = rand() < 0.4;
    const count = 1 + Math.floor(rand() * 4);
    for (let i = 0; i < count; i++) {
      const col = rand() < 0.93 ? indent : indent + Math.floor(rand() * 3) - 1;
      if (seq) {
        if (rand() < 0.2) {
          // A compact mapping: `- k: v` and its next keys in the key's column.
          value(`${spaces(col)}- ${pick(KEYS)}:`, col + 2, depth + 1);
          if (rand() < 0.5) value(`${spaces(col + 2)}${pick(KEYS)}:`, col + 2, depth + 1);
        } else value(`${spaces(col)}-`, col, depth);
      } else value(`${spaces(col)}${pick(KEYS)}:`, col, depth);
      filler(indent);
    }
  };
  filler(0);
  if (rand() < 0.05) lines.push(pick(SCALARS));
  else collection(rand() < 0.95 ? 0 : 1, 0);
  let text = lines.join('\n') + (rand() < 0.85 ? '\n' : '');
  if (rand() < (options.mutate ?? (plain ? 0.1 : 0.4))) text = mutate(rand, text);
  return text;
}

/** A few random insertions and deletions of YAML's significant characters. */
export function mutate(rand: () => number, text: string): string {
  const count = 1 + Math.floor(rand() * 3);
  for (let i = 0; i < count; i++) {
    const at = Math.floor(rand() * (text.length + 1));
    if (rand() < 0.35 && text.length) text = text.slice(0, at) + text.slice(at + 1);
    else text = text.slice(0, at) + MUTATIONS[Math.floor(rand() * MUTATIONS.length)] + text.slice(at);
  }
  return text;
}
