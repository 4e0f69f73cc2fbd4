import * as fs from 'fs';
import { MAX_FILE_BYTES, sizeOverLimit } from '../text/limits';

/**
 * Why a file was not read: it is not a regular file (a FIFO, a device, a socket, a
 * folder) or it is above the size limit. `message` is the short reason, as in
 * `subagents: <path>: <reason>`; `tooLarge` is set for the size limit.
 */
export class RefusedFileError extends Error {
  readonly code = 'EREFUSED';
  constructor(
    message: string,
    readonly tooLarge?: { bytes: number; limit: number },
  ) {
    super(message);
  }
}

// Opening a FIFO for reading blocks until a writer comes; O_NONBLOCK makes the open return
// at once (then fstat refuses it). Regular files ignore the flag. Windows has no such flag.
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0);

/**
 * The text (UTF-8) of a regular file of at most `maxBytes` bytes. Anything else is
 * refused without reading it (RefusedFileError): a FIFO or a link to `/dev/zero` would
 * hang or never end, a huge file would exhaust memory. The type and size are taken from
 * the open descriptor, so a file swapped after a `stat` cannot slip through, and at most
 * `maxBytes` + 1 bytes are read even when the file grows meanwhile.
 */
export function readRegularFile(path: string, maxBytes = MAX_FILE_BYTES): string {
  return readRegularBytes(path, maxBytes).toString('utf8');
}

/** readRegularFile's bytes; `noFollow`: a symbolic link at `path` is refused (ELOOP), not followed. */
export function readRegularBytes(path: string, maxBytes = MAX_FILE_BYTES, noFollow = false): Buffer {
  const fd = fs.openSync(path, noFollow ? OPEN_FLAGS | (fs.constants.O_NOFOLLOW ?? 0) : OPEN_FLAGS);
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile())
      throw new RefusedFileError(stat.isDirectory() ? 'is a folder' : `is ${fileType(stat)}, not a regular file`);
    if (stat.size > maxBytes)
      throw new RefusedFileError(`is ${sizeOverLimit(stat.size, maxBytes)}`, { bytes: stat.size, limit: maxBytes });
    // Read to the end, not to the size stat gave: files in /proc say 0 and hold text, and a
    // file may grow meanwhile. One byte past the limit is enough to know it is too large.
    let buffer = Buffer.allocUnsafe(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    for (;;) {
      if (length === buffer.length) {
        if (length > maxBytes)
          throw new RefusedFileError(`is ${sizeOverLimit(length, maxBytes)}`, { bytes: length, limit: maxBytes });
        const bigger = Buffer.allocUnsafe(Math.min(Math.max(buffer.length * 2, 64 * 1024), maxBytes + 1));
        buffer.copy(bigger, 0, 0, length);
        buffer = bigger;
      }
      const n = fs.readSync(fd, buffer, length, buffer.length - length, null);
      if (n === 0) break;
      length += n;
    }
    return buffer.subarray(0, length);
  } finally {
    fs.closeSync(fd);
  }
}

/** True for a regular file (following symbolic links); false for anything else or a missing path. */
export function isRegularFile(path: string | Buffer): boolean {
  try {
    // Most folders have no configuration: no exception for a missing file (thousands per workspace).
    return fs.statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;
  } catch {
    return false;
  }
}

function fileType(stat: fs.Stats): string {
  if (stat.isFIFO()) return 'a named pipe';
  if (stat.isCharacterDevice()) return 'a character device';
  if (stat.isBlockDevice()) return 'a block device';
  if (stat.isSocket()) return 'a socket';
  return 'not a file';
}
