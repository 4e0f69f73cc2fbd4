/**
 * URI ⇄ path, and the identity of a document.
 *
 * One file has many spellings (`file:///ws/a.md`, `file:///ws/%61.md`, `file:///ws//./a.md`):
 * the server keys documents and the index by one canonical string per file, so two spellings
 * open at once are one file, not two definitions that shadow each other.
 *
 * Files the server can read have a path: `file:` URIs (the disk, or in a browser the client's
 * `file:` file system), and the URIs of a virtual workspace (`vscode-vfs:` in github.dev,
 * `memfs:`) once the client said it reads them (`registerVirtualScheme`). A virtual file's path
 * carries its file system in the first segment, `/<scheme>:<authority>/<path>`
 * (`/vscode-vfs:github/owner/repo/a.md`), so it never meets a disk path and `pathToUri` gives
 * the URI back. Globs and messages work on paths relative to a workspace folder, where that
 * segment never shows. A document of any other scheme (`git:`, `untitled:`) is its own thing,
 * identified by scheme, authority, path and query (a `git:` URI carries its revision in the
 * query), and never stands in for the file at the same path.
 */
import { posix } from 'path';
import { URI } from 'vscode-uri';
import { toPosix } from '../shared';

export interface DocumentIdentity {
  /** The canonical string: equal for every spelling of the same resource. */
  key: string;
  /** The normalized path (posix; a virtual file's with its file system first): dialects are decided by it. */
  path: string;
  /** A file the server reads (disk or virtual workspace): fixes may rename it or edit files beside it. */
  onDisk: boolean;
}

/** Schemes of virtual workspaces whose files the server reads through the client. */
const virtualSchemes = new Set<string>();

/** Files of this scheme are read through the client (it said so, and a workspace folder has the scheme). */
export function registerVirtualScheme(scheme: string): void {
  if (scheme !== 'file' && /^[a-z][a-z0-9+.-]+$/i.test(scheme)) virtualSchemes.add(scheme.toLowerCase());
}

/** The first segment of a virtual path: `/memfs:` or `/vscode-vfs:github`. */
const VIRTUAL_ROOT = /^\/([a-z][a-z0-9+.-]+):([^/]*)(?=\/|$)/i;

/** The scheme and authority of a virtual path and the rest of it; undefined for a disk path. */
function virtualParts(path: string): { scheme: string; authority: string; rest: string } | undefined {
  const m = VIRTUAL_ROOT.exec(path);
  if (!m || !virtualSchemes.has(m[1].toLowerCase())) return undefined;
  return { scheme: m[1].toLowerCase(), authority: m[2], rest: path.slice(m[0].length) || '/' };
}

/** Whether a path is a virtual workspace's (read through the client even where there is a disk). */
export const isVirtualPath = (path: string): boolean => virtualParts(path) !== undefined;

/** The root of a virtual path's file system (`/memfs:`); undefined for a disk path. */
export function virtualRoot(path: string): string | undefined {
  const m = virtualParts(path) && VIRTUAL_ROOT.exec(path);
  return m ? m[0] : undefined;
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
  const key = `${u.scheme}://${u.authority}${path}${u.query ? `?${u.query}` : ''}`;
  if (virtualSchemes.has(u.scheme.toLowerCase()) && !u.query && !u.fragment) {
    const root = `/${u.scheme}:${u.authority}`;
    return {
      key,
      path: path === '/' || path === '' ? root : `${root}${path.startsWith('/') ? '' : '/'}${path}`,
      onDisk: true,
    };
  }
  return { key, path, onDisk: false };
}

/** The normalized path (posix) of a file the server reads; undefined for other schemes and for what does not parse. */
export function uriToPath(uri: string): string | undefined {
  const identity = documentIdentity(uri);
  return identity?.onDisk ? identity.path : undefined;
}

export function pathToUri(path: string): string {
  const virtual = virtualParts(path);
  if (!virtual) return URI.file(path).toString();
  return URI.from({ scheme: virtual.scheme, authority: virtual.authority, path: virtual.rest }).toString();
}
