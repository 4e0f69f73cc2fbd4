/**
 * How the engine reads a workspace: one interface, two implementations.
 *
 * - the disk's, shared/node/host.ts: the CLI and the language server on Node;
 * - the editor's, server/mirror.ts: the files of a virtual workspace (`vscode-vfs:` in github.dev,
 *   `memfs:`) and every file when the server runs in a browser's Web Worker, read through the
 *   client (which answers with `vscode.workspace.fs`) and held in memory, loaded ahead of the
 *   synchronous reads below.
 *
 * Every answer is synchronous: configuration discovery runs inside each analysis. A host that
 * reads over the wire loads what the workspace index will ask before it asks (server/mirror.ts).
 */

export type EntryKind = 'file' | 'folder';

export interface DirEntry {
  name: string;
  kind: EntryKind;
}

/** Where the user's folders are: the global folder's default place is under `configHome`. */
export interface Homes {
  /** `$HOME`: `~/` in a configured path. */
  home: string;
  /** `$XDG_CONFIG_HOME`, else `$HOME/.config`. */
  configHome: string;
}

export interface WorkspaceHost {
  /**
   * A folder's regular files (links to regular files included) and folders (a link to a folder
   * is not listed: it is never followed); undefined when it cannot be listed.
   */
  readDirectory(dir: string): DirEntry[] | undefined;
  /**
   * A regular file's text within the size limit; throws an Error that says why not (missing, a folder, too large, ...).
   */
  readFile(path: string): string;
  /** What is at the path, links followed; undefined for nothing, or something that is neither (a FIFO). */
  stat(path: string): EntryKind | undefined;
  /** The URI the editor knows a path by. */
  toUri(path: string): string;
  /** The user's home folders; undefined where there are none (a browser): then there is no global folder. */
  homes(): Homes | undefined;
}

/** A regular file's text, or undefined when the host cannot read it (for callers that only skip such files). */
export function readIfRegular(host: WorkspaceHost, path: string): string | undefined {
  try {
    return host.readFile(path);
  } catch {
    return undefined;
  }
}

/** Folders every walk skips. */
const SKIPPED = new Set(['node_modules', '.git']);

/** Whether a folder of this name is skipped by every walk. */
export const isSkippedFolder = (name: string): boolean => SKIPPED.has(name);

/** Whether a path lies in a folder every walk skips (node_modules, .git). */
export function inSkippedFolder(path: string): boolean {
  return path.split('/').some((segment) => SKIPPED.has(segment));
}

/**
 * Every file below `root` through a host, one folder per step: each step lists one folder and
 * yields its files (posix paths). node_modules and .git are skipped; links to folders are never
 * listed (WorkspaceHost.readDirectory), so a link loop cannot make the walk endless. A caller that
 * must stay responsive yields to its event loop between steps.
 */
export function* walkHost(host: WorkspaceHost, root: string): Generator<string[]> {
  const stack = [root.length > 1 && root.endsWith('/') ? root.slice(0, -1) : root];
  while (stack.length) {
    const dir = stack.pop()!;
    const files: string[] = [];
    for (const entry of host.readDirectory(dir) ?? []) {
      const full = dir === '/' ? `/${entry.name}` : `${dir}/${entry.name}`;
      if (entry.kind === 'file') files.push(full);
      else if (!SKIPPED.has(entry.name)) stack.push(full);
    }
    yield files;
  }
}

/**
 * The short reason an error gives for a file or folder that cannot be read (a Node error code, else its first line).
 */
export function describeError(e: unknown): string {
  const err = e as { code?: unknown; message?: unknown };
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
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EDQUOT':
      return 'disk quota exceeded';
    case 'EFBIG':
      return 'file too large for the file system or the process size limit';
    case 'EROFS':
      return 'read-only file system';
    default:
      return typeof err?.message === 'string' && err.message ? err.message.split('\n')[0] : String(e);
  }
}
