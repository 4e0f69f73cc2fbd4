/**
 * Server-side file watching, for clients that cannot register `workspace/didChangeWatchedFiles`
 * (Neovim up to 0.9 and many small clients). Without it a `.subagents.yaml` edited outside
 * the editor, or a definition added to a discovery folder (Polytoken's), would go unnoticed until
 * the server restarts.
 *
 * Only folders where a change matters are watched, each with one non-recursive `fs.watch`
 * (no polling, no walk of the tree), at most `MAX_WATCHED_FOLDERS`:
 * - each workspace folder, the project folders of the dialects there (`.polytoken/subagents/`),
 *   and the folder of every configuration in use, with that configuration's discovery folders
 *   (Polytoken's global folder and `subagentDirs`);
 * - every folder from an open document's folder up to its workspace folder: that is where a
 *   `.subagents.yaml` applying to the document can appear, change or go.
 * Events are debounced and handed, as `FileEvent`s, to the same handler as the client's
 * `workspace/didChangeWatchedFiles` notifications: the definition files and configurations, and
 * any other name in a watched folder, which may be a folder moved in or out (the index rescans
 * or forgets what is below it).
 */
import * as fs from 'fs';
import { posix } from 'path';
import { FileChangeType, type FileEvent } from 'vscode-languageserver';
import { CONFIG_FILE_NAME, DIALECTS, dialectModules, discoveryFolders, type LoadedConfig } from '../shared';
import { pathToUri } from './uri';

export const MAX_WATCHED_FOLDERS = 64;
/** Editors save in several steps (write a temporary file, rename it): one batch per save. */
const DEBOUNCE_MS = 100;
/** The files the workspace index reads (the VS Code client watches the same extensions). */
const INDEXED_EXTENSIONS = new Set(['.md', '.yaml', '.yml', '.json']);

export interface WatchHost {
  folders(): readonly string[];
  openPaths(): Iterable<string>;
  folderOf(path: string): string | undefined;
  configFor(path: string): LoadedConfig;
  /** The handler of the client's `workspace/didChangeWatchedFiles`. */
  onChanges(changes: FileEvent[]): void;
  log(message: string): void;
}

/** The configuration's folder and its discovery folders. */
function configFolders(loaded: LoadedConfig): string[] {
  const out = loaded.path ? [posix.dirname(loaded.path)] : [];
  for (const d of DIALECTS) for (const dir of discoveryFolders(d, [loaded])) out.push(dir);
  return out;
}

/** The folders worth watching, most useful first (the caller keeps the first `MAX_WATCHED_FOLDERS`). */
export function foldersToWatch(host: Pick<WatchHost, 'folders' | 'openPaths' | 'folderOf' | 'configFor'>): string[] {
  const out = new Set<string>();
  const open = [...host.openPaths()];
  for (const folder of host.folders()) {
    out.add(folder);
    for (const m of dialectModules()) if (m.files.projectFolder) out.add(posix.join(folder, m.files.projectFolder));
    for (const f of configFolders(host.configFor(posix.join(folder, '_')))) out.add(f);
  }
  for (const path of open) for (const f of configFolders(host.configFor(path))) out.add(f);
  for (const path of open) for (const f of folderChain(host, path)) out.add(f);
  return [...out];
}

/**
 * The file's folder and each one above it up to its workspace folder (just its folder outside every workspace folder).
 */
function folderChain(host: Pick<WatchHost, 'folderOf'>, path: string): string[] {
  const folder = host.folderOf(path);
  let dir = posix.dirname(path);
  const out = [dir];
  while (folder && dir.startsWith(folder + '/')) {
    dir = posix.dirname(dir);
    out.push(dir);
  }
  return out;
}

const isWatchedFile = (name: string): boolean =>
  name === CONFIG_FILE_NAME || INDEXED_EXTENSIONS.has(posix.extname(name));

