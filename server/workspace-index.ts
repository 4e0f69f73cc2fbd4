/**
 * The server's side of the workspace index (shared/workspace/definitions.ts): built at
 * start-up from the workspace folders and each dialect's discovery folders, kept
 * current by file watching and by the text of open documents, which wins over the disk.
 * Every update says which name keys it touched, so that only the open documents of
 * those names are checked again.
 *
 * Rebuilds and batches of watched-file events run one after the other, each in slices of a few
 * milliseconds that yield to the event loop (nothing walks a tree in one go: adding `/` as a
 * workspace folder leaves requests answered meanwhile). A batch waits for a running rebuild, so
 * what it read from disk is never overwritten by the rebuild's older reading.
 */
import { posix } from 'path';
import { FileChangeType, type ClientCapabilities, type Connection, type FileEvent } from 'vscode-languageserver';
import { kindOf, type Analysis } from '../shared';
import { CONFIG_FILE_NAME, type LoadedConfig } from '../shared';
import { definitionNames } from '../shared';
import { relativeInside } from '../shared';
import {
  DefinitionIndex as NameIndex,
  DIALECTS,
  discoveryFolders,
  inSkippedFolder,
  isDiscoveryDefinition,
  namesFromText,
  readDiscoveryFolders,
  readIfRegular,
  walkHost,
  type IndexEntry,
} from '../shared';
import type { Dialect, FileKind } from '../shared';
import type { Configuration } from './configuration';
import type { ServerFiles } from './files';
import { yieldTurn } from './turn';
import { pathToUri, uriToPath } from './uri';

export interface DefinitionIndexHost {
  connection: Connection;
  capabilities: () => ClientCapabilities;
  configuration: Configuration;
  /** How files are read: the disk, or the client's files, which the index loads ahead (server/mirror.ts). */
  files: ServerFiles;
  /** Configuration files were loaded through the client: what was found before they were is stale. */
  configurationsLoaded: () => void;
  /** Whether a path is open in the editor: its text wins over the disk. */
  isOpen: (path: string) => boolean;
  /** Called when a rebuild completes: cached analyses are stale. */
  onRebuilt: () => void;
}

/** What a batch of watched-file events changed. */
export interface FilesChanged {
  /** A `.subagents.yaml` came, changed or went: the configuration is to be read again (and the index rebuilt). */
  configChanged: boolean;
  /** The Polytoken and Picasso name keys whose definitions changed. */
  touched: string[];
  /** The files whose entries were read again or removed. */
  files: string[];
}

/** Work per turn of the event loop: requests wait at most about this long. */
const SLICE_MS = 4;

/**
 * Time slices: `due()` once this one is used up, then `next()` yields to the event loop and starts
 * another. The connection hands over one message per turn of the event loop, so while messages
 * keep coming (`busy`), a slice per turn would let one message through per slice: then the pause
 * lasts a slice too, and the messages already received (a hover behind 10,000 notifications) go
 * through meanwhile.
 */
class Slices {
  private deadline = performance.now() + SLICE_MS;

  constructor(private readonly busy: () => boolean = () => false) {}

  due(): boolean {
    return performance.now() >= this.deadline;
  }

  async next(): Promise<void> {
    if (this.busy()) await new Promise((resolve) => setTimeout(resolve, SLICE_MS));
    else await yieldTurn();
    this.deadline = performance.now() + SLICE_MS;
  }
}

/** The paths below any of `folders` (a set of paths), found by walking each path's parents. */
function isBelowAny(path: string, folders: ReadonlySet<string>): boolean {
  for (let dir = posix.dirname(path); ; dir = posix.dirname(dir)) {
    if (folders.has(dir)) return true;
    if (dir === posix.dirname(dir)) return false;
  }
}

export class DefinitionIndex {
  readonly names = new NameIndex();
  /**
   * Every definition and configuration file inside the workspace folders, in walk order (those
   * that do not parse included: they are the ones with the most to report). What Problems lists
   * for closed files (server/workspace-problems.ts).
   */
  readonly checkedFiles = new Map<string, FileKind>();
  /** Told after a batch of watched-file events changed `checkedFiles`. */
  onCheckedFilesChanged: ((paths: readonly string[]) => void) | undefined;
  /** Bumped per rebuild: an older rebuild still running stops. */
  private build = 0;
  /** Rebuilds and event batches, one after the other. */
  private work: Promise<unknown> = Promise.resolve();
  private shuttingDown = false;

