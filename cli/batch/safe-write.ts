/**
 * Every file the CLI writes (`--fix`, `-o`, the `--cache` file) goes through `writeFileSafely`;
 * the files `init` and `new` make, through `createFileExclusively`.
 * A repository is hostile input: it may ship symbolic links where we write, at the target
 * or at any name we might pick for a temporary file. So:
 *
 * - a new file is made under an unpredictable name (random bytes, short enough that a
 *   255-byte file name still fits) opened with O_CREAT|O_EXCL|O_NOFOLLOW, then written,
 *   flushed and renamed into place: never through a planted link, never half written;
 * - a link is resolved first: written at its target when that lies inside the allowed
 *   folders (`WritePlace`), else not written at all;
 * - what the user had is kept: the mode and, when the process may, the owner; a file with
 *   other hard links, in a folder we cannot write, or whose owner we cannot keep is written
 *   in place (as ESLint, ruff and Prettier always do); a FIFO or a device is written into,
 *   never replaced; paths under /dev/ and /proc/ (`-o /dev/stdout`) are only ever opened;
 * - `expected` (the text the caller read) makes a file changed on disk meanwhile be skipped
 *   instead of overwritten, as VS Code does.
 *
 * The checks and the write are separate system calls: a local process racing them can
 * still win (Node has no openat). What this defends against is content laid out in
 * advance, which is what a repository is.
 */
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import { posix, resolve } from 'path';
import { relativeInside, toPosix } from '../../shared';
import { describeError } from '../../shared/node';

/** Where a write may land. */
export interface WritePlace {
  /** Real (link-free) absolute folders: a file that resolves outside all of them is not written. */
  roots: readonly string[];
  /**
   * A path given outside every root is the user's own choice (`-o /tmp/report.json`): its
   * links are the system's, not the repository's, and are followed wherever they lead.
   */
  userPathsOutside?: boolean;
}

export interface WriteRequest {
  /** The text the caller read: a file that no longer holds it is not written (`skipped`). */
  expected?: string;
  /** Make missing folders (inside the allowed ones). */
  makeFolders?: boolean;
}

export type WriteOutcome =
  | { status: 'written'; path: string; how: 'created' | 'replaced' | 'in place' | 'into a special file' }
  /** Not written on purpose: a link out of the allowed folders, a file changed meanwhile. */
  | { status: 'skipped'; reason: string }
  /** The system refused (no space, permission, size limit, read-only, a pipe without reader, …). */
  | { status: 'failed'; reason: string };

const C = fs.constants;
const NOFOLLOW = C.O_NOFOLLOW ?? 0;
const NONBLOCK = C.O_NONBLOCK ?? 0;
const posixPaths = process.platform !== 'win32';

export const isInside = (roots: readonly string[], path: string): boolean =>
  roots.some((root) => root === path || relativeInside(root, path) !== undefined);

/** The real path of a folder that may not exist yet: its deepest existing ancestor resolved, then the rest. */
function realFolder(dir: string): { real: string; missing: string[] } {
  const missing: string[] = [];
  for (let d = dir; ; d = posix.dirname(d)) {
    try {
      return { real: toPosix(fs.realpathSync.native(d)), missing: missing.reverse() };
    } catch (e) {
      const parent = posix.dirname(d);
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT' || parent === d) throw e;
      missing.push(posix.basename(d));
    }
  }
}

type Landing = { path: string; stat?: fs.Stats } | { skipped: string } | { failed: string };