const isDirectory = (path: string): boolean => {
  try {
    return fs.statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** The nearest folder above `dir` that exists. */
function existingAncestor(dir: string): string | undefined {
  for (let d = posix.dirname(dir); ; d = posix.dirname(d)) {
    if (isDirectory(d)) return d;
    if (d === posix.dirname(d)) return undefined;
  }
}

export class FolderWatcher {
  private readonly watchers = new Map<string, fs.FSWatcher>();
  /** Wanted folders that do not exist (yet): when one appears, its files are reported as created. */
  private missing = new Set<string>();
  /**
   * Watched in place of a missing folder (its nearest existing parent): an event there only
   * means the wanted folder may have appeared.
   */
  private standIns = new Set<string>();
  private readonly pending = new Set<string>();
  private flushTimer: NodeJS.Timeout | undefined;
  private refreshTimer: NodeJS.Timeout | undefined;
  private warnedCap = false;
  private disposed = false;

  constructor(private readonly host: WatchHost) {}

  /** The folders watched now. */
  watched(): string[] {
    return [...this.watchers.keys()];
  }

  /**
   * A document was opened: its folders are watched at once, before its first analysis, so a
   * change right after opening is not missed; the full recomputation follows.
   */
  opened(path: string): void {
    if (this.disposed) return;
    for (const dir of [...configFolders(this.host.configFor(path)), ...folderChain(this.host, path)]) {
      if (this.watchers.size >= MAX_WATCHED_FOLDERS) break;
      if (!this.watchers.has(dir) && isDirectory(dir)) this.watch(dir);
    }
    this.refresh();
  }

  /** Recomputes the folders soon (documents closed, configuration changed, a folder appeared). */
  refresh(): void {
    if (this.disposed) return;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = setTimeout(() => this.refreshNow(), 20);
  }

  refreshNow(): void {
    if (this.disposed) return;
    const wanted = foldersToWatch(this.host);
    const keep = new Set<string>();
    const standIns = new Set<string>();
    const missing = new Set<string>();
    for (const dir of wanted) {
      if (keep.size >= MAX_WATCHED_FOLDERS) {
        if (!this.warnedCap)
          this.host.log(
            `subagents: watching ${MAX_WATCHED_FOLDERS} folders, not all ${wanted.length}; changes elsewhere are seen on save or restart.`,
          );
        this.warnedCap = true;
        break;
      }
      if (isDirectory(dir)) {
        keep.add(dir);
        continue;
      }
      missing.add(dir);
      const parent = existingAncestor(dir);
      if (parent && !keep.has(parent)) {
        keep.add(parent);
        standIns.add(parent);
      }
    }
    const wantedSet = new Set(wanted);
    for (const dir of standIns) if (wantedSet.has(dir)) standIns.delete(dir);
    for (const [dir, w] of this.watchers) {
      if (keep.has(dir)) continue;
      w.close();
      this.watchers.delete(dir);
    }
    for (const dir of keep) {
      if (!this.watchers.has(dir) && !this.watch(dir)) continue;
      // It appeared since the last refresh: whatever it already holds is new to the server.
      if (this.missing.has(dir) && !standIns.has(dir))
        for (const name of this.list(dir)) this.queue(posix.join(dir, name));
    }
    this.missing = missing;
    this.standIns = standIns;
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.flushTimer);
    clearTimeout(this.refreshTimer);
    for (const w of this.watchers.values()) w.close();
    this.watchers.clear();
  }

  private watch(dir: string): boolean {
    let watcher: fs.FSWatcher;
    try {
      watcher = fs.watch(dir, { persistent: false }, (_event, name) => {
        // No name (some platforms): the configuration is the file worth re-reading.
        const file = name ? String(name) : CONFIG_FILE_NAME;
        // Any other name may be a folder's (a `.polytoken/` renamed, a `.picasso/` moved in): the
        // index rescans or forgets what is below it.
        if (!this.standIns.has(dir)) this.queue(posix.join(dir, file));
        if (this.standIns.has(dir) || !isWatchedFile(file)) this.refresh(); // a wanted folder may have appeared or gone
      });
    } catch {
      return false;
    }
    watcher.on('error', () => {
      // The folder went away: stop, and let the next refresh decide.
      watcher.close();
      if (this.watchers.get(dir) === watcher) this.watchers.delete(dir);
      this.refresh();
    });
    this.watchers.set(dir, watcher);
    return true;
  }

  private list(dir: string): string[] {
    try {
      return fs.readdirSync(dir).filter(isWatchedFile);
    } catch {
      return [];
    }
  }

  private queue(path: string): void {
    this.pending.add(path);
    clearTimeout(this.flushTimer);
    this.flushTimer = setTimeout(() => this.flush(), DEBOUNCE_MS);
  }

  private flush(): void {
    if (this.disposed) return;
    const changes: FileEvent[] = [...this.pending].map((path) => ({
      uri: pathToUri(path),
      type: fs.existsSync(path) ? FileChangeType.Changed : FileChangeType.Deleted,
    }));
    this.pending.clear();
    if (changes.length) this.host.onChanges(changes);
  }
}
