/**
 * The launcher (cli/launch.ts) reads and digests the bundle it runs (for its code cache); it leaves
 * the digest here so that `check --cache` names its checker by it instead of reading and hashing
 * the same 1-3 MB again. A global symbol: the launcher and the bundle are two separate bundles.
 */
const BUNDLE_DIGEST = Symbol.for('subagents.bundleDigest');

/** Called by the launcher: the digest of the bundle's bytes, with Node's version and architecture. */
export function setBundleDigest(digest: string): void {
  Reflect.set(globalThis, BUNDLE_DIGEST, digest);
}

/** The running bundle's digest when the launcher started it; undefined otherwise (tests, `node dist/cli-main.js`). */
export function launcherBundleDigest(): string | undefined {
  const digest: unknown = Reflect.get(globalThis, BUNDLE_DIGEST);
  return typeof digest === 'string' ? digest : undefined;
}
