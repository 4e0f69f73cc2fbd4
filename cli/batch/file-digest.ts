/**
 * The content key of `check --cache`: the sha256 of a file's bytes or, for a file that has
 * not changed since a run that read it well after its last change, the digest that run
 * recorded, known by the file's stamp (size, times, inode, device), without reading it.
 *
 * This is git's index rule with its protection against racy timestamps: a stamp is kept only
 * when the file's last change (ctime and mtime) is at least SETTLED_MS older than the moment
 * its bytes were read. A later write gives the file a ctime of at least that moment, so its
 * stamp differs, even on a filesystem that keeps whole (or two) seconds; a file written in
 * the second it was read gets no stamp and is read again next time. A program cannot set
 * the ctime (`touch -d` sets it to now), so an edit that keeps the size and puts the mtime
 * back is seen too. (As for git, a network filesystem whose clock is seconds behind can
 * defeat the rule.)
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import { MAX_FILE_BYTES } from '../../shared';

/** What fstat says of a file: [size, mtimeMs, ctimeMs, ino, dev]. */
export type Stamp = [size: number, mtimeMs: number, ctimeMs: number, ino: number, dev: number];

/** Coarser than any common filesystem's timestamps (FAT keeps two seconds). */
const SETTLED_MS = 2000;

export const digest = (data: string | Buffer): string =>
  crypto.hash ? crypto.hash('sha256', data, 'base64') : crypto.createHash('sha256').update(data).digest('base64');

export const isStamp = (s: unknown): s is Stamp =>
  Array.isArray(s) &&
  s.length === 5 &&
  Number.isFinite(s[0]) &&
  Number.isFinite(s[1]) &&
  Number.isFinite(s[2]) &&
  Number.isFinite(s[3]) &&
  Number.isFinite(s[4]);

const stampOf = (stat: fs.Stats): Stamp => [stat.size, stat.mtimeMs, stat.ctimeMs, stat.ino, stat.dev];

const chunk = Buffer.allocUnsafe(1 << 16);
// As readRegularFile: a FIFO must not block the open, and only regular files are read.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

const sameStamp = (stat: fs.Stats, stamp: Stamp): boolean =>
  stat.size === stamp[0] &&
  stat.mtimeMs === stamp[1] &&
  stat.ctimeMs === stamp[2] &&
  stat.ino === stamp[3] &&
  stat.dev === stamp[4];

/** True when `path` is a regular file whose stat matches `stamp`. */
function unchanged(path: string, stamp: Stamp): boolean {
  let stat: fs.Stats | undefined;
  try {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: a missing file then throws, and the catch answers the same; the option only spares the exception
    stat = fs.statSync(path, { throwIfNoEntry: false });
  } catch {
    return false;
  }
  return !!stat?.isFile() && sameStamp(stat, stamp);
}

/**
 * The digest of a regular file's bytes, with its stamp when its last change is settled;
 * `known` (a previous run's digest and stamp) is answered as it is while the stamp holds.
 * Undefined for anything but a regular file within the size limit (the run then reports it
 * as it would without cache).
 *
 * `openFirst`: the stamp is compared with the open file's fstat instead of a `stat` before
 * the open. Either way the answer is the same; a run whose stamps mostly fail (a fresh
 * checkout) saves a `stat` per file, a run whose stamps mostly hold saves the open and close.
 */
export function fileDigest(
  path: string,
  known?: { hash: string; stamp: Stamp },
  // Stryker disable next-line BooleanLiteral: either way gives the same answer (above); only the system calls differ
  openFirst = false,
): { hash: string; stamp?: Stamp } | undefined {
  if (known && !openFirst && unchanged(path, known.stamp)) return known;
  let fd: number | undefined;
  try {
    // Taken before fstat: a change after this moment gives the file a ctime past it.
    const readAt = Date.now();
    fd = fs.openSync(path, OPEN_FLAGS);
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > MAX_FILE_BYTES) return undefined;
    if (known && openFirst && sameStamp(stat, known.stamp)) return known;
    let n = fs.readSync(fd, chunk, 0, chunk.length, null);
    let hash: string;
    // Stryker disable next-line ConditionalExpression: the loop below hashes a short file alike; one read is the fast way
    if (n < chunk.length) hash = digest(chunk.subarray(0, n));
    else {
      const sha = crypto.createHash('sha256');
      for (
        let total = 0;
        n > 0 && total <= MAX_FILE_BYTES;
        total += n, n = fs.readSync(fd, chunk, 0, chunk.length, null)
      )
        sha.update(chunk.subarray(0, n));
      if (n > 0) return undefined; // grew past the limit meanwhile
      hash = sha.digest('base64');
    }
    const settled = stat.ctimeMs < readAt - SETTLED_MS && stat.mtimeMs < readAt - SETTLED_MS;
    return settled ? { hash, stamp: stampOf(stat) } : { hash };
  } catch {
    return undefined; // the run reads it again and reports why it cannot
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
