/**
 * The folders a run works in, and what a link may reach from them. A repository can ship a
 * definition that is a symbolic link to any file of the machine (`~/.config/…/token`); read,
 * its content would be quoted in diagnostics, and a CI run would upload them (SARIF). So a
 * definition or configuration that is a link leading out of every root is not read; the run
 * says so (docs/security.md).
 */
import * as fs from 'fs';
import { posix } from 'path';
import { relativeInside, toPosix } from '../shared';
import { absolutePath } from './common';

/** The root holding `path` (a root itself counts), or undefined. */
export function rootOf(folders: readonly string[], path: string): string | undefined {
  return folders.find((root) => path === root || relativeInside(root, path) !== undefined);
}

/** Where a path leads once every link is followed, or undefined when it does not exist. */
export function realTarget(path: string): string | undefined {
  try {
    return toPosix(fs.realpathSync.native(path));
  } catch {
    return undefined;
  }
}

/**
 * The real folders of the given paths (a file's own folder; a path that does not exist yet, or a
 * glob, by its nearest existing folder), plus the current folder when `withCwd`.
 */
export function inputRoots(given: readonly string[], cwd: string, withCwd: boolean): string[] {
  const roots = new Set<string>();
  const add = (p: string | undefined) => p !== undefined && roots.add(p);
  if (withCwd) add(realTarget(cwd));
  for (const input of given) {
    for (let p = absolutePath(cwd, input); ; p = posix.dirname(p)) {
      let stat: fs.Stats | undefined;
      try {
        stat = fs.statSync(p, { throwIfNoEntry: false });
      } catch {
        break; // unreadable: nothing there
      }
      if (stat) {
        add(realTarget(stat.isDirectory() ? p : posix.dirname(p)));
        break;
      }
      if (posix.dirname(p) === p) break;
    }
  }
  return [...roots];
}

/**
 * Why a file found inside the roots may not be read: it is a link that leads out of every root.
 * Undefined for a file that is no link (one `lstat`), a link inside, or a missing file.
 */
export function linkRefusal(
  roots: readonly string[],
  where = roots.length === 1 ? roots[0] : 'the checked folders',
): (path: string) => string | undefined {
  return (path) => {
    let link: boolean;
    try {
      link = fs.lstatSync(path).isSymbolicLink();
    } catch {
      return undefined; // missing: reading it reports that
    }
    if (!link) return undefined;
    const target = realTarget(path);
    return target === undefined || rootOf(roots, target) !== undefined
      ? undefined
      : `is a link to a file outside ${where}; it is not read`;
  };
}

/**
 * The folders a command reads definitions in: the given paths' folders (the current folder
 * without any path), the current folder too when every path given is inside it (links within
 * the project stay fine), and the `--config` file's folder.
 */
export function readRoots(given: readonly string[], cwd: string, configFile?: string): string[] {
  const inputs = given.length ? [...given] : ['.'];
  const base = toPosix(cwd);
  const insideCwd = inputs.every((p) => {
    const abs = absolutePath(cwd, p);
    return abs === base || relativeInside(base, abs) !== undefined;
  });
  return inputRoots(configFile ? [...inputs, configFile] : inputs, cwd, insideCwd);
}