  constructor(private readonly host: DefinitionIndexHost) {}

  /** Records the names from an open document's analysis; returns the name keys whose definitions changed. */
  updateFromAnalysis(path: string, uri: string, analysis: Analysis): string[] {
    if (!analysis.context || !analysis.kind || analysis.kind === 'config') return this.names.set(path, undefined);
    return this.names.set(path, {
      path,
      uri,
      kind: analysis.kind,
      names: definitionNames(analysis.kind, analysis.context.file, path),
    });
  }

  /** A document was closed: back to what is on disk (outside every folder: forgotten). */
  documentClosed(path: string): string[] {
    if (this.host.configuration.folderOf(path)) return this.indexFile(path);
    return this.names.set(path, undefined);
  }

  /**
   * Applies a batch of watched-file events, after any rebuild under way. An event for a path that
   * is not a definition may be a folder's: one that went takes every entry below it along, one
   * that came (moved in, renamed back) is walked for the definitions it holds. `busy`: more
   * messages came since it last asked (the work then pauses longer between slices).
   */
  filesChanged(changes: readonly FileEvent[], busy?: () => boolean): Promise<FilesChanged> {
    return this.enqueue(async () => {
      const release = this.names.hold(); // the workspace view hears of each name once per batch
      try {
        return await this.applyChanges(changes, new Slices(busy));
      } finally {
        release();
      }
    });
  }

  /**
   * Reads every definition in the workspace folders and the dialects' discovery folders
   * (Polytoken's global folder and `subagentDirs`), with work-done progress, in slices so
   * requests are answered meanwhile. Open documents keep their entries.
   */
  rebuild(): Promise<void> {
    const build = ++this.build;
    return this.enqueue(() => this.runBuild(build));
  }

