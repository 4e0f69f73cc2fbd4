/**
 * The configuration as it is now, not as it was saved:
 * - an open `.subagents.yaml` applies as typed: the configuration loader reads the editor's text
 *   (`Configuration.openText`), and after a pause in typing the open definitions are checked
 *   again (the index is rebuilt only when what decides which files are definitions changed);
 * - the definition files beyond the default globs (`files:`, the dialects' discovery folders in
 *   the workspace, such as `polytoken.subagentDirs`) are sent to the client
 *   (`subagents/documentPatterns`), which hands the server only the files it selects;
 * - discovery folders outside the workspace (the global folder) are watched through the client,
 *   with a relative pattern on the folder.
 */
import { posix } from 'path';
import {
  DidChangeWatchedFilesNotification,
  type ClientCapabilities,
  type Connection,
  type Disposable,
} from 'vscode-languageserver';
import { parseConfig, readIfRegular, type LoadedConfig, type WorkspaceHost } from '../shared';
import { DIALECTS, dialectModules, discoveryWatches, recognitionKey } from '../shared';
import { relativeInside } from '../shared';
import { DOCUMENT_PATTERNS_NOTIFICATION, type DocumentPattern, type DocumentPatternsParams } from '../shared';
import type { Configuration } from './configuration';
import type { Timer } from './turn';
import { pathToUri } from './uri';

/** A pause in typing before an edited configuration applies. */
const CONFIG_TYPING_PAUSE_MS = 300;

export interface LiveConfigHost {
  connection: Connection;
  capabilities: () => ClientCapabilities;
  configuration: Configuration;
  /** How configuration files are read when they are not open (the disk, or the client's files). */
  files: WorkspaceHost;
  /** The editor's text of an open file; undefined when it is not open. */
  openText: (path: string) => string | undefined;
  /**
   * Forgets the loaded configurations and checks the open documents again; `rebuildIndex` when
   * the text changed which files are definitions (then the index is rebuilt too).
   */
  configurationChanged: (rebuildIndex: boolean) => void;
  /** The client asked for `subagents/documentPatterns`. */
  wantsPatterns: () => boolean;
}

/** What decides which files are definitions: a change here needs an index rebuild. */
function discoveryKey(text: string | undefined, path: string): string {
  // Stryker disable next-line StringLiteral: any text that is no JSON array tells a missing file from every text
  if (text === undefined) return '';
  return recognitionKey(parseConfig(text, path, posix.dirname(path)));
}

/** The extra definition patterns of the loaded configurations, sorted and without repeats. */
export function documentPatterns(configs: Iterable<LoadedConfig>, folders: readonly string[]): DocumentPattern[] {
  const seen = new Map<string, DocumentPattern>();
  const add = (dir: string, pattern: string) =>
    seen.set(`${dir}\u0000${pattern}`, { baseUri: pathToUri(dir), pattern });
  for (const loaded of configs) {
    if (!loaded.path) continue;
    for (const d of DIALECTS) for (const glob of loaded.config.files[d] ?? []) add(loaded.dir, glob);
    for (const module of dialectModules()) {
      const pattern = module.files.discoveryPattern;
      if (pattern === undefined) continue;
      for (const abs of module.files.discoveryFolders?.(loaded) ?? [])
        if (folders.some((f) => f === abs || relativeInside(f, abs) !== undefined)) add(abs, pattern);
    }
  }
  return [...seen.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}

export class LiveConfiguration {
  private readonly timers = new Map<string, Timer>();
  /** Each configuration file's text as last applied (absent: the disk's; undefined: no file). */
  private readonly applied = new Map<string, string | undefined>();
  private sentPatterns: string | undefined;
  private watchedOutside = '';
  private outsideRegistration: Promise<Disposable | undefined> | undefined;

  constructor(private readonly host: LiveConfigHost) {}

  /** An open `.subagents.yaml` was edited, opened or closed: its current text applies after a pause. */
  configTextChanged(path: string): void {
    clearTimeout(this.timers.get(path));
    this.timers.set(
      path,
      setTimeout(() => {
        this.timers.delete(path);
        this.apply(path);
      }, CONFIG_TYPING_PAUSE_MS),
    );
  }

  /** The configuration file was saved or changed on disk: that text is the one in force. */
  saved(path: string): void {
    this.applied.delete(path);
  }

  /** After an index build: every configuration that governs a file is loaded now. */
  indexRebuilt(): void {
    this.sendPatterns();
    this.watchOutsideFolders();
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    void this.outsideRegistration?.then((d) => d?.dispose());
  }

  private apply(path: string): void {
    // undefined: no such file (which is not the same as an empty one).
    // The file's saved text, read as every file is (regular files only, within the size limit).
    const saved = () => readIfRegular(this.host.files, path);
    const text = this.host.openText(path) ?? saved();
    const previous = this.applied.has(path) ? this.applied.get(path) : saved();
    if (text === previous) return;
    this.applied.set(path, text);
    this.host.configurationChanged(discoveryKey(text, path) !== discoveryKey(previous, path));
  }

  private sendPatterns(): void {
    if (!this.host.wantsPatterns()) return;
    const params: DocumentPatternsParams = {
      patterns: documentPatterns(this.host.configuration.loadedConfigs(), this.host.configuration.folders),
    };
    const key = JSON.stringify(params);
    if (key === this.sentPatterns) return;
    this.sentPatterns = key;
    void this.host.connection.sendNotification(DOCUMENT_PATTERNS_NOTIFICATION, params);
  }

  /**
   * The discovery folders outside every workspace folder, watched through the client:
   * the `**` watchers the server registers only reach inside the workspace. (Clients that cannot
   * register watchers get the server's own, which watches these folders too: watch.ts.)
   */
  private watchOutsideFolders(): void {
    const watching = this.host.capabilities().workspace?.didChangeWatchedFiles;
    if (!watching?.dynamicRegistration) return;
    const { configuration } = this.host;
    const dirs = discoveryWatches(configuration.loadedConfigs())
      .filter((w) => !configuration.folderOf(w.dir))
      .sort((a, b) => (a.dir < b.dir ? -1 : a.dir > b.dir ? 1 : 0));
    const key = JSON.stringify(dirs);
    if (key === this.watchedOutside) return;
    this.watchedOutside = key;
    void this.outsideRegistration?.then((d) => d?.dispose());
    this.outsideRegistration = undefined;
    if (!dirs.length) return;
    // A relative pattern reaches outside the workspace; a client without them gets the absolute glob.
    const watchers = dirs.map(({ dir, pattern }) => ({
      globPattern: watching.relativePatternSupport ? { baseUri: pathToUri(dir), pattern } : `${dir}/${pattern}`,
    }));
    this.outsideRegistration = this.host.connection.client
      .register(DidChangeWatchedFilesNotification.type, { watchers })
      .catch(() => undefined);
  }
}
