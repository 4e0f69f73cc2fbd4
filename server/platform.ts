/**
 * What the server gets from where it runs: server/node-platform.ts on Node (dist/server.js,
 * `subagents lsp`), nothing of it in a browser's Web Worker (server/browser-main.ts), where every
 * file comes through the client and the client watches files.
 */
import type { WorkspaceHost } from '../shared';
import type { WatchHost } from './watch';

/** Server-side watching, for clients that cannot register file watchers (server/watch.ts). */
export interface FolderWatching {
  /** The folders watched now. */
  watched(): string[];
  /** A document was opened: the folders up to its workspace folder are worth watching. */
  opened(path: string): void;
  /** Soon: the folders worth watching may have changed. */
  refresh(): void;
  /** At once. */
  refreshNow(): void;
  dispose(): void;
}

/** Where the server's own resolve command writes its rendering (commands.ts). */
export interface RenderingStore {
  /** Writes the rendering of one source file (one file per source, rewritten each time); returns its path. */
  write(uri: string, baseName: string, markdown: string): string;
  /** Removes what was written. */
  dispose(): void;
}

export interface ServerPlatform {
  /** The disk; undefined in a browser (every file comes through the client, and there is no home folder). */
  disk?: WorkspaceHost;
  /** Watches folders for clients that cannot; undefined: such clients go without. */
  watchFolders?: (host: WatchHost) => FolderWatching;
  /** Where the resolve command's rendering goes; undefined: the command answers with a message only. */
  renderings?: () => RenderingStore;
}
