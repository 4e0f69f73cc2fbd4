import * as fs from 'fs';
import { posix } from 'path';
import { toPosix } from '../files';

const SKIPPED = new Set(['node_modules', '.git']);

export interface WalkProblem {
  path: string;
  message: string;
}

/**
 * Every file under `root` (posix paths), skipping node_modules and .git. Symbolic links
 * are followed once: a folder already visited (by its real path) is not entered again,
 * so link loops end. Unreadable or vanished entries are reported, never thrown.
 */
export function walkFiles(root: string, problems: WalkProblem[] = []): string[] {
  const files: string[] = [];
  const seen = new Set<string>();
  const stack = [toPosix(root)];
  while (stack.length) {
    const dir = stack.pop()!;
    let real: string;
    try {
      real = fs.realpathSync.native(dir); // one system call, not one lstat per path segment
    } catch (e) {
      problems.push({ path: dir, message: describeError(e) });
      continue;
    }
    if (seen.has(real)) continue;
    seen.add(real);
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      problems.push({ path: dir, message: describeError(e) });
      continue;
    }
    const subdirs: string[] = [];
    for (const entry of entries) {
      if (SKIPPED.has(entry.name)) continue;
      const full = posix.join(dir, entry.name);
      if (entry.isDirectory()) subdirs.push(full);
      else if (entry.isFile()) files.push(full);
      else if (entry.isSymbolicLink()) {
        try {
          const stat = fs.statSync(full);
          if (stat.isDirectory()) subdirs.push(full);
          else if (stat.isFile()) files.push(full);
        } catch {
          // A dangling link is not a file to check.
        }
      }
    }
    stack.push(...subdirs.sort().reverse());
  }
  return files.sort();
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
