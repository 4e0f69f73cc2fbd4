/**
 * What `checkPaths` makes of each command-line input: a file, a folder (walked), or a
 * quoted glob the shell did not expand (`'agents/**\/*.md'`), expanded here with the
 * walker's rules.
 */
import * as fs from 'fs';
import { posix } from 'path';
import picomatch from 'picomatch';
import { nearMissOf, unsafeGlobReason } from '../../shared';
import { toPosix } from '../../shared';
import { describeError, walkFiles, type UndecodableFile, type WalkProblem } from '../../shared/node';

/** An input that cannot be used: the CLI prints the message and exits 2. */
export class InputError extends Error {}

/** An input that names nothing: neither an existing path nor a glob. */
export class MissingPathError extends InputError {}

export interface ExpandedInput {
  /** What the input was: a file (checked whatever its name), a folder or a glob. */
  form: 'file' | 'folder' | 'glob';
  /** The folder the default globs are tried relative to. */
  root: string;
  /** Absolute posix paths, sorted. */
  files: string[];
  /** Files found whose names are not valid UTF-8 (not in `files`: they cannot be read). */
  undecodable: UndecodableFile[];
  /**
   * Of a walk (a folder, a glob), the files that are links: every other file it lists is none.
   * Undefined for a file named directly, which may be one.
   */
  links?: ReadonlySet<string>;
}

/**
 * Expands one input. An existing path is taken literally, also when it holds glob
 * characters; otherwise a glob is walked from its static base (node_modules and .git
 * are never searched). A file matches when its path below the base, or one of its
 * folders, matches the glob: `'projects/*'` selects every file of every project.
 * `virtual` paths (standard input checked as a file) need not exist.
 */
export function expandInput(
  input: string,
  cwd: string,
  problems: WalkProblem[],
  virtual?: ReadonlySet<string>,
  onFile?: (path: string) => void,
): ExpandedInput {
  const pattern = toPosix(input);
  const abs = posix.resolve(cwd, pattern);
  const undecodable: UndecodableFile[] = [];
  if (virtual?.has(abs)) return { form: 'file', root: posix.dirname(abs), files: [abs], undecodable };
  let stat: fs.Stats | undefined;
  let statError: unknown;
  try {
    stat = fs.statSync(abs);
  } catch (e) {
    statError = e;
  }
  const links = new Set<string>();
  if (stat) {
    if (stat.isDirectory()) {
      const files = walkFiles(abs, problems, undecodable, onFile, links);
      return { form: 'folder', root: abs, files, undecodable, links };
    }
    return { form: 'file', root: posix.dirname(abs), files: [abs], undecodable };
  }
  const scan = picomatch.scan(pattern);
  if (!scan.isGlob) throw new MissingPathError(`${input}: ${describeError(statError)}${undecodableHint(input)}`);
  // The same bound as for the configuration's globs: matching must stay fast on every path.
  const unsafe = unsafeGlobReason(scan.glob);
  if (unsafe) throw new InputError(`${input}: this pattern is refused: ${unsafe}`);
  const base = posix.resolve(cwd, scan.base || '.');
  const matches = picomatch(scan.glob, { dot: true });
  let baseStat: fs.Stats | undefined;
  try {
    baseStat = fs.statSync(base);
  } catch {
    // A glob below a folder that does not exist matches nothing.
  }
  const selected = (path: string) => matchesSelfOrFolder(matches, posix.relative(base, path));
  const files = baseStat?.isDirectory() ? walkFiles(base, problems, undecodable, onFile, links).filter(selected) : [];
  return { form: 'glob', root: base, files, undecodable: undecodable.filter((u) => selected(u.path)), links };
}

/**
 * Node passes an argument that is not valid UTF-8 with U+FFFD in place of each bad byte, and
 * no such path exists: say so rather than leave "no such file" unexplained.
 */
function undecodableHint(input: string): string {
  return input.includes('\uFFFD')
    ? ' (if the name holds bytes that are not valid UTF-8: such a file cannot be checked; name its folder to have it reported)'
    : '';
}

function matchesSelfOrFolder(matches: (path: string) => boolean, rel: string): boolean {
  if (matches(rel)) return true;
  for (let slash = rel.indexOf('/'); slash > 0; slash = rel.indexOf('/', slash + 1)) {
    if (matches(rel.slice(0, slash))) return true;
  }
  return false;
}

export interface UnmatchedInput {
  input: string;
  form: ExpandedInput['form'];
  /** A file of the input that looks meant as a definition (shared `nearMissOf`), and what its runtime reads instead. */
  nearMiss?: NearMiss;
}

export interface NearMiss {
  /** Relative to the current folder. */
  path: string;
  /** `Polytoken subagent` */
  definition: string;
  runtime: string;
  globs: readonly string[];
}

/** The first of `files` (absolute, posix) that looks meant as a definition, if any. */
export function nearMissIn(files: readonly string[], cwd: string): NearMiss | undefined {
  for (const file of files) {
    const module = nearMissOf(file);
    if (module)
      return {
        path: posix.relative(cwd, file) || '.',
        definition: module.labels.definition,
        runtime: module.title,
        globs: module.files.defaultGlobs,
      };
  }
  return undefined;
}

/** A file named on its own (or standard input's name) that is no definition, `abs` its absolute path. */
export const unmatchedFile = (input: string, abs: string, cwd: string): UnmatchedInput => {
  const nearMiss = nearMissIn([abs], cwd);
  return nearMiss ? { input, form: 'file', nearMiss } : { input, form: 'file' };
};

/** `a Polytoken subagent, but Polytoken reads only **\/.polytoken/subagents/*.md` */
const meantAs = (n: NearMiss) =>
  `${/^[aeiou]/i.test(n.definition) ? 'an' : 'a'} ${n.definition}, but ${n.runtime} reads only ${n.globs.join(', ')}`;

/** What to say of a file named on its own that looks meant as a definition. */
export const nearMissAdvice = (n: NearMiss) =>
  `it looks like ${meantAs(n)}; move it there, or add a glob that matches it under \`files:\` in .subagents.yaml`;

/** The one-line reason an input holds no definition file. */
export function describeUnmatched(u: UnmatchedInput): string {
  switch (u.form) {
    case 'file':
      return u.nearMiss
        ? `${u.input}: not a definition file by its path: ${nearMissAdvice(u.nearMiss)}`
        : `${u.input}: not a definition file by its path (see the file patterns in \`subagents --help\`); to check it, add a glob that matches it under \`files:\` in .subagents.yaml`;
    case 'folder':
      return `${u.input}: no definition file in this folder (see the file patterns in \`subagents --help\`)${nearMissClause(u)}`;
    default:
      return `${u.input}: no definition file matches this pattern${nearMissClause(u)}`;
  }
}

const nearMissClause = (u: UnmatchedInput) =>
  u.nearMiss ? `; ${u.nearMiss.path} looks like ${meantAs(u.nearMiss)}` : '';

/** `checkPaths` with `failOnUnmatched`: some input holds no definition file; nothing was checked. */
export class UnmatchedInputError extends Error {
  constructor(readonly unmatched: UnmatchedInput[]) {
    const more =
      unmatched.length > 1 ? ` (and ${unmatched.length - 1} more input${unmatched.length > 2 ? 's' : ''})` : '';
    super(`${describeUnmatched(unmatched[0])}${more}`);
  }
}
