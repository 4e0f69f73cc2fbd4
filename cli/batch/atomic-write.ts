import * as fs from 'fs';
import { posix } from 'path';
import { describeError } from '../../shared/node';

/**
 * Writes a temporary file next to `file` (making its folder), then renames it into place:
 * an interrupted run never leaves a half-written file. Returns why it failed, if it did.
 */
export function writeAtomically(file: string, text: string): string | undefined {
  const temp = posix.join(posix.dirname(file), `.${posix.basename(file)}.${process.pid}.tmp`);
  try {
    fs.mkdirSync(posix.dirname(file), { recursive: true });
    fs.writeFileSync(temp, text);
    fs.renameSync(temp, file);
    return undefined;
  } catch (e) {
    try {
      fs.rmSync(temp, { force: true });
    } catch {
      // nothing more to do
    }
    return describeError(e);
  }
}
