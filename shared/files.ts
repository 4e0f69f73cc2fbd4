import picomatch from 'picomatch';
import { posix } from 'path';
import type { LoadedConfig } from './config/types';

/**
 * A path with `/` separators, by the rules of `platform`: on Windows `\\` separates folders and
 * becomes `/`; on every other platform it is an ordinary character of a name (`a\b.md` is one
 * file, whose stem is `a\b`) and is kept.
 */
export function toPosixOn(platform: NodeJS.Platform, p: string): string {
  return platform === 'win32' && p.includes('\\') ? p.replace(/\\/g, '/') : p;
}

/** The platform we run on; in a browser (no `process`), posix paths. */
const PLATFORM: NodeJS.Platform = typeof process === 'object' && process?.platform ? process.platform : 'linux';

/** toPosixOn for the platform we run on: every path from the file system or the user goes through it. */
export const toPosix = (p: string): string => toPosixOn(PLATFORM, p);

export type Matcher = (path: string) => boolean;

/**
 * picomatch(globs, { dot: true }) for posix paths, as a plain test of the same regular
 * expressions: picomatch's matcher builds two result objects for every path and glob, and a
 * check classifies tens of thousands. (On Windows, picomatch's own matcher, which also takes `\\`.)
 */
export function globMatcher(globs: readonly string[]): Matcher {
  if (PLATFORM === 'win32') return picomatch(globs as string[], { dot: true });
  const regexes = globs.map((glob) => picomatch.makeRe(glob, { dot: true, windows: false }));
  // A glob ending in `*` and a plain name part (`**/*.expert.json`) only matches paths ending in that part: most paths
  // fail on it.
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

/**
 * No `.`/`..` segment, no doubled or trailing `/` (which also rules out a folder ending in `/`): slicing gives what
 * posix.relative would.
 */
export function isNormal(path: string): boolean {
  return !/\/\.{0,2}(\/|$)/.test(path);
}

/** True when a file is in the global folder (Polytoken's: read for shadowing, never reported). */
export function isInGlobalDir(path: string, loaded: LoadedConfig): boolean {
  return !!loaded.globalDir && posix.dirname(toPosix(path)) === loaded.globalDir;
}
