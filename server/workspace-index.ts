/**
 * The workspace index: every definition's names (Polytoken, Picasso, a Profy Expert and each of
 * its subagents). Built at start-up from the workspace folders, kept current by file watching
 * and by the text of open documents, which wins over the disk. Polytoken names feed
 * `polytoken/shadowed`; all names feed workspace symbols.
 */
import * as fs from 'fs';
import { posix } from 'path';
import { FileChangeType, type ClientCapabilities, type Connection, type FileEvent, type WorkspaceSymbol } from 'vscode-languageserver';
import { DIALECT_MODULES, kindOf, unreadableReason, type Analysis, type WorkspaceIndex } from '../shared/engine';
import { CONFIG_FILE_NAME, type LoadedConfig } from '../shared/config/config';
import { toPosix } from '../shared/files';
import { readRegularFile } from '../shared/node/read';
import { walkFiles } from '../shared/node/walk';
import { SourceText } from '../shared/text/source';
import type { Dialect } from '../shared/types';
import { definitionNames, quickDefinitionNames, workspaceSymbols, type IndexedFile } from '../shared/features/symbols';
import type { Configuration } from './configuration';
import { pathToUri, uriToPath } from './uri';

type PolytokenName = { path: string; name: string };

interface IndexEntry extends IndexedFile {
  path: string;
}

export interface DefinitionIndexHost {
  connection: Connection;
  capabilities: () => ClientCapabilities;
  configuration: Configuration;
  /** Paths of the documents open in the editor: their text wins over the disk. */
  openPaths: () => Set<string>;
  /** Called when a rebuild completes: cached analyses are stale. */
  onRebuilt: () => void;
}

function entryFromText(path: string, kind: Dialect, text: string): IndexEntry | undefined {
  if (unreadableReason(text)) return undefined;
  // Plain `name:` lines are read without a YAML parse.
  const quick = quickDefinitionNames(kind, text, path);
  if (quick) return { path, uri: pathToUri(path), kind, names: quick };
  const parsed = DIALECT_MODULES[kind].parse(new SourceText(text), path);
  return { path, uri: pathToUri(path), kind, names: definitionNames(kind, parsed, path) };
}

/** A file's entry read from disk; undefined when it cannot be read (or parsed): nothing to index, as the runtime skips it. */
function readEntry(path: string, kind: Dialect): IndexEntry | undefined {
  try {
    return entryFromText(path, kind, readRegularFile(path));
  } catch {
    return undefined;
  }
}

export class DefinitionIndex {
  private readonly entries = new Map<string, IndexEntry>();
  /**
   * The engine's view: the Polytoken names grouped by name, built on first use and then kept
   * current entry by entry in `set`, so typing a name costs no pass over the workspace.
   */
  private byName: Map<string, PolytokenName[]> | undefined;
  /** Bumped per rebuild: an older rebuild still running stops. */
  private build = 0;
  private shuttingDown = false;

  constructor(private readonly host: DefinitionIndexHost) {}

  /** The Polytoken names, as the engine reads them for `polytoken/shadowed`. */
  workspaceIndex(): WorkspaceIndex {
    if (!this.byName) {
      this.byName = new Map();
      for (const e of this.entries.values()) if (e.kind === 'polytoken' && e.names[0]) this.addName(e.path, e.names[0].name);
    }
    const byName = this.byName;
    return {
      polytokenByName: byName,
      // The rule reads the groups; the flat list is only for readers that do not.
      get polytoken() {
        return [...byName.values()].flat();
      },
    };
  }

  /** Records the names from an open document's analysis; true when the Polytoken names changed. */
  updateFromAnalysis(path: string, uri: string, analysis: Analysis): boolean {
    if (!analysis.context || !analysis.kind || analysis.kind === 'config') return false;
    return this.set(path, { path, uri, kind: analysis.kind, names: definitionNames(analysis.kind, analysis.context.file, path) });
  }

  /** A document was closed: back to what is on disk (outside every folder: forgotten). True when the Polytoken names changed. */
  documentClosed(path: string): boolean {
    if (this.host.configuration.folderOf(path)) return this.indexFile(path, new Set());
    return this.set(path, undefined);
  }

  /** Applies watched-file events. A `.subagents.yaml` among them means the configuration changed. */
  filesChanged(changes: FileEvent[]): { configChanged: boolean; namesChanged: boolean } {
    let configChanged = false;
    let namesChanged = false;
    const open = this.host.openPaths();
    for (const change of changes) {
      const path = uriToPath(change.uri);
      if (!path) continue;
      if (posix.basename(path) === CONFIG_FILE_NAME) {
        configChanged = true;
        continue;
      }
      if (change.type === FileChangeType.Deleted) {
        if (!open.has(path) && this.entries.has(path)) namesChanged = this.set(path, undefined) || namesChanged;
      } else if (this.host.configuration.folderOf(path)) {
        namesChanged = this.indexFile(path, open) || namesChanged;
      }
    }
    return { configChanged, namesChanged };
  }