/** Where a write to `file` lands once its links are resolved, or why it must not happen. */
export function landingOf(file: string, place: WritePlace, makeFolders = false): Landing {
  const lexical = toPosix(resolve(file));
  const free = !!place.userPathsOutside && !isInside(place.roots, lexical);
  const allowed = (real: string) => free || isInside(place.roots, real);
  const outside = place.roots.length === 1 ? `outside ${place.roots[0]}` : 'outside the checked folders';
  try {
    const { real, missing } = realFolder(posix.dirname(lexical));
    const dir = posix.join(real, ...missing);
    if (!allowed(dir)) return { skipped: `is in ${dir}, ${outside}` };
    if (missing.length) {
      if (!makeFolders) return { failed: `no such folder: ${posix.join(real, missing[0])}` };
      fs.mkdirSync(dir, { recursive: true });
      return { path: posix.join(dir, posix.basename(lexical)) };
    }
    const at = posix.join(dir, posix.basename(lexical));
    const stat = fs.lstatSync(at, { throwIfNoEntry: false });
    if (!stat?.isSymbolicLink()) return { path: at, stat };
    let target: string;
    try {
      target = toPosix(fs.realpathSync.native(at));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { skipped: 'is a link to a missing file' };
      throw e;
    }
    if (!allowed(target)) return { skipped: `is a link to ${target}, ${outside}` };
    return { path: target, stat: fs.lstatSync(target) };
  } catch (e) {
    return { failed: describeError(e) };
  }
}

