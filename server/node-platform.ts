/**
 * The server's platform on Node (dist/server.js, `subagents lsp`): the disk, server-side
 * watching with fs.watch, and the resolve command's renderings in a private temporary folder.
 */
import { createHash } from 'crypto';
import * as fs from 'fs';
import * as os from 'os';
import { join } from 'path';
import { nodeWorkspaceHost } from '../shared/node';
import type { RenderingStore, ServerPlatform } from './platform';
import { FolderWatcher } from './watch';

/** Renderings in a private temporary folder, made on first use and removed at shutdown or exit. */
class TemporaryRenderings implements RenderingStore {
  private dir: string | undefined;

  write(uri: string, baseName: string, markdown: string): string {
    if (!this.dir) {
      this.dir = fs.mkdtempSync(join(os.tmpdir(), 'subagents-resolve-'));
      process.on('exit', this.dispose);
    }
    // Stryker disable next-line MethodExpression: the whole digest names the same folder for the same URI, only longer
    const sub = join(this.dir, createHash('sha1').update(uri).digest('hex').slice(0, 10));
    fs.mkdirSync(sub, { recursive: true });
    const file = join(sub, `${baseName}.resolved.md`);
    fs.writeFileSync(file, markdown);
    return file;
  }

  /** At shutdown, and at exit: a client may go away without `shutdown`. */
  dispose = (): void => {
    process.off('exit', this.dispose);
    try {
      if (this.dir) fs.rmSync(this.dir, { recursive: true, force: true });
    } catch {
      // the temporary folder's cleaner takes what is left
    }
    this.dir = undefined;
  };
}

export const nodePlatform: ServerPlatform = {
  disk: nodeWorkspaceHost,
  watchFolders: (host) => new FolderWatcher(host),
  renderings: () => new TemporaryRenderings(),
};