  shutdown(): void {
    this.shuttingDown = true;
  }

  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const run = this.work.then(task);
    this.work = run.catch(() => undefined);
    return run;
  }

  private async runBuild(build: number): Promise<void> {
    if (build !== this.build || this.shuttingDown) return;
    const { connection, capabilities, configuration } = this.host;
    const progress = capabilities().window?.workDoneProgress
      ? await connection.window.createWorkDoneProgress().catch(() => undefined)
      : undefined;
    progress?.begin('Subagents: indexing definitions', undefined, undefined, false);
    try {
      if (await this.load(build)) return;
      const found = new Map<string, IndexEntry>();
      const checked = new Map<string, FileKind>();
      // The discovery folders of each folder's configuration, and of each definition's, per dialect.
      const folderConfigs = configuration.folders.map((folder) => configuration.configFor(posix.join(folder, '_')));
      const configs = new Map<Dialect, Set<LoadedConfig>>(DIALECTS.map((d) => [d, new Set(folderConfigs)]));
      let done = 0;
      const slices = new Slices();
      const pause = async () => {
        progress?.report(`${done.toLocaleString('en')} files`);
        await slices.next();
        return build !== this.build || this.shuttingDown;
      };
      for (const folder of configuration.folders) {
        for (const files of walkHost(this.host.files, folder)) {
          for (const path of files) {
            const config = configuration.configFor(path);
            const kind = kindOf({ path, config, root: configuration.folderOf(path) });
            if (kind) checked.set(path, kind);
            if (kind && kind !== 'config') {
              const entry = this.readEntry(path, kind);
              if (entry) found.set(path, entry);
              configs.get(kind)?.add(config);
            }
            done++;
            if (slices.due() && (await pause())) return;
          }
          if (slices.due() && (await pause())) return;
        }
      }
      for (const [kind, used] of configs)
        for (const e of readDiscoveryFolders(kind, discoveryFolders(kind, used), this.host.files, (p) => found.has(p)))
          found.set(e.path, e);
      if (build !== this.build || this.shuttingDown) return;
      this.names.replaceAll(found, this.host.isOpen);
      this.checkedFiles.clear();
      for (const [path, kind] of checked) this.checkedFiles.set(path, kind);
      this.host.onRebuilt();
    } finally {
      progress?.done();
    }
  }

  private async applyChanges(changes: readonly FileEvent[], slices: Slices): Promise<FilesChanged> {
    const { configuration, isOpen } = this.host;
    const result = { configChanged: false, touched: new Set<string>(), files: new Set<string>() };
    const checkedChanged: string[] = [];
    const set = (path: string, entry: IndexEntry | undefined, kind?: Dialect) => {
      for (const n of this.names.set(path, entry)) result.touched.add(n);
      result.files.add(path);
      if (kind) this.checkedFiles.set(path, kind);
      else this.checkedFiles.delete(path);
      checkedChanged.push(path);
    };
    const goneFolders = new Set<string>();
    const newFolders: string[] = [];
    await this.loadChanges(changes);
    for (const change of changes) {
      if (slices.due()) await slices.next();
      if (this.shuttingDown) break;
      const path = uriToPath(change.uri);
      if (!path || this.skipped(path)) continue;
      if (posix.basename(path) === CONFIG_FILE_NAME) {
        result.configChanged = true;
        continue;
      }
      if (isOpen(path)) continue; // the editor's text wins
      if (change.type === FileChangeType.Deleted) {
        if (this.names.get(path) || this.checkedFiles.has(path)) set(path, undefined);
        else goneFolders.add(path); // maybe a folder
        continue;
      }
      if (!configuration.folderOf(path)) continue;
      const kind = this.kindAt(path);
      if (kind || this.names.get(path) || this.checkedFiles.has(path))
        set(path, kind ? this.readEntry(path, kind) : undefined, kind);
      else if (this.isFolder(path)) newFolders.push(path);
    }
    if (goneFolders.size) this.removeBelow(goneFolders, set, result);
    if (checkedChanged.length) this.onCheckedFilesChanged?.(checkedChanged);
    // A folder that came: what it holds is new. A configuration among it means a rebuild, which reads everything.
    for (const folder of newFolders) {
      if (result.configChanged || this.shuttingDown) break;
      for (const files of walkHost(this.host.files, folder)) {
        for (const path of files) {
          if (slices.due()) await slices.next();
          if (result.configChanged || this.shuttingDown) break;
          if (posix.basename(path) === CONFIG_FILE_NAME) result.configChanged = true;
          else if (!isOpen(path)) {
            const kind = this.kindAt(path);
            if (kind) set(path, this.readEntry(path, kind), kind);
          }
        }
        if (result.configChanged || this.shuttingDown) break;
        if (slices.due()) await slices.next();
      }
    }
    return { configChanged: result.configChanged, touched: [...result.touched], files: [...result.files] };
  }

  /** Folders that went: every entry below them goes too, and a configuration below them changes things. */
  private removeBelow(
    folders: ReadonlySet<string>,
    set: (path: string, entry: undefined) => void,
    result: { configChanged: boolean },
  ): void {
    const below = new Set<string>();
    for (const entry of this.names.all())
      if (!this.host.isOpen(entry.path) && isBelowAny(entry.path, folders)) below.add(entry.path);
    for (const path of this.checkedFiles.keys())
      if (!this.host.isOpen(path) && isBelowAny(path, folders)) below.add(path);
    for (const path of below) set(path, undefined);
    for (const loaded of this.host.configuration.loadedConfigs())
      if (loaded.path && isBelowAny(loaded.path, folders)) result.configChanged = true;
  }

  /** A path in node_modules or .git below its workspace folder: never indexed. */
  private skipped(path: string): boolean {
    const folder = this.host.configuration.folderOf(path);
    const inside = folder === undefined ? undefined : relativeInside(folder, path);
    return inside !== undefined && inSkippedFolder(inside);
  }

  /** The dialect of a definition file at this path (undefined for anything else, the configuration included). */
  private kindAt(path: string): Dialect | undefined {
    const folder = this.host.configuration.folderOf(path);
    const kind = kindOf({ path, config: this.host.configuration.configFor(path), root: folder });
    return kind && kind !== 'config' ? kind : undefined;
  }

  /** Re-reads one file from disk. */
  private indexFile(path: string): string[] {
    const kind = this.kindAt(path);
    if (kind) this.checkedFiles.set(path, kind);
    else this.checkedFiles.delete(path);
    return this.names.set(path, kind ? this.readEntry(path, kind) : undefined);
  }

  /** A file's entry; undefined when it cannot be read or parsed: nothing to index, as the runtime skips it. */
  private readEntry(path: string, kind: Dialect): IndexEntry | undefined {
    const text = readIfRegular(this.host.files, path);
    const names = text === undefined ? undefined : namesFromText(kind, text, path);
    return names ? { path, uri: pathToUri(path), kind, names } : undefined;
  }

  /**
   * A folder, not reached through a link: its parent lists it as a folder (a link to a folder is
   * never listed), so a link to `/` made in the workspace is not walked.
   */
  private isFolder(path: string): boolean {
    const { files } = this.host;
    if (files.stat(path) !== 'folder') return false;
    const name = posix.basename(path);
    return !!files.readDirectory(posix.dirname(path))?.some((e) => e.name === name && e.kind === 'folder');
  }

  /**
   * Loads what a rebuild reads through the client into its files (server/mirror.ts): every folder
   * of the workspace folders read that way is listed, then their configurations are read, then
   * the definition files they make (and those of discovery folders read that way). Nothing to do
   * for folders on the disk. True when a newer rebuild or the shutdown made this one stale.
   */
  private async load(build: number): Promise<boolean> {
    const { files, configuration } = this.host;
    const roots = configuration.folders.filter((f) => files.throughClient(f));
    if (!files.client || !roots.length) return false;
    const stale = () => build !== this.build || this.shuttingDown;
    const found = await files.client.listTree(roots, stale);
    if (!stale()) await this.loadFiles(found);
    return stale();
  }

  /** Reads the configurations among `found`, then the definition files (read through the client). */
  private async loadFiles(found: readonly string[]): Promise<void> {
    const { files, configuration } = this.host;
    const client = files.client;
    if (!client) return;
    const configs = found.filter((p) => posix.basename(p) === CONFIG_FILE_NAME);
    if (configs.length) {
      await client.readFiles(configs);
      this.host.configurationsLoaded();
    }
    // The configurations just read are loaded again (the reset above forgot them): theirs and the
    // folders' discovery folders, which may lie outside every folder, are listed and their definitions read.
    const loaded = [
      ...configuration.folders.map((folder) => configuration.configFor(posix.join(folder, '_'))),
      ...configs.map((path) => configuration.configFor(path)),
    ];
    const discovery = new Map<string, Dialect[]>();
    for (const kind of DIALECTS)
      for (const dir of discoveryFolders(kind, loaded))
        if (files.throughClient(dir) && !files.readDirectory(dir))
          discovery.set(dir, [...(discovery.get(dir) ?? []), kind]);
    const more = discovery.size ? await client.listTree([...discovery.keys()], undefined, 1) : [];
    const discovered = (p: string) => !!discovery.get(posix.dirname(p))?.some((kind) => isDiscoveryDefinition(kind, p));
    await client.readFiles(
      [...found, ...more].filter((p) => !this.skipped(p) && (this.kindAt(p) !== undefined || discovered(p))),
    );
  }

  /**
   * Watched-file events of files read through the client: what is at each path now is asked, a
   * folder that came is listed, and files are read again, before the events are applied.
   */
  private async loadChanges(changes: readonly FileEvent[]): Promise<void> {
    const { files } = this.host;
    const client = files.client;
    const paths = changes
      .map((c) => uriToPath(c.uri))
      .filter((p): p is string => !!p && files.throughClient(p) && !this.skipped(p));
    if (!client || !paths.length) return;
    const kinds = await client.statAll(paths);
    const folders: string[] = [];
    const changed: string[] = [];
    paths.forEach((path, i) => {
      client.noteKind(path, kinds[i]);
      if (kinds[i] === 'folder') folders.push(path);
      else if (kinds[i] === 'file') changed.push(path);
    });
    const below = folders.length ? await client.listTree(folders) : [];
    await this.loadFiles([...changed, ...below]);
  }
}
