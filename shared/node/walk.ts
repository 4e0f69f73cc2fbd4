import { isUtf8 } from 'buffer';
import * as fs from 'fs';
import { posix } from 'path';
import { toPosix } from '../files';
import { printableBytes } from '../text/printable';
import { inSkippedFolder, isSkippedFolder, describeError } from '../host';
import { isRegularFile } from './read';

export { describeError, inSkippedFolder };

export interface WalkProblem {
  path: string;
  message: string;
}

/**
 * A file whose name is not valid UTF-8. Node decodes such a name with U+FFFD in place of
 * the bad bytes, and no file has the decoded name, so it cannot be read by it: the file is
 * reported (when it would be a definition), never checked.
 */
export interface UndecodableFile {
  /** The path with the name decoded (U+FFFD for each bad byte): enough to tell its dialect. */
  path: string;
  /** The name by its bytes (`bad\xff.md`). */
  name: string;
}

/** The message for a file or folder whose name is not valid UTF-8. */
export const undecodableMessage = (name: string, what: 'file' | 'folder') =>
  `${what} name is not valid UTF-8 (${name}); not ${what === 'file' ? 'checked' : 'searched'}`;

/**
 * Every file under `root` (posix paths, sorted), skipping node_modules and .git.
 * Symbolic links to folders are not followed (as ripgrep and ESLint do by default): a
 * link to `/` or a link loop would make the walk cover the whole filesystem or never
 * end. Links to regular files are listed; links to anything else (FIFOs, devices,
 * dangling links) are not. Unreadable or vanished folders are reported, never thrown,
 * and so are folders whose names are not valid UTF-8; files with such names go to `undecodable`.
 * `onFile` hears each file's path as the walk finds it; `links` gets the files that are links
 * (the folder's entries say so: a caller need not `lstat` the others).
 */
export function walkFiles(
  root: string,
  problems: WalkProblem[] = [],
  undecodable: UndecodableFile[] = [],
  onFile?: (path: string) => void,
  links?: Set<string>,
): string[] {
  const files: string[] = [];
  for (const step of walkFolders(root, problems, undecodable, links))
    for (const file of step) {
      files.push(file);
      onFile?.(file);
    }
  return files.sort();
}

/**
 * The same walk, one folder per step: each step lists one folder and yields its files (maybe
 * none), in no particular order. A caller that must stay responsive (the language server
 * indexing `/`) can yield to its event loop between steps: nothing walks the tree up front.
 */
export function* walkFolders(
  root: string,
  problems: WalkProblem[] = [],
  undecodable: UndecodableFile[] = [],
  links?: Set<string>,
): Generator<string[]> {
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
    let undecoded = false;
    for (const entry of entries) {
      if (isSkippedFolder(entry.name)) continue;
      // A name Node could not decode holds U+FFFD; such entries are listed again by bytes to tell which.
      if (entry.name.includes('\uFFFD')) {
        undecoded = true;
        continue;
      }
      const full = dir === '/' ? `/${entry.name}` : dir === '.' ? entry.name : `${dir}/${entry.name}`; // dir is normalized: no posix.join needed
      if (entry.isDirectory()) stack.push(full);
      else if (entry.isFile()) files.push(full);
      else if (entry.isSymbolicLink() && isRegularFile(full)) {
        files.push(full);
        links?.add(full);
      }
    }
    if (undecoded) listByBytes(dir, stack, files, problems, undecodable, links);
    yield files;
  }
}

/**
 * The entries of `dir` whose decoded names hold U+FFFD, listed again by the bytes of their
 * names: a name that really holds U+FFFD is walked as usual; one that is not UTF-8 is a
 * problem (a folder) or an undecodable file.
 */
function listByBytes(
  dir: string,
  stack: string[],
  files: string[],
  problems: WalkProblem[],
  undecodable: UndecodableFile[],
  links: Set<string> | undefined,
): void {
  let entries: fs.Dirent<Buffer>[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' });
  } catch (e) {
    problems.push({ path: dir, message: describeError(e) });
    return;
  }
  const prefix = dir === '/' ? '/' : dir === '.' ? '' : `${dir}/`;
  for (const entry of entries) {
    const full = prefix + entry.name.toString('utf8');
    if (!full.includes('\uFFFD', prefix.length)) continue; // listed already
    const valid = isUtf8(entry.name);
    if (entry.isDirectory()) {
      if (valid) stack.push(full);
      else problems.push({ path: full, message: undecodableMessage(printableBytes(entry.name), 'folder') });
      continue;
    }
    const bytes = Buffer.concat([Buffer.from(prefix), entry.name]);
    const link = !entry.isFile();
    if (link && !(entry.isSymbolicLink() && isRegularFile(bytes))) continue;
    if (!valid) {
      undecodable.push({ path: full, name: printableBytes(entry.name) });
      continue;
    }
    files.push(full);
    if (link) links?.add(full);
  }
}
