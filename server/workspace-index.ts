/**
 * The server's side of the workspace index (shared/workspace/definitions.ts): built at
 * start-up from the workspace folders and each dialect's discovery folders, kept
 * current by file watching and by the text of open documents, which wins over the disk.
 * Every update says which name keys it touched, so that only the open documents of
 * those names are checked again.
 */
import { posix } from 'path';
import { FileChangeType, type ClientCapabilities, type Connection, type FileEvent } from 'vscode-languageserver';
import { kindOf, type Analysis } from '../shared';
import { CONFIG_FILE_NAME, type LoadedConfig } from '../shared';
import { definitionNames } from '../shared';
import { nodeWorkspaceHost } from '../shared/node';
import { walkFiles } from '../shared/node';
import {
  DefinitionIndex as NameIndex,
  DIALECTS,
  discoveryFolders,
  namesFromText,
  readDiscoveryFolders,
  type IndexEntry,
  type WorkspaceHost,
} from '../shared';
import type { Dialect } from '../shared';
import type { Configuration } from './configuration';
import { pathToUri, uriToPath } from './uri';

export interface DefinitionIndexHost {
  connection: Connection;
  capabilities: () => ClientCapabilities;
  configuration: Configuration;
  /** Whether a path is open in the editor: its text wins over the disk. */
  isOpen: (path: string) => boolean;
  /** Called when a rebuild completes: cached analyses are stale. */
  onRebuilt: () => void;
}

const host: WorkspaceHost = { ...nodeWorkspaceHost, toUri: pathToUri };

/** A file's entry read from disk; undefined when it cannot be read or parsed: nothing to index, as the runtime skips it. */
function readEntry(path: string, kind: Dialect): IndexEntry | undefined {
  const text = host.readFile(path);
  const names = text === undefined ? undefined : namesFromText(kind, text, path);
  return names ? { path, uri: pathToUri(path), kind, names } : undefined;
}

export class DefinitionIndex {
  readonly names = new NameIndex();
  /** Bumped per rebuild: an older rebuild still running stops. */
  private build = 0;
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

  /** Applies watched-file events. A `.subagents.yaml` among them means the configuration changed. */
  filesChanged(changes: FileEvent[]): { configChanged: boolean; touched: string[] } {
    let configChanged = false;
    const touched = new Set<string>();
    for (const change of changes) {
      const path = uriToPath(change.uri);
      if (!path) continue;
      if (posix.basename(path) === CONFIG_FILE_NAME) {
        configChanged = true;
        continue;
      }
      if (this.host.isOpen(path)) continue; // the editor's text wins
      const names =
        change.type === FileChangeType.Deleted
          ? this.names.set(path, undefined)
          : this.host.configuration.folderOf(path)
            ? this.indexFile(path)
            : [];
      for (const n of names) touched.add(n);
    }
    return { configChanged, touched: [...touched] };
  }

  /**
   * Reads every definition in the workspace folders and the dialects' discovery folders
   * (Polytoken's global folder and `subagentDirs`), with work-done progress, yielding every 25 files so requests
   * are answered meanwhile. Open documents keep their entries.
   */
  async rebuild(): Promise<void> {
    const { connection, capabilities, configuration } = this.host;
    const build = ++this.build;
    const progress = capabilities().window?.workDoneProgress
      ? await connection.window.createWorkDoneProgress().catch(() => undefined)
      : undefined;
    progress?.begin('Subagents: indexing definitions', 0, undefined, false);
    try {
      const files: string[] = [];
      for (const folder of configuration.folders) for (const f of walkFiles(folder)) files.push(f);
      const found = new Map<string, IndexEntry>();
      // The discovery folders of each folder's configuration, and of each definition's, per dialect.
      const folderConfigs = configuration.folders.map((folder) => configuration.configFor(posix.join(folder, '_')));
      const configs = new Map<Dialect, Set<LoadedConfig>>(DIALECTS.map((d) => [d, new Set(folderConfigs)]));
      let done = 0;
      for (const path of files) {
        if (build !== this.build || this.shuttingDown) return;
        const config = configuration.configFor(path);
        const kind = kindOf({ path, config, root: configuration.folderOf(path) });
        if (kind && kind !== 'config') {
          const entry = readEntry(path, kind);
          if (entry) found.set(path, entry);
          configs.get(kind)?.add(config);
        }
        if (++done % 25 === 0) {
          progress?.report(Math.round((done / files.length) * 100), `${done}/${files.length} files`);
          await new Promise((r) => setImmediate(r));
        }
      }
      for (const [kind, used] of configs)
        for (const e of readDiscoveryFolders(kind, discoveryFolders(kind, used), host, (p) => found.has(p)))
          found.set(e.path, e);
      if (build !== this.build) return;
      this.names.replaceAll(found, this.host.isOpen);
      this.host.onRebuilt();
    } finally {
      progress?.done();
    }
  }

  shutdown(): void {
    this.shuttingDown = true;
  }

  /** Re-reads one file from disk. */
  private indexFile(path: string): string[] {
    const folder = this.host.configuration.folderOf(path);
    const config = this.host.configuration.configFor(path);
    const kind = kindOf({ path, config, root: folder });
    return this.names.set(path, kind && kind !== 'config' ? readEntry(path, kind) : undefined);
  }
}
