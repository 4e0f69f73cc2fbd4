/**
 * The young generation of a language server kept at its first size. V8 doubles it (up to
 * 16 MiB per semi-space) while a burst allocates fast, indexing a workspace for one, and keeps
 * it while the server idles for the rest of the editor's life: on 10,000 definitions that was
 * ≈ 26 MiB of the server's resident memory, for no speed the indexing, edits or hovers could
 * measure (docs/performance.md, "The language server's memory"). The flag that caps its size
 * is read only at start-up; the growth factor is read at each growth, so it works from here.
 */
import * as v8 from 'v8';

/** False when the user sized the young generation (node flags or NODE_OPTIONS): theirs is kept. */
export function keepYoungGenerationSmall(
  execArgv: readonly string[] = process.execArgv,
  nodeOptions: string | undefined = process.env.NODE_OPTIONS,
): boolean {
  if ([...execArgv, nodeOptions ?? ''].some((flag) => /semi[-_]space/.test(flag))) return false;
  v8.setFlagsFromString('--semi-space-growth-factor=1');
  return true;
}
