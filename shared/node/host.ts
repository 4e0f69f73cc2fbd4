/** The workspace index's host on the real file system. */
import * as fs from 'fs';
import { URI } from 'vscode-uri';
import type { WorkspaceHost } from '../workspace/names';
import { readRegularFile } from './read';

/** Reads only regular files of at most 5 MB (a FIFO or a device named like a definition would block or never end). */
function readRegular(path: string): string | undefined {
  try {
    return readRegularFile(path);
  } catch {
    return undefined;
  }
}

export const nodeWorkspaceHost: WorkspaceHost = {
  listDir(dir) {
    try {
      return fs.readdirSync(dir);
    } catch {
      return undefined;
    }
  },
  readFile: readRegular,
  toUri: (path) => URI.file(path).toString(),
};
