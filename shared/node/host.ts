/** The workspace host on the real file system (shared/host.ts): the CLI's and the Node server's. */
import * as fs from 'fs';
import * as os from 'os';
import { posix } from 'path';
import { URI } from 'vscode-uri';
import { toPosix } from '../files';
import type { DirEntry, Homes, WorkspaceHost } from '../host';
import { isRegularFile, readRegularFile } from './read';

/** `$HOME` and `$XDG_CONFIG_HOME` (else `$HOME/.config`) of an environment. */
export function homesOf(env: NodeJS.ProcessEnv = process.env): Homes {
  const home = toPosix(env.HOME || os.homedir());
  return { home, configHome: env.XDG_CONFIG_HOME ? toPosix(env.XDG_CONFIG_HOME) : posix.join(home, '.config') };
}

/** A folder's entries as the walker takes them: links to regular files are files, links to folders are left out. */
function readDirectory(dir: string): DirEntry[] | undefined {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return undefined;
  }
  const out: DirEntry[] = [];
  for (const entry of entries) {
    // A name Node could not decode holds U+FFFD: no file has that name (the CLI's walker reports them).
    if (entry.name.includes('\uFFFD')) continue;
    if (entry.isDirectory()) out.push({ name: entry.name, kind: 'folder' });
    else if (entry.isFile() || (entry.isSymbolicLink() && isRegularFile(posix.join(dir, entry.name))))
      out.push({ name: entry.name, kind: 'file' });
  }
  return out;
}

function stat(path: string): 'file' | 'folder' | undefined {
  try {
    const s = fs.statSync(path, { throwIfNoEntry: false });
    return s?.isFile() ? 'file' : s?.isDirectory() ? 'folder' : undefined;
  } catch {
    return undefined;
  }
}

/** The disk, with the environment's home folders (default: this process's). */
export function nodeHost(env?: NodeJS.ProcessEnv): WorkspaceHost {
  return {
    readDirectory,
    // Only regular files of at most 5 MB: a FIFO or a device named like a definition would block or never end.
    readFile: (path) => readRegularFile(path),
    stat,
    toUri: (path) => URI.file(path).toString(),
    homes: () => homesOf(env),
  };
}

export const nodeWorkspaceHost: WorkspaceHost = nodeHost();
