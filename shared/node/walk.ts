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
  // A folder reached through a real folder has a known real path; only links need realpath.
  const top = posix.normalize(toPosix(root));
  const stack: { dir: string; real?: string }[] = [{ dir: top.length > 1 && top.endsWith('/') ? top.slice(0, -1) : top }];
  while (stack.length) {
    const { dir, real: known } = stack.pop()!;
    let real: string;
    try {
      real = known ?? fs.realpathSync.native(dir);
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
    const subdirs: { dir: string; real?: string }[] = [];
    for (const entry of entries) {
      if (SKIPPED.has(entry.name)) continue;
      const full = dir === '/' ? `/${entry.name}` : dir === '.' ? entry.name : `${dir}/${entry.name}`; // dir is normalized: no posix.join needed
      if (entry.isDirectory()) subdirs.push({ dir: full, real: `${real === '/' ? '' : real}/${entry.name}` });
      else if (entry.isFile()) files.push(full);
      else if (entry.isSymbolicLink()) {
        try {
          const stat = fs.statSync(full);
          if (stat.isDirectory()) subdirs.push({ dir: full });
          else if (stat.isFile()) files.push(full);
        } catch {
          // A dangling link is not a file to check.
        }
      }
    }
    subdirs.sort((a, b) => (a.dir < b.dir ? 1 : a.dir > b.dir ? -1 : 0));
    for (const sub of subdirs) stack.push(sub);
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
