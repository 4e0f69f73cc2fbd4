import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** A temporary folder (its real path) holding the given files (relative path → text). */
export function makeTree(files: Record<string, string>, prefix = 'subagents-test-'): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  for (const [rel, text] of Object.entries(files)) {
    const full = path.join(dir, rel);
    fs.mkdirSync(path.dirname(full), { recursive: true });
    fs.writeFileSync(full, text);
  }
  return dir;
}

export function removeTree(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** makeTree for the length of `use`; the folder is removed afterwards, whatever happens. */
export function withTree<T>(files: Record<string, string>, use: (dir: string) => T, prefix?: string): T {
  const dir = makeTree(files, prefix);
  try {
    return use(dir);
  } finally {
    removeTree(dir);
  }
}
