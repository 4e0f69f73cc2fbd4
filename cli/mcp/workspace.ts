/**
 * The MCP server's workspace: the client's `file://` roots when it offers roots, else the folder
 * the server started in. Every path a tool is given must lie inside one of them, also once
 * links are followed; files found inside that lead out through a link are never opened.
 */
import * as fs from 'fs';
import { posix } from 'path';
import { fileURLToPath } from 'url';
import picomatch from 'picomatch';
import { relativeInside, toPosix } from '../../shared';
import { describeError } from '../../shared/node';
import { relativePath } from '../common';
import { linkRefusal, realTarget, rootOf } from '../roots';

/** A tool's input it cannot work with: the client gets `isError: true` and this message. */
export class ToolError extends Error {}

export interface Roots {
  /** Real paths (links resolved), posix, without duplicates; the first is the base of relative paths. */
  folders: string[];
  /** Where they came from, for the log and the tools' answers. */
  source: 'client' | 'cwd';
}

/**
 * A client's root list: the real paths of its existing `file://` folders, in order; others are skipped (and logged).
 */
export function rootsFromUris(uris: readonly string[], log: (line: string) => void): string[] {
  const folders: string[] = [];
  for (const uri of uris) {
    let path: string;
    try {
      if (new URL(uri).protocol !== 'file:') throw new Error('not a file:// URI');
      path = fs.realpathSync.native(fileURLToPath(uri));
      if (!fs.statSync(path).isDirectory()) throw new Error('not a folder');
    } catch (e) {
      log(`root ${uri} is not used: ${describeError(e)}`);
      continue;
    }
    const posixPath = toPosix(path);
    if (!folders.includes(posixPath)) folders.push(posixPath);
  }
  return folders;
}

/**
 * `path` with the links of its folders resolved; the last part is kept as named, since a
 * definition's dialect comes from its own path (a link named `.polytoken/subagents/a.md`).
 * A path that does not exist yet is mapped through its nearest existing folder.
 */
function mapThroughFolders(abs: string): string {
  const rest: string[] = [];
  let dir = abs;
  for (;;) {
    const parent = posix.dirname(dir);
    rest.unshift(posix.basename(dir));
    if (parent === dir) return abs;
    const real = realTarget(parent);
    if (real !== undefined) return posix.join(real, ...rest);
    dir = parent;
  }
}

export class Workspace {
  constructor(readonly roots: Roots) {}

  get base(): string {
    return this.roots.folders[0];
  }

  /**
   * A path as the answers name it: relative to the first root, `/` separators (as the CLI's relative to its folder).
   */
  shown(path: string): string {
    return relativePath(this.base, path);
  }

  /**
   * The absolute path (posix, folders' links resolved) for a path a tool was given (absolute,
   * relative to the first root, or a `file://` URI); ToolError when it lies outside every root.
   */
  locate(given: string): { path: string; root: string } {
    let raw = given;
    if (given.startsWith('file:')) {
      try {
        raw = fileURLToPath(given);
      } catch (e) {
        throw new ToolError(`${given}: ${describeError(e)}`);
      }
    }
    if (raw.includes('\0')) throw new ToolError(`${JSON.stringify(given)}: a path cannot hold a NUL character`);
    const abs = posix.resolve(this.base, toPosix(raw));
    const target = realTarget(abs);
    // A folder is taken where it really is (its files are found there); a file keeps its own name.
    const path = target !== undefined && isFolder(target) ? target : mapThroughFolders(abs);
    const root = rootOf(this.roots.folders, path);
    if (root === undefined || (target !== undefined && rootOf(this.roots.folders, target) === undefined))
      throw new ToolError(
        `${given}: outside the workspace (${this.describeRoots()}); only paths inside it are read or written`,
      );
    return { path, root };
  }

  /**
   * A `check` input: a path (as `locate`), or a glob that no file is named after, located by the
   * folder it starts from. Returns what `checkPaths` is given (absolute) and its root.
   */
  locateInput(given: string): { input: string; root: string } {
    const abs = posix.resolve(this.base, toPosix(given));
    const scan = picomatch.scan(toPosix(given));
    if (!scan.isGlob || fs.existsSync(abs)) {
      const { path, root } = this.locate(given);
      return { input: path, root };
    }
    // `..` in the pattern would climb out of the folder it starts from.
    if (scan.glob.split('/').includes('..'))
      throw new ToolError(`${given}: a pattern cannot hold \`..\`; start it from the folder instead`);
    const { path, root } = this.locate(scan.base || '.');
    return { input: `${path === '/' ? '' : path}/${scan.glob}`, root };
  }

  /** Why a file found inside the workspace may not be read: it is a link that leads out of every root. */
  readonly refuse = (path: string): string | undefined => linkRefusal(this.roots.folders, 'the workspace')(path);

  describeRoots(): string {
    const list = this.roots.folders.join(', ');
    return this.roots.source === 'client' ? `the client's roots: ${list}` : `the server's folder ${list}`;
  }
}

function isFolder(path: string): boolean {
  try {
    return fs.statSync(path).isDirectory();
  } catch {
    return false;
  }
}
