import * as fs from 'fs';
import { posix } from 'path';
import { toPosix } from '../files';
import { isRegularFile } from './read';

const SKIPPED = new Set(['node_modules', '.git']);

export interface WalkProblem {
  path: string;
  message: string;
}

/**
 * Every file under `root` (posix paths, sorted), skipping node_modules and .git.
 * Symbolic links to folders are not followed (as ripgrep and ESLint do by default): a
 * link to `/` or a link loop would make the walk cover the whole filesystem or never
 * end. Links to regular files are listed; links to anything else (FIFOs, devices,
 * dangling links) are not. Unreadable or vanished folders are reported, never thrown.
 */
export function walkFiles(root: string, problems: WalkProblem[] = []): string[] {
  const files: string[] = [];
  for (const step of walkFolders(root, problems)) for (const file of step) files.push(file);
  return files.sort();
}

/**
 * The same walk, one folder per step: each step lists one folder and yields its files (maybe
 * none), in no particular order. A caller that must stay responsive (the language server
 * indexing `/`) can yield to its event loop between steps: nothing walks the tree up front.
 */
export function* walkFolders(root: string, problems: WalkProblem[] = []): Generator<string[]> {
  const top = posix.normalize(toPosix(root));
  const stack = [top.length > 1 && top.endsWith('/') ? top.slice(0, -1) : top];
  while (stack.length) {
    const dir = stack.pop()!;
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      problems.push({ path: dir, message: describeError(e) });
      continue;
    }
    const files: string[] = [];
    for (const entry of entries) {
      if (SKIPPED.has(entry.name)) continue;
      const full = dir === '/' ? `/${entry.name}` : dir === '.' ? entry.name : `${dir}/${entry.name}`; // dir is normalized: no posix.join needed
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile() || (entry.isSymbolicLink() && isRegularFile(full))) files.push(full);
    }
    yield files;
  }
}

/** Whether a path lies in a folder every walk skips (node_modules, .git). */
export function inSkippedFolder(path: string): boolean {
  return path.split('/').some((segment) => SKIPPED.has(segment));
}

export function describeError(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  switch (err?.code) {
    case 'ENOENT':
      return 'no such file or folder';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'is a folder';
    case 'ELOOP':
      return 'too many levels of symbolic links';
    default:
      return err?.message ? err.message.split('\n')[0] : String(e);
  }
}
