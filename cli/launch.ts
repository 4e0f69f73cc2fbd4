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
import * as path from 'path';
import * as vm from 'vm';
import { setBundleDigest } from './bundle-digest';
import { cacheFolder, readCache, sha256, writeCache } from './code-cache';
import { mark, startMarks } from './phase-marks';
import { BEFORE_FLAGS_CHANGE } from './tiering';

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
  // Made at exit, so that it holds the functions this run compiled too, unless the check is about to
  // change V8's flags (tiering.ts): then just before, as V8 rejects a cache made under other flags.
  if (file && (!cachedData || script.cachedDataRejected)) {
    let data: Buffer | undefined;
    process.once(BEFORE_FLAGS_CHANGE, () => (data = script.createCachedData()));
    process.once('exit', () => writeCache(file, key, data ?? script.createCachedData()));
  }
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
