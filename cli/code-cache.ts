/**
 * The launcher's V8 code cache on disk (cli/launch.ts): the folder, which must be the user's own
 * and writable by nobody else, and the cache file, two sha256 (of what it was made for, and of the
 * V8 data) then the data. Nothing here throws: a cache that cannot be used is no cache.
 */
import * as crypto from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { privateFolderProblem } from './private-folder';

export const DIGEST_BYTES = 32;
export const sha256 = (data: string | Buffer): Buffer => crypto.createHash('sha256').update(data).digest();

/**
 * The user's own cache folder in `base`, or undefined when it cannot be made or others could write to it
 * (`uid`: the user's id, null on Windows).
 */
export function cacheFolder(
  base = os.tmpdir(),
  uid: number | null = typeof process.getuid === 'function' ? process.getuid() : null,
): string | undefined {
  try {
    const dir = path.join(base, `subagents-code-cache-${uid ?? 'user'}`);
    // On Windows the temporary folder is the user's own; elsewhere the folder must be ours alone.
    return privateFolderProblem(dir, uid ?? undefined) ? undefined : dir;
  } catch {
    return undefined;
  }
}

/** Far above the code cache of the bundle (a few MB). */
export const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** The V8 data of a cache file made for `key`, or undefined for a missing, damaged or stale one. */
export function readCache(file: string, key: Buffer): Buffer | undefined {
  let bytes: Buffer;
  try {
    // Only a regular file is read (a link, a FIFO or /dev/zero planted in its place is no cache).
    // shared/node's readRegularBytes does the same, but importing it grows the launcher from 3 KB to 550 KB.
    const fd = fs.openSync(
      file,
      fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0),
    );
    try {
      const stat = fs.fstatSync(fd);
      if (!stat.isFile() || stat.size > MAX_CACHE_BYTES) return undefined;
      bytes = fs.readFileSync(fd);
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return undefined;
  }
  if (bytes.length <= 2 * DIGEST_BYTES || !bytes.subarray(0, DIGEST_BYTES).equals(key)) return undefined;
  const data = bytes.subarray(2 * DIGEST_BYTES);
  return sha256(data).equals(bytes.subarray(DIGEST_BYTES, 2 * DIGEST_BYTES)) ? data : undefined;
}

export function writeCache(file: string, key: Buffer, data: Buffer): void {
  // Created exclusively under a name nobody can guess: a planted link is never written through.
  const temp = `${file}.${crypto.randomBytes(8).toString('hex')}.tmp`;
  try {
    fs.writeFileSync(temp, Buffer.concat([key, sha256(data), data]), { mode: 0o600, flag: 'wx' });
    fs.renameSync(temp, file);
  } catch {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // a cache that cannot be written is no cache: nothing to report
    }
  }
}