/** Creates, replaces or writes `file` as the module comment says; never throws. */
export function writeFileSafely(
  file: string,
  text: string | Buffer,
  place: WritePlace,
  request: WriteRequest = {},
): WriteOutcome {
  const data = typeof text === 'string' ? Buffer.from(text) : text;
  const lexical = toPosix(resolve(file));
  if (posixPaths && /^\/(dev|proc)\//.test(lexical)) return writeIntoDevicePath(lexical, data);
  const landing = landingOf(file, place, request.makeFolders);
  if ('skipped' in landing) return { status: 'skipped', reason: landing.skipped };
  if ('failed' in landing) return { status: 'failed', reason: landing.failed };
  const { path, stat } = landing;
  try {
    if (!stat)
      return request.expected === undefined
        ? replaceFile(path, data, undefined)
        : { status: 'skipped', reason: 'deleted since it was read' };
    if (stat.isDirectory()) return { status: 'failed', reason: 'is a folder' };
    if (stat.isFIFO() || stat.isCharacterDevice()) return writeIntoSpecial(path, data);
    if (!stat.isFile()) return { status: 'failed', reason: kindOf(stat) };
    if (stat.nlink > 1 || !canKeepOwner(stat)) return writeInPlace(path, data, request.expected);
    return replaceFile(path, data, stat, request.expected);
  } catch (e) {
    return { status: 'failed', reason: describeError(e) };
  }
}

/**
 * Creates `file`, which must not exist, not even as a link (`subagents init` and `new`): opened
 * with O_CREAT|O_EXCL|O_NOFOLLOW, so never through a planted link and never over a file made
 * meanwhile; removed again when the write fails. Never throws.
 */
export function createFileExclusively(
  file: string,
  text: string,
  place: WritePlace,
  request: Pick<WriteRequest, 'makeFolders'> = {},
): WriteOutcome {
  const landing = landingOf(file, place, request.makeFolders);
  if ('failed' in landing) return { status: 'failed', reason: landing.failed };
  const exists = fs.lstatSync(toPosix(resolve(file)), { throwIfNoEntry: false });
  if (exists || ('path' in landing && landing.stat)) return { status: 'failed', reason: 'already exists' };
  if ('skipped' in landing) return { status: 'skipped', reason: landing.skipped };
  let fd: number;
  try {
    fd = fs.openSync(landing.path, C.O_WRONLY | C.O_CREAT | C.O_EXCL | NOFOLLOW, 0o666);
  } catch (e) {
    return {
      status: 'failed',
      reason: (e as NodeJS.ErrnoException).code === 'EEXIST' ? 'already exists' : describeError(e),
    };
  }
  try {
    try {
      writeAll(fd, Buffer.from(text));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch (e) {
    fs.rmSync(landing.path, { force: true });
    return { status: 'failed', reason: describeError(e) };
  }
  return { status: 'written', path: landing.path, how: 'created' };
}

/** A path that names an open descriptor (`/dev/stdout`, `/proc/self/fd/3`): what it leads to is the caller's own. */
const DESCRIPTOR_PATH = /^\/(?:dev\/(?:stdout|stderr|fd\/\d+)|proc\/(?:self|thread-self|\d+)\/fd\/\d+)$/;

/**
 * `-o /dev/stdout`, `/dev/null`, `/proc/self/fd/3`: opened (following its links) and written, never made or replaced.
 * No O_CREAT, so nothing is ever created here; these are the system's paths, which no repository holds. A regular
 * file is written only through a descriptor's path (`> report.json` behind `/dev/stdout`): reached any other way
 * (`/proc/self/cwd/…`, `/proc/self/root/…`) it would bypass the links check, so it is refused.
 */
function writeIntoDevicePath(path: string, data: Buffer): WriteOutcome {
  try {
    const fd = fs.openSync(path, C.O_WRONLY | C.O_APPEND | NONBLOCK);
    try {
      const stat = fs.fstatSync(fd);
      if (stat.isBlockDevice()) return { status: 'failed', reason: kindOf(stat) };
      if (stat.isFile() && !DESCRIPTOR_PATH.test(path))
        return { status: 'failed', reason: 'is a regular file reached through /dev or /proc; give its own path' };
      writeAll(fd, data);
    } finally {
      fs.closeSync(fd);
    }
    return { status: 'written', path, how: 'into a special file' };
  } catch (e) {
    return { status: 'failed', reason: specialError(e, path) };
  }
}

/** A FIFO or a character device: written into, O_NONBLOCK so that a pipe without reader fails at once. */
function writeIntoSpecial(path: string, data: Buffer): WriteOutcome {
  let fd: number;
  try {
    fd = fs.openSync(path, C.O_WRONLY | NOFOLLOW | NONBLOCK);
  } catch (e) {
    return { status: 'failed', reason: specialError(e, path) };
  }
  try {
    writeAll(fd, data);
  } finally {
    fs.closeSync(fd);
  }
  return { status: 'written', path, how: 'into a special file' };
}

/** ENXIO: a FIFO with no reader, or a socket (which no path opens). */
function specialError(e: unknown, path: string): string {
  if ((e as NodeJS.ErrnoException).code !== 'ENXIO') return describeError(e);
  try {
    if (fs.statSync(path).isSocket()) return 'is a socket';
  } catch {
    // as below
  }
  return 'is a named pipe with no reader';
}

function kindOf(stat: fs.Stats): string {
  if (stat.isBlockDevice()) return 'is a block device';
  if (stat.isSocket()) return 'is a socket';
  return 'is not a regular file';
}

/** Whether a replacement can have the file's owner: ours, or we may give it away (root). */
function canKeepOwner(stat: fs.Stats): boolean {
  const euid = process.geteuid?.();
  return euid === undefined || euid === 0 || stat.uid === euid;
}

/** Writes all of `data` at the descriptor's position, waiting while a non-blocking pipe is full. */
function writeAll(fd: number, data: Buffer, position?: number): void {
  for (let done = 0; done < data.length;) {
    try {
      done += fs.writeSync(fd, data, done, data.length - done, position === undefined ? null : position + done);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EAGAIN') throw e;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 5);
    }
  }
}

/** Whether the open file still holds `expected` (as readRegularFile decodes it). */
function holds(fd: number, expected: string): boolean {
  const want = Buffer.byteLength(expected);
  const buffer = Buffer.allocUnsafe(want + 1);
  let length = 0;
  for (let n; length < buffer.length && (n = fs.readSync(fd, buffer, length, buffer.length - length, length)) > 0;)
    length += n;
  return length === want && buffer.toString('utf8', 0, length) === expected;
}

const CHANGED = 'changed on disk since it was read';

/** The same file, unchanged since `before` (dev, inode, size, times). */
const sameStat = (before: fs.Stats, now: fs.Stats | undefined) =>
  !!now &&
  now.dev === before.dev &&
  now.ino === before.ino &&
  now.size === before.size &&
  now.mtimeMs === before.mtimeMs &&
  now.ctimeMs === before.ctimeMs;

/** Errors that mean "this folder takes no new file": the file itself may still be writable in place. */
const FOLDER_REFUSED = new Set(['EACCES', 'EPERM', 'EROFS']);

/**
 * A new file beside `path`, written, flushed and renamed over it; `stat` is the file it
 * replaces (its mode and owner are kept), undefined when there is none.
 */
function replaceFile(path: string, data: Buffer, stat: fs.Stats | undefined, expected?: string): WriteOutcome {
  // The current file is opened without following links (it was resolved): it must still hold what was read.
  if (stat && expected !== undefined) {
    const fd = fs.openSync(path, C.O_RDONLY | NOFOLLOW | NONBLOCK);
    try {
      const now = fs.fstatSync(fd);
      if (!sameStat(stat, now) || !holds(fd, expected)) return { status: 'skipped', reason: CHANGED };
    } finally {
      fs.closeSync(fd);
    }
  }
  const dir = posix.dirname(path);
  let temp: { path: string; fd: number };
  try {
    temp = createTemp(dir, stat ? 0o600 : 0o666);
  } catch (e) {
    if (stat && FOLDER_REFUSED.has((e as NodeJS.ErrnoException).code ?? '')) return writeInPlace(path, data, expected);
    throw e;
  }
  let renamed = false;
  try {
    try {
      writeAll(temp.fd, data, 0);
      if (stat && !keepOwnerAndMode(temp.fd, stat)) {
        fs.closeSync(temp.fd);
        temp.fd = -1;
        fs.unlinkSync(temp.path);
        return writeInPlace(path, data, expected);
      }
      fs.fsyncSync(temp.fd);
    } finally {
      if (temp.fd >= 0) fs.closeSync(temp.fd);
    }
    // The last look before the rename: the file must be the one that was compared.
    if (stat && expected !== undefined && !sameStat(stat, fs.lstatSync(path, { throwIfNoEntry: false })))
      return { status: 'skipped', reason: CHANGED };
    fs.renameSync(temp.path, path);
    renamed = true;
  } finally {
    if (!renamed) fs.rmSync(temp.path, { force: true });
  }
  syncFolder(dir);
  return { status: 'written', path, how: stat ? 'replaced' : 'created' };
}

/** A file of an unpredictable name, made exclusively (never through a link). */
function createTemp(dir: string, mode: number): { path: string; fd: number } {
  for (let attempt = 0; ; attempt++) {
    // 16 characters: a 255-byte file name still has a temporary sibling.
    const path = posix.join(dir, `.${randomBytes(9).toString('base64url')}.tmp`);
    try {
      return { path, fd: fs.openSync(path, C.O_WRONLY | C.O_CREAT | C.O_EXCL | NOFOLLOW, mode) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt >= 5) throw e;
    }
  }
}

/**
 * Gives the temporary file the replaced file's owner (when it differs) and mode; false when the owner cannot be kept.
 */
function keepOwnerAndMode(fd: number, stat: fs.Stats): boolean {
  if (posixPaths) {
    const own = fs.fstatSync(fd);
    if (own.uid !== stat.uid || own.gid !== stat.gid) {
      try {
        fs.fchownSync(fd, stat.uid, stat.gid);
      } catch {
        return false;
      }
    }
  }
  // After the chown, which clears set-id bits.
  fs.fchmodSync(fd, stat.mode & 0o7777);
  return true;
}

/**
 * Overwrites the file itself: it keeps its inode, so its mode, owner, other hard links and
 * attributes. Written from the start, then cut to length: a failure part way (no space)
 * leaves the new start and the old end, never an empty file.
 */
function writeInPlace(path: string, data: Buffer, expected?: string): WriteOutcome {
  const fd = fs.openSync(path, (expected === undefined ? C.O_WRONLY : C.O_RDWR) | NOFOLLOW | NONBLOCK);
  try {
    if (!fs.fstatSync(fd).isFile()) return { status: 'failed', reason: 'is not a regular file' };
    if (expected !== undefined && !holds(fd, expected)) return { status: 'skipped', reason: CHANGED };
    writeAll(fd, data, 0);
    fs.ftruncateSync(fd, data.length);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  return { status: 'written', path, how: 'in place' };
}

/** Makes the rename durable; a folder that cannot be opened or synced (Windows) is left as it is. */
function syncFolder(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, C.O_RDONLY);
    fs.fsyncSync(fd);
  } catch {
    // the file is written; only its durability across a crash is left to the system
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
