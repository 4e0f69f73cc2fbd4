/**
 * Profy allowlist globs (docs/runtimes/profy.md): `*` matches any run of characters (also none), `?` exactly one
 * character (a code point, not a UTF-16 unit), nothing else is special. Matching is
 * anchored and case-sensitive; a prefix pattern such as `mcp__ledger__*` is just a glob.
 *
 * No regular expression: a backtracking one takes exponential time on `a*a*a*…b`
 * against a long name. The matcher below places the pieces between stars greedily, left
 * to right, which is exact for this glob language, in at most (name length)² steps.
 */
import { onForgetMemos } from '../../memos';

export function isGlob(entry: string): boolean {
  return entry.includes('*') || entry.includes('?');
}

type Piece = (string | undefined)[];

/** A pattern split at its stars: code points, `undefined` standing for `?`. */
interface CompiledGlob {
  /** Without a star the whole pattern is `head`, matched exactly. */
  star: boolean;
  head: Piece;
  /** The non-empty pieces between the first and the last star. */
  middle: Piece[];
  tail: Piece;
  /** Code points a matching name has at least. */
  minLength: number;
}

const cache = new Map<string, CompiledGlob>();
onForgetMemos(() => cache.clear());

function compile(pattern: string): CompiledGlob {
  let glob = cache.get(pattern);
  // Stryker disable next-line ConditionalExpression: a cache; compiling again gives the same glob
  if (!glob) {
    const pieces: Piece[] = [[]];
    for (const ch of pattern) {
      if (ch === '*') pieces.push([]);
      else pieces[pieces.length - 1].push(ch === '?' ? undefined : ch);
    }
    const head = pieces[0];
    // Stryker disable next-line ConditionalExpression,EqualityOperator,ArrayDeclaration: without a star only `head` is read
    const tail = pieces.length > 1 ? pieces[pieces.length - 1] : [];
    // Stryker disable next-line MethodExpression,ConditionalExpression,EqualityOperator: an empty piece matches at any place and adds no length
    const middle = pieces.slice(1, -1).filter((p) => p.length > 0);
    let minLength = head.length + tail.length;
    // Stryker disable next-line AssignmentOperator: minLength is a shortcut; a smaller one only rejects later
    for (const p of middle) minLength += p.length;
    glob = { star: pieces.length > 1, head, middle, tail, minLength };
    // Stryker disable next-line ConditionalExpression,EqualityOperator: when the cache is emptied changes only time and memory
    if (cache.size > 500) cache.clear();
    cache.set(pattern, glob);
  }
  return glob;
}

/** A name indexable by code point: the string itself when it has no surrogate pair (most do), else its code points. */
type CodePoints = string | readonly string[];
const SURROGATE = /[\uD800-\uDFFF]/;
const codePoints = (name: string): CodePoints => (SURROGATE.test(name) ? Array.from(name) : name);

/** Whether `piece` matches `name` at code point `at`. */
function pieceAt(piece: Piece, name: CodePoints, at: number): boolean {
  // Stryker disable next-line EqualityOperator: one step past the piece reads `undefined`, the `?` that matches anything
  for (let i = 0; i < piece.length; i++) {
    const want = piece[i];
    if (want !== undefined && want !== name[at + i]) return false;
  }
  return true;
}

function matches(glob: CompiledGlob, name: CodePoints): boolean {
  if (!glob.star) return name.length === glob.head.length && pieceAt(glob.head, name, 0);
  if (name.length < glob.minLength) return false;
  if (!pieceAt(glob.head, name, 0) || !pieceAt(glob.tail, name, name.length - glob.tail.length)) return false;
  // Between the head and the tail, the leftmost place for each piece leaves the most room for the rest.
  let from = glob.head.length;
  const until = name.length - glob.tail.length;
  for (const piece of glob.middle) {
    let at = from;
    // Stryker disable next-line ArithmeticOperator: a bound for speed; the check below rejects a place past `until` either way
    while (at + piece.length <= until && !pieceAt(piece, name, at)) at++;
    if (at + piece.length > until) return false;
    from = at + piece.length;
  }
  return true;
}

export function globMatches(pattern: string, name: string): boolean {
  return matches(compile(pattern), codePoints(name));
}

/**
 * A toolset ready for matching, made once per toolset (every glob entry is expanded against it; a toolset is not
 * changed once built).
 */
interface ToolsetIndex {
  /** Each tool's code points. */
  names: CodePoints[];
  /** The tools' indexes in string order, to find those with a given literal prefix by binary search. */
  sorted: number[];
}

let indexes = new WeakMap<readonly string[], ToolsetIndex>();
onForgetMemos(() => (indexes = new WeakMap()));

function indexOf(toolset: readonly string[]): ToolsetIndex {
  let index = indexes.get(toolset);
  // Stryker disable next-line ConditionalExpression: a cache; indexing again gives the same index
  if (!index) {
    // A disable comment is read where it leads a statement: the order is one.
    // Stryker disable next-line EqualityOperator,ConditionalExpression: the names of a toolset are unique, and Array.prototype.sort only asks whether the result is negative
    const byName = (a: number, b: number) => (toolset[a] < toolset[b] ? -1 : toolset[a] > toolset[b] ? 1 : 0);
    const sorted = toolset.map((_, i) => i).sort(byName);
    indexes.set(toolset, (index = { names: toolset.map(codePoints), sorted }));
  }
  return index;
}

/** The pattern's text before its first wildcard. */
function literalPrefix(glob: CompiledGlob): string {
  let out = '';
  for (const ch of glob.head) {
    if (ch === undefined) break;
    out += ch;
  }
  return out;
}

/** Match attempts a budget allows; expansion stops (undefined) when it runs out. */
export interface MatchBudget {
  left: number;
}

/**
 * The tools a glob matches, in the toolset's order; undefined when `budget` runs out first.
 * A glob with a literal prefix (`mcp__ledger__*`) only looks at the tools that start with it.
 */
export function expandGlob(
  pattern: string,
  toolset: readonly string[],
  budget: MatchBudget = { left: Infinity },
): string[] | undefined {
  const glob = compile(pattern);
  const { names, sorted } = indexOf(toolset);
  const prefix = literalPrefix(glob);
  // Stryker disable next-line ConditionalExpression: the search for an empty prefix starts at the first tool anyway
  if (prefix) {
    let lo = 0;
    let hi = sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (toolset[sorted[mid]] < prefix) lo = mid + 1;
      else hi = mid;
    }
    const candidates: number[] = [];
    for (let k = lo; k < sorted.length && toolset[sorted[k]].startsWith(prefix); k++) candidates.push(sorted[k]);
    candidates.sort((a, b) => a - b);
    if ((budget.left -= candidates.length) < 0) return undefined;
    const out: string[] = [];
    for (const i of candidates) if (matches(glob, names[i])) out.push(toolset[i]);
    return out;
  }
  // No literal prefix: every tool is a candidate.
  if ((budget.left -= toolset.length) < 0) return undefined;
  const out: string[] = [];
  for (let i = 0; i < toolset.length; i++) if (matches(glob, names[i])) out.push(toolset[i]);
  return out;
}
