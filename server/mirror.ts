/**
 * The files the server cannot read itself, read through the client: a virtual workspace's
 * (`vscode-vfs:` in github.dev, `memfs:`), and in a browser's Web Worker every file. The client
 * answers `subagents/readDirectory`, `subagents/readFile` and `subagents/stat` (shared/protocol.ts)
 * with `vscode.workspace.fs`.
 *
 * The engine reads synchronously (shared/host.ts), so what it will ask is loaded ahead: the
 * workspace index lists every folder, then reads the configurations and the definition files,
 * into this mirror (server/workspace-index.ts), and watched-file events load again what changed.
 * A path that was never loaded is, to the engine, a file that is not there.
 *
 * Round trips: folders are listed a level at a time and files read in batches of `BATCH` URIs
 * per request, `PARALLEL` requests at a time. Limits: a file over `MAX_FILE_BYTES` (5 MB, as on
 * disk) is not read (the client checks its size first), and the mirror holds at most
 * `MAX_MIRRORED_BYTES` of text: past that, files are not read and the log says so once.
 */
import { posix } from 'path';
import {
  MAX_FILE_BYTES,
  READ_DIRECTORY_REQUEST,
  READ_FILE_REQUEST,
  STAT_REQUEST,
  isSkippedFolder,
  type DirEntry,
  type EntryKind,
  type Homes,
  type ReadDirectoryResult,
  type ReadFileResult,
  type StatResult,
  type WorkspaceHost,
} from '../shared';

/** URIs per request. */
export const BATCH = 100;
/** Requests in flight at once. */
export const PARALLEL = 4;
/** Text held in all (UTF-16 code units, about bytes for the ASCII of definitions). */
export const MAX_MIRRORED_BYTES = 64 * 1024 * 1024;

export interface ClientFilesHost {
  /** Sends a request to the client. */
  request<R>(method: string, params: unknown): Promise<R>;
  toUri(path: string): string;
  log(message: string): void;
}

type Stored = string | { error: string };

/** Runs `work` over `items` in batches of `BATCH`, `PARALLEL` batches at a time; results in order. */
async function inBatches<T, R>(items: readonly T[], work: (batch: T[]) => Promise<R[]>): Promise<R[]> {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += BATCH) batches.push(items.slice(i, i + BATCH));
  const results: R[][] = [];
  let next = 0;
  const worker = async () => {
    while (next < batches.length) {
      const i = next++;
      results[i] = await work(batches[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, batches.length) }, worker));
  const out: R[] = [];
  for (const r of results) for (const x of r) out.push(x);
  return out;
}

export class ClientFiles implements WorkspaceHost {
  /** Folder → its entries (null: it could not be listed). */
  private readonly listings = new Map<string, DirEntry[] | null>();
  private readonly texts = new Map<string, Stored>();
  private bytes = 0;
  private warnedFull = false;

  constructor(private readonly host: ClientFilesHost) {}

  // ----- the engine's synchronous reads

  readDirectory(dir: string): DirEntry[] | undefined {
    return this.listings.get(dir) ?? undefined;
  }

  readFile(path: string): string {
    const stored = this.texts.get(path);
    if (typeof stored === 'string') return stored;
    throw new Error(stored?.error ?? 'no such file or folder');
  }

  stat(path: string): EntryKind | undefined {
    if (this.listings.get(path)) return 'folder';
    if (typeof this.texts.get(path) === 'string') return 'file';
    return this.listings.get(posix.dirname(path))?.find((e) => e.name === posix.basename(path))?.kind;
  }

  toUri(path: string): string {
    return this.host.toUri(path);
  }

  homes(): Homes | undefined {
    return undefined;
  }

  // ----- loading

  /**
   * Lists every folder below `roots` (skipping node_modules and .git), a level at a time, `depth`
   * levels at most (1: the roots alone); returns every file found.
   */
  async listTree(roots: readonly string[], stale: () => boolean = () => false, depth = Infinity): Promise<string[]> {
    const files: string[] = [];
    let level = [...roots];
    for (let d = 0; d < depth && level.length && !stale(); d++) {
      const listed = await inBatches(level, (dirs) => this.listBatch(dirs));
      const next: string[] = [];
      level.forEach((dir, i) => {
        const entries = listed[i];
        this.listings.set(dir, entries);
        for (const e of entries ?? []) {
          const full = dir === '/' ? `/${e.name}` : `${dir}/${e.name}`;
          if (e.kind === 'file') files.push(full);
          else if (!isSkippedFolder(e.name)) next.push(full);
        }
      });
      level = next;
    }
    return files;
  }

