/**
 * The server's workspace host (shared/host.ts): the disk where the server has one and the path
 * is a disk path, else the client (server/mirror.ts): a virtual workspace's files, and in a
 * browser every file. Without a disk there are no home folders, so no global folder.
 */
import type { DirEntry, EntryKind, Homes, WorkspaceHost } from '../shared';
import type { ClientFiles } from './mirror';
import { isVirtualPath, pathToUri } from './uri';

export class ServerFiles implements WorkspaceHost {
  constructor(
    /** The disk (Node); undefined in a browser. */
    private readonly disk: WorkspaceHost | undefined,
    /** The client's files, once it said it answers the file system requests. */
    public client: ClientFiles | undefined,
  ) {}

  /** Whether the server has no disk (a browser): every file comes through the client. */
  get diskless(): boolean {
    return !this.disk;
  }

  /** Whether this path is read through the client (loaded ahead by the workspace index). */
  throughClient(path: string): boolean {
    return !this.disk || isVirtualPath(path);
  }

  readDirectory(dir: string): DirEntry[] | undefined {
    return this.hostOf(dir)?.readDirectory(dir);
  }

  readFile(path: string): string {
    const host = this.hostOf(path);
    if (!host) throw new Error('the editor does not share this file system with the language server');
    return host.readFile(path);
  }

  stat(path: string): EntryKind | undefined {
    return this.hostOf(path)?.stat(path);
  }

  toUri(path: string): string {
    return pathToUri(path);
  }

  homes(): Homes | undefined {
    return this.disk?.homes();
  }

  private hostOf(path: string): WorkspaceHost | undefined {
    return this.throughClient(path) ? this.client : this.disk;
  }
}
