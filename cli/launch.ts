/**
 * `subagents` starts here (dist/cli.js): it runs the bundle, dist/cli-main.js, with a V8 code
 * cache, so that the bundle (about 1.7 MB) is not compiled anew on every run; a warm
 * `check --cache` is mostly start-up. Node 20 has no `module.enableCompileCache`.
 *
 * The cache is one file per installed bundle in `<tmp>/subagents-code-cache-<uid>/`, a
 * folder that must be the user's own and writable by nobody else (else it is not used: a
 * code cache is code). Its file starts with two sha256: of what it was made for (the
 * bundle's text, Node's version and architecture) and of the V8 data that follows. A
 * missing, damaged or stale file, or one V8 rejects (other flags), is not used: the bundle
 * is compiled as without cache and the file written anew when the process exits. Nothing
 * here ever fails the command: without a usable folder there is simply no cache.
 */
import { isAscii } from 'buffer';
import * as crypto from 'crypto';
import * as fs from 'fs';
import Module from 'module';
import * as os from 'os';
import * as path from 'path';
import * as vm from 'vm';
import { setBundleDigest } from './bundle-digest';
import { mark, startMarks } from './phase-marks';

const DIGEST_BYTES = 32;
const sha256 = (data: string | Buffer): Buffer => crypto.createHash('sha256').update(data).digest();

/** The user's own cache folder, or undefined when it cannot be made or others could write to it. */
function cacheFolder(): string | undefined {
  try {
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    const dir = path.join(os.tmpdir(), `subagents-code-cache-${uid ?? 'user'}`);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = fs.lstatSync(dir);
    if (!stat.isDirectory()) return undefined;
    // On Windows the temporary folder is the user's own; elsewhere the folder must be ours alone.
    if (uid !== undefined && (stat.uid !== uid || (stat.mode & 0o022) !== 0)) return undefined;
    return dir;
  } catch {
    return undefined;
  }
}

/** Far above the code cache of the bundle (a few MB). */
const MAX_CACHE_BYTES = 64 * 1024 * 1024;

/** The V8 data of a cache file made for `key`, or undefined for a missing, damaged or stale one. */
function readCache(file: string, key: Buffer): Buffer | undefined {
  let bytes: Buffer;
  try {
    // Only a regular file is read (a link, a FIFO or /dev/zero planted in its place is no cache).
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

function writeCache(file: string, key: Buffer, data: Buffer): void {
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

function launch(): void {
  startMarks();
  const bundle = path.join(__dirname, 'cli-main.js');
  // The language server starts once per editor session: it loads the bundle the plain way.
  // `mcp` keeps the code cache: an agent waits for its first answer (bench/mcp.mjs, 10,000
  // definitions: start 398 ms and first check 56 ms with it, 610 and 105 ms without).
  if (process.argv[2] === 'lsp') {
    require(bundle);
    return;
  }
  let bytes: Buffer;
  try {
    bytes = fs.readFileSync(bundle);
  } catch (e) {
    process.stderr.write(`subagents: internal error: cannot load ${bundle}: ${(e as Error).message.split('\n')[0]}\n`);
    process.exit(2);
  }
  mark('launch.read');
  // Digested and decoded from the bytes: decoding ASCII as latin1 is exact and several times faster than UTF-8.
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  mark('launch.decode');
  const dir = cacheFolder();
  const key = crypto.createHash('sha256').update(`${process.version}\0${process.arch}\0`).update(bytes).digest();
  setBundleDigest(key.toString('base64'));
  const file = dir && path.join(dir, `cli-${sha256(bundle).toString('hex').slice(0, 16)}.v8`);
  const cachedData = file ? readCache(file, key) : undefined;
  mark('launch.digest');
  const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
  // Written at exit, so that it holds the functions this run compiled too.
  if (file && (!cachedData || script.cachedDataRejected))
    process.once('exit', () => writeCache(file, key, script.createCachedData()));
  mark('launch.compile');
  const main = new Module(bundle, module);
  main.filename = bundle;
  const run = script.runInThisContext() as (
    exports: unknown,
    require: NodeRequire,
    module: Module,
    filename: string,
    dirname: string,
  ) => void;
  run.call(main.exports, main.exports, Module.createRequire(bundle), main, bundle, __dirname);
}

launch();
