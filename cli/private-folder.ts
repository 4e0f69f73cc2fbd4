/**
 * A folder of the user's own that nobody else may write to (the launcher's code cache, the key
 * that signs `check --cache` files). No dependencies: the launcher bundles it and must stay small.
 */
import * as fs from 'fs';

export type PrivateFolderProblem = 'not a folder' | 'not yours' | 'writable by others';

/**
 * Makes `dir` (0700) when missing, then says why it must not be used: not a folder (a link
 * included), owned by another user, or writable by group or others. `uid` undefined (Windows):
 * only the first. Throws when the folder cannot be made.
 */
export function privateFolderProblem(dir: string, uid: number | undefined): PrivateFolderProblem | undefined {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = fs.lstatSync(dir);
  if (!stat.isDirectory()) return 'not a folder';
  if (uid !== undefined && stat.uid !== uid) return 'not yours';
  if (uid !== undefined && (stat.mode & 0o022) !== 0) return 'writable by others';
  return undefined;
}
