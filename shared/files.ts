import picomatch from 'picomatch';
import { posix } from 'path';
import type { LoadedConfig } from './config/config';
import { DEFAULT_GLOBS } from './globs';
import { DIALECTS, type Dialect } from './basics';

export { DEFAULT_GLOBS };

/**
 * A path with `/` separators, by the rules of `platform`: on Windows `\\` separates folders and
 * becomes `/`; on every other platform it is an ordinary character of a name (`a\b.md` is one
 * file, whose stem is `a\b`) and is kept.
 */
export function toPosixOn(platform: NodeJS.Platform, p: string): string {
  return platform === 'win32' && p.includes('\\') ? p.replace(/\\/g, '/') : p;
}

/** toPosixOn for the platform we run on: every path from the file system or the user goes through it. */
export const toPosix = (p: string): string => toPosixOn(process.platform, p);

type Matcher = (path: string) => boolean;

/**
 * picomatch(globs, { dot: true }) for posix paths, as a plain test of the same regular
 * expressions: picomatch's matcher builds two result objects for every path and glob, and a
 * check classifies tens of thousands. (On Windows, picomatch's own matcher, which also takes `\\`.)
 */
export function globMatcher(globs: readonly string[]): Matcher {
  if (process.platform === 'win32') return picomatch(globs as string[], { dot: true });
  const regexes = globs.map((glob) => picomatch.makeRe(glob, { dot: true, windows: false }));
  // A glob ending in `*` and a plain name part (`**/*.expert.json`) only matches paths ending in that part: most paths fail on it.
  // (Not a negated one: `!…` matches what the rest does not. picomatch also takes one trailing `/`.)
  const suffixes = globs.map((glob) => (glob.startsWith('!') ? '' : (/\*([\w.-]+)$/.exec(glob)?.[1] ?? '')));
  const mayMatch = (path: string, suffix: string) =>
    path.endsWith(suffix) || (path.endsWith('/') && path.endsWith(`${suffix}/`));
  return (path) => {
    if (path === '') return false;
    for (let i = 0; i < regexes.length; i++)
      if (path === globs[i] || (mayMatch(path, suffixes[i]) && regexes[i].test(path))) return true;
    return false;
  };
}

const matcherCache = new WeakMap<
  LoadedConfig,
  { ignore: Matcher; extra: Partial<Record<Dialect, Matcher>>; dirs: Set<string> }
>();
const defaultMatchers = Object.fromEntries(
  DIALECTS.map((d) => [d, globMatcher(DEFAULT_GLOBS[d])]),
) as unknown as Record<Dialect, Matcher>;

function matchersFor(loaded: LoadedConfig) {
  let m = matcherCache.get(loaded);
  if (!m) {
    const { config } = loaded;
    const never: Matcher = () => false;
    const extra: Partial<Record<Dialect, Matcher>> = {};
    for (const d of DIALECTS) if (config.files[d]?.length) extra[d] = globMatcher(config.files[d]!);
    const dirs = new Set(config.polytoken.subagentDirs.map((d) => posix.resolve(loaded.dir, toPosix(d))));
    m = { ignore: config.ignore.length ? globMatcher(config.ignore) : never, extra, dirs };
    matcherCache.set(loaded, m);
  }
  return m;
}

/** `path` relative to `dir` when it is inside it, else undefined. */
export function relativeInside(dir: string, path: string): string | undefined {
  // The common case (a normalized absolute path below its folder) without posix.relative.
  if (
    dir.charCodeAt(0) === 47 &&
    path.charCodeAt(dir.length) === 47 &&
    path.length > dir.length + 1 &&
    path.startsWith(dir) &&
    isNormal(path)
  )
    return path.slice(dir.length + 1);
  const rel = posix.relative(dir, path);
  return rel && !rel.startsWith('../') && rel !== '..' && !posix.isAbsolute(rel) ? rel : undefined;
}

/** No `.`/`..` segment, no doubled or trailing `/` (which also rules out a folder ending in `/`): slicing gives what posix.relative would. */
function isNormal(path: string): boolean {
  return !/\/\.{0,2}(\/|$)/.test(path);
}

function hasSkippedFolder(path: string): boolean {
  return /(^|\/)(node_modules|\.git)\//.test(path);
}

/**
 * The dialect of a file, decided by its path alone (docs/runtimes/<dialect>.md, which files are definitions). `path` is absolute;
 * `root` is the workspace folder the default globs are relative to.
 */
export function dialectOf(path: string, loaded: LoadedConfig, root?: string): Dialect | undefined {
  const abs = toPosix(path);
  const m = matchersFor(loaded);
  const inConfig = relativeInside(loaded.dir, abs);
  if (inConfig !== undefined && m.ignore(inConfig)) return undefined;
  const dir = posix.dirname(abs);
  if (abs.endsWith('.md') && ((loaded.globalDir && dir === loaded.globalDir) || m.dirs.has(dir))) return 'polytoken';
  const rel = (root && relativeInside(toPosix(root), abs)) ?? abs.replace(/^\/+/, '');
  if (hasSkippedFolder(rel)) return undefined;
  for (const d of DIALECTS) {
    if (defaultMatchers[d](rel)) return d;
    if (inConfig !== undefined && m.extra[d]?.(inConfig)) return d;
  }
  return undefined;
}

const isNormalAbsolute = (path: string) => path.charCodeAt(0) === 47 && (path === '/' || isNormal(path));

/**
 * dialectOf for the files of one folder, with what depends on the folder alone worked out
 * once (checkPaths classifies ten thousand files in a thousand folders): the answer for
 * `name` is dialectOf(`${dir}/${name}`, loaded, root).
 */
export function folderDialects(
  dir: string,
  loaded: LoadedConfig,
  root?: string,
): (name: string) => Dialect | undefined {
  const rootDir = root === undefined ? undefined : toPosix(root);
  const join = (name: string) => (dir === '/' ? `/${name}` : `${dir}/${name}`);
  // Slicing is exact for normalized absolute paths only; anything else takes the per-file way.
  if (!isNormalAbsolute(dir) || !isNormalAbsolute(loaded.dir) || (rootDir !== undefined && !isNormalAbsolute(rootDir)))
    return (name) => dialectOf(join(name), loaded, root);
  const m = matchersFor(loaded);
  /** The folder relative to `base` ('' for base itself), undefined outside it. */
  const below = (base: string) => (dir === base ? '' : relativeInside(base, dir));
  const inConfigDir = below(loaded.dir);
  const discovery = (!!loaded.globalDir && dir === loaded.globalDir) || m.dirs.has(dir);
  const relDir = (rootDir && below(rootDir)) ?? dir.slice(1);
  const skipped = relDir !== '' && hasSkippedFolder(`${relDir}/`);
  return (name) => {
    const inConfig = inConfigDir === undefined ? undefined : inConfigDir ? `${inConfigDir}/${name}` : name;
    if (inConfig !== undefined && m.ignore(inConfig)) return undefined;
    if (discovery && name.endsWith('.md')) return 'polytoken';
    if (skipped) return undefined;
    const rel = relDir ? `${relDir}/${name}` : name;
    for (const d of DIALECTS) {
      if (defaultMatchers[d](rel)) return d;
      if (inConfig !== undefined && m.extra[d]?.(inConfig)) return d;
    }
    return undefined;
  };
}

/** True when a file is in the Polytoken global folder (read for shadowing, never reported). */
export function isInGlobalDir(path: string, loaded: LoadedConfig): boolean {
  return !!loaded.globalDir && posix.dirname(toPosix(path)) === loaded.globalDir;
}