  /** Workspace symbols: the names containing the query, best first. */
  symbols(query: string): WorkspaceSymbol[] {
    return workspaceSymbols(this.entries.values(), query);
  }

  /**
   * Reads every definition in the workspace folders, the global folder and
   * `polytoken.subagentDirs`, with work-done progress, yielding every 25 files so requests
   * are answered meanwhile. Open documents keep their entries.
   */
  async rebuild(): Promise<void> {
    const { connection, capabilities, configuration } = this.host;
    const build = ++this.build;
    const progress = capabilities().window?.workDoneProgress ? await connection.window.createWorkDoneProgress().catch(() => undefined) : undefined;
    progress?.begin('Subagents: indexing definitions', 0, undefined, false);
    try {
      const files: string[] = [];
      for (const folder of configuration.folders) for (const file of walkFiles(folder)) files.push(file);
      const found = new Map<string, IndexEntry>();
      // The global folder and `polytoken.subagentDirs` of each folder's and each Polytoken file's configuration.
      const extraDirs = new Set<string>();
      const addPolytokenDirs = (c: LoadedConfig) => {
        if (c.globalDir) extraDirs.add(c.globalDir);
        for (const d of c.config.polytoken.subagentDirs) extraDirs.add(posix.resolve(c.dir, toPosix(d)));
      };
      for (const folder of configuration.folders) addPolytokenDirs(configuration.configFor(posix.join(folder, '_')));
      let done = 0;
      for (const path of files) {
        if (build !== this.build || this.shuttingDown) return;
        const config = configuration.configFor(path);
        const kind = kindOf({ path, config, root: configuration.folderOf(path) });
        if (kind && kind !== 'config') {
          const entry = readEntry(path, kind);
          if (entry) found.set(path, entry);
          if (kind === 'polytoken') addPolytokenDirs(config);
        }
        if (++done % 25 === 0) {
          progress?.report(Math.round((done / files.length) * 100), `${done}/${files.length} files`);
          await new Promise((r) => setImmediate(r));
        }
      }
      for (const dir of extraDirs) {
        let names: string[];
        try {
          names = fs.readdirSync(dir).filter((n) => n.endsWith('.md'));
        } catch {
          continue;
        }
        for (const n of names) {
          const path = posix.join(dir, n);
          if (found.has(path)) continue;
          const entry = readEntry(path, 'polytoken');
          if (entry) found.set(path, entry);
        }
      }
      if (build !== this.build) return;
      const open = this.host.openPaths();
      for (const path of [...this.entries.keys()]) if (!open.has(path)) this.entries.delete(path);
      for (const [path, entry] of found) if (!open.has(path)) this.entries.set(path, entry);
      this.byName = undefined;
      this.host.onRebuilt();
    } finally {
      progress?.done();
    }
  }

  shutdown(): void {
    this.shuttingDown = true;
  }

  /** Sets an entry; true when the Polytoken names changed (shadowing must be re-checked). */
  private set(path: string, entry: IndexEntry | undefined): boolean {
    const old = this.entries.get(path);
    if (entry) this.entries.set(path, entry);
    else this.entries.delete(path);
    const oldName = old?.kind === 'polytoken' ? old.names[0]?.name : undefined;
    const newName = entry?.kind === 'polytoken' ? entry.names[0]?.name : undefined;
    if (oldName === newName) return false;
    if (this.byName) {
      if (oldName !== undefined) this.removeName(path, oldName);
      if (newName !== undefined) this.addName(path, newName);
    }
    return true;
  }

  private addName(path: string, name: string): void {
    const same = this.byName!.get(name);
    if (same) same.push({ path, name });
    else this.byName!.set(name, [{ path, name }]);
  }

  private removeName(path: string, name: string): void {
    const same = this.byName!.get(name);
    const at = same?.findIndex((n) => n.path === path) ?? -1;
    if (at < 0) return;
    same!.splice(at, 1);
    if (!same!.length) this.byName!.delete(name);
  }

  /** Re-reads one file from disk, unless it is open. */
  private indexFile(path: string, open: Set<string>): boolean {
    if (open.has(path)) return false; // the editor's text wins
    const folder = this.host.configuration.folderOf(path);
    const config = this.host.configuration.configFor(path);
    const kind = kindOf({ path, config, root: folder });
    return this.set(path, kind && kind !== 'config' ? readEntry(path, kind) : undefined);
  }
}