  /** Reads these files (those already held are read again: they may have changed). */
  async readFiles(paths: readonly string[]): Promise<void> {
    const results = await inBatches(paths, async (batch) => {
      const r = await this.host.request<ReadFileResult>(READ_FILE_REQUEST, {
        uris: batch.map((p) => this.host.toUri(p)),
        maxBytes: MAX_FILE_BYTES,
      });
      return batch.map((_, i) => r?.files?.[i] ?? { error: 'no answer from the editor' });
    });
    paths.forEach((path, i) => this.store(path, results[i]));
  }

  /** What is at each path now, asked of the client (a watched-file event names a file or a folder). */
  async statAll(paths: readonly string[]): Promise<(EntryKind | undefined)[]> {
    return inBatches(paths, async (batch) => {
      const r = await this.host.request<StatResult>(STAT_REQUEST, { uris: batch.map((p) => this.host.toUri(p)) });
      return batch.map((_, i) => {
        const kind = r?.kinds?.[i];
        return kind === 'file' || kind === 'folder' ? kind : undefined;
      });
    });
  }

  /**
   * A path is at this kind now (undefined: gone): the parent's listing follows, and what was below a folder that went
   * goes.
   */
  noteKind(path: string, kind: EntryKind | undefined): void {
    const parent = this.listings.get(posix.dirname(path));
    const name = posix.basename(path);
    if (parent) {
      const at = parent.findIndex((e) => e.name === name);
      if (at >= 0) parent.splice(at, 1);
      if (kind) parent.push({ name, kind });
    }
    if (kind !== 'file') this.drop(path);
    if (kind !== 'folder') this.dropBelow(path);
  }

  private async listBatch(dirs: string[]): Promise<(DirEntry[] | null)[]> {
    const r = await this.host.request<ReadDirectoryResult>(READ_DIRECTORY_REQUEST, {
      uris: dirs.map((d) => this.host.toUri(d)),
    });
    return dirs.map((_, i) => {
      const entries = r?.entries?.[i];
      if (!Array.isArray(entries)) return null;
      const out: DirEntry[] = [];
      for (const e of entries) {
        // The answer is read as hostile input: names are plain names, kinds one of two.
        if (
          !Array.isArray(e) ||
          typeof e[0] !== 'string' ||
          !e[0] ||
          e[0].includes('/') ||
          e[0] === '.' ||
          e[0] === '..'
        )
          continue;
        if (e[1] === 'file' || e[1] === 'folder') out.push({ name: e[0], kind: e[1] });
      }
      return out;
    });
  }

  private store(path: string, result: unknown): void {
    this.drop(path);
    const text = (result as { text?: unknown } | undefined)?.text;
    if (typeof text !== 'string') {
      const error = (result as { error?: unknown } | undefined)?.error;
      this.texts.set(path, { error: typeof error === 'string' ? error : 'not read' });
      return;
    }
    if (text.length > MAX_FILE_BYTES) {
      this.texts.set(path, { error: `is larger than ${MAX_FILE_BYTES} bytes` });
      return;
    }
    if (this.bytes + text.length > MAX_MIRRORED_BYTES) {
      if (!this.warnedFull)
        this.host.log(
          `subagents: the workspace's definitions exceed ${MAX_MIRRORED_BYTES / 1024 / 1024} MB; files past that are not read.`,
        );
      this.warnedFull = true;
      this.texts.set(path, { error: 'not read: the workspace holds too much text' });
      return;
    }
    this.bytes += text.length;
    this.texts.set(path, text);
  }

  private drop(path: string): void {
    const old = this.texts.get(path);
    if (typeof old === 'string') this.bytes -= old.length;
    this.texts.delete(path);
  }

  private dropBelow(folder: string): void {
    const prefix = `${folder}/`;
    for (const dir of [...this.listings.keys()])
      if (dir === folder || dir.startsWith(prefix)) this.listings.delete(dir);
    for (const path of [...this.texts.keys()]) if (path.startsWith(prefix)) this.drop(path);
  }
}
