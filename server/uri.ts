/**
 * URI ⇄ path, and the identity of a document.
 *
 * One file has many spellings (`file:///ws/a.md`, `file:///ws/%61.md`, `file:///ws//./a.md`):
 * the server keys documents and the index by one canonical string per file, so two spellings
 * open at once are one file, not two definitions that shadow each other. Only `file:` URIs name
 * files on disk (what the disk host reads); a document of any other scheme (`git:`, `untitled:`,
 * `vscode-vfs:`) is its own thing, identified by scheme, authority, path and query (a `git:` URI
 * carries its revision in the query), and never stands in for the disk file at the same path.
 */
import { posix } from 'path';
import { URI } from 'vscode-uri';
import { toPosix } from '../shared';

export interface DocumentIdentity {
  /** The canonical string: equal for every spelling of the same resource. */
  key: string;
  /** The normalized path (a `file:` URI's file-system path, posix; else the URI's path): dialects are decided by it. */
  path: string;
  /** A `file:` URI: the document is the file at `path` on disk. */
  onDisk: boolean;
}

/** `a//b/./c/../d/` → `a/b/d`; the root stays `/`. */
function normalize(path: string): string {
  const normal = posix.normalize(path);
  return normal.length > 1 && normal.endsWith('/') ? normal.slice(0, -1) : normal;
}

/** The identity of a URI; undefined if it does not parse. */
export function documentIdentity(uri: string): DocumentIdentity | undefined {
  let u: URI;
  try {
    u = URI.parse(uri);
  } catch {
    return undefined;
  }
  if (u.scheme === 'file') {
    const path = normalize(toPosix(u.fsPath));
    return { key: `file://${path}`, path, onDisk: true };
  }
  const path = u.path ? normalize(u.path) : '';
  return { key: `${u.scheme}://${u.authority}${path}${u.query ? `?${u.query}` : ''}`, path, onDisk: false };
}

/** The normalized file-system path (posix) of a `file:` URI; undefined for other schemes and for what does not parse. */
export function uriToPath(uri: string): string | undefined {
  const identity = documentIdentity(uri);
  return identity?.onDisk ? identity.path : undefined;
}

export const pathToUri = (path: string): string => URI.file(path).toString();
