/**
 * The key that signs `check --cache` files (HMAC-SHA256). The cache file usually sits in the
 * working tree, where a repository can put one of its own; the key lives in the user's own
 * cache folder, so a cache file is trusted only when this user's checker wrote it.
 *
 * The folder is `$XDG_CACHE_HOME/subagents` or `~/.cache/subagents` (`%LOCALAPPDATA%\subagents`
 * on Windows), made 0700; the key is 32 random bytes in `check-cache.key`, made 0600 under a
 * temporary name and linked into place, so two first runs never read half a key. A key file
 * that is a link, not the user's, readable by others or of the wrong size is not used, nor is
 * a folder that others can write to: the cache is then neither read nor written (one note).
 */
import { randomBytes } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { describeError } from '../../shared/node';
import { privateFolderProblem, type PrivateFolderProblem } from '../private-folder';

const KEY_BYTES = 32;
const KEY_FILE = 'check-cache.key';

/** The user's cache folder for subagents, from the environment. */
export function userCacheFolder(env: NodeJS.ProcessEnv): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'subagents');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'subagents');
  const home = env.HOME || os.homedir();
  return home && path.isAbsolute(home) ? path.join(home, '.cache', 'subagents') : undefined;
}

/** The key, or why there is none (then no cache is used). */
export function userCacheKey(env: NodeJS.ProcessEnv): { key: Buffer } | { problem: string } {
  const dir = userCacheFolder(env);
  if (!dir) return { problem: 'no cache folder for its key (HOME is not set)' };
  const uid = process.geteuid?.();
  let folderProblem: PrivateFolderProblem | undefined;
  try {
    folderProblem = privateFolderProblem(dir, uid);
  } catch (e) {
    return { problem: `cannot make its key folder ${dir}: ${describeError(e)}` };
  }
  if (folderProblem === 'writable by others') return { problem: `others can write to its key folder ${dir}` };
  if (folderProblem) return { problem: `its key folder ${dir} is ${folderProblem}` };
  const file = path.join(dir, KEY_FILE);
  try {
    return readKey(file, uid);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') return { problem: `cannot read its key ${file}: ${reason(e)}` };
  }
  try {
    makeKey(dir, file);
    return readKey(file, uid);
  } catch (e) {
    return { problem: `cannot make its key ${file}: ${reason(e)}` };
  }
}

const reason = (e: unknown) => ((e as NodeJS.ErrnoException).code === 'ELOOP' ? 'is a link' : describeError(e));

function readKey(file: string, uid: number | undefined): { key: Buffer } | { problem: string } {
  const fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0));
  try {
    const stat = fs.fstatSync(fd);
    const refused = !stat.isFile()
      ? 'is not a regular file'
      : uid !== undefined && stat.uid !== uid
        ? 'is not yours'
        : uid !== undefined && (stat.mode & 0o077) !== 0
          ? 'can be read by others'
          : stat.size !== KEY_BYTES
            ? `is not ${KEY_BYTES} bytes long`
            : undefined;
    if (refused) return { problem: `its key ${file} ${refused}` };
    const key = Buffer.alloc(KEY_BYTES);
    if (fs.readSync(fd, key, 0, KEY_BYTES, 0) !== KEY_BYTES) return { problem: `its key ${file} is cut short` };
    return { key };
  } finally {
    fs.closeSync(fd);
  }
}

/** Writes a new key under a temporary name, then links it into place (EEXIST: another run made it first). */
function makeKey(dir: string, file: string): void {
  const temp = path.join(dir, `.${randomBytes(9).toString('base64url')}.tmp`);
  const c = fs.constants;
  const fd = fs.openSync(temp, c.O_WRONLY | c.O_CREAT | c.O_EXCL | (c.O_NOFOLLOW ?? 0), 0o600);
  try {
    try {
      fs.writeSync(fd, randomBytes(KEY_BYTES));
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    try {
      fs.linkSync(temp, file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
  } finally {
    // Stryker disable next-line ObjectLiteral,BooleanLiteral: the temporary file exists here (made above), so `force` changes nothing
    fs.rmSync(temp, { force: true });
  }
}
