/**
 * The one workspace index of definition names, for the language server and `subagents check`:
 * every definition's names (symbols, the workspace view) and the Polytoken names grouped by
 * name (`polytoken/shadowed`). It reads files only through a small host (list a folder, read a
 * file), so the server can hand it the editor's text and tests a fake file system.
 *
 * Shadowing depends only on the definitions that share a name, so every change says which
 * names it touched, and each name has a revision: a cached analysis stays valid while the
 * revision of its own name does not move.
 */
import { SymbolKind, type Range } from 'vscode-languageserver-types';
import { posix } from 'path';
import type { LoadedConfig } from '../config/config';
import { DIALECT_MODULES } from '../dialects';
import { fileStem } from '../recognition';
import { unreadableReason } from '../text/limits';
import { toPosix } from '../files';
import { definitionNames, workspaceSymbols, type IndexedFile, type IndexedName } from '../features/symbols';
import { SourceText } from '../text/source';
import type { Dialect, NamedDefinition, WorkspaceIndex } from '../types';
import { quickName } from './quick-name';

/** How the index reads the file system. */
export interface WorkspaceHost {
  /** The entry names of a folder; undefined when it cannot be read. */
  listDir(dir: string): string[] | undefined;
  /** A regular file's text; undefined when it is not one or cannot be read. */
  readFile(path: string): string | undefined;
  /** The URI the editor knows a path by. */
  toUri(path: string): string;
}

export interface IndexEntry extends IndexedFile {
  /** Absolute, posix. */
  path: string;
}

/** Offset → position by counting line breaks (one file, once: no TextDocument needed). */
function positionAt(text: string, offset: number) {
  let line = 0;
  let lineStart = 0;
  for (let i = 0; i < offset; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, character: offset - lineStart };
}

/** A file's names: read off its `name:` line when that is plain, else from a parse. Undefined for a binary or huge file. */
export function namesFromText(kind: Dialect, text: string, path: string): IndexedName[] | undefined {
  if (unreadableReason(text)) return undefined;
  const quick = quickName(kind, text, path);
  if (quick) {
    const plain = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    const range: Range = { start: positionAt(plain, quick.start), end: positionAt(plain, quick.end) };
    return [{ name: quick.name, range, symbolKind: SymbolKind.Class }];
  }
  return definitionNames(kind, DIALECT_MODULES[kind].parse(new SourceText(text), path), path);
}

/** The name a Polytoken definition or a Picasso role registers under: its `name`, else its file name. */
export function registeredName(names: readonly IndexedName[] | undefined, path: string, kind?: Dialect): string {
  return names?.[0]?.name ?? fileStem(path, kind);
}

/** The dialects whose definitions clash by name across files: Polytoken (shadowing) and Picasso (duplicate roles). */
export type NamedDialect = 'polytoken' | 'picasso';
const isNamed = (kind: Dialect): kind is NamedDialect => kind === 'polytoken' || kind === 'picasso';

/** The key of a name in the index: names only clash within a dialect. */
export const nameKey = (kind: NamedDialect, name: string): string => `${kind}:${name}`;

/** The Polytoken folders outside the projects that take part in shadowing: the global folder and each `subagentDirs` entry. */
export function polytokenDiscoveryDirs(configs: Iterable<LoadedConfig>): string[] {
  const dirs = new Set<string>();
  for (const c of configs) {
    if (c.globalDir) dirs.add(c.globalDir);
    for (const d of c.config.polytoken.subagentDirs) dirs.add(posix.resolve(c.dir, toPosix(d)));
  }
  return [...dirs];
}

/** The `.md` definitions of the discovery folders (Polytoken skips folders it cannot read). */
export function readDiscoveryFolders(
  dirs: Iterable<string>,
  host: WorkspaceHost,
  skip: (path: string) => boolean,
): IndexEntry[] {
  const out: IndexEntry[] = [];
  for (const dir of dirs) {
    for (const name of host.listDir(dir) ?? []) {
      if (!name.endsWith('.md')) continue;
      const path = posix.join(dir, name);
      if (skip(path)) continue;
      const text = host.readFile(path);
      const names = text === undefined ? undefined : namesFromText('polytoken', text, path);
      if (names) out.push({ path, uri: host.toUri(path), kind: 'polytoken', names });
    }
  }
  return out;
}

export class DefinitionIndex {
  private readonly entries = new Map<string, IndexEntry>();
  /** The Polytoken and Picasso definitions by name key, each group by path (in insertion order). */
  private readonly byName = new Map<string, Map<string, NamedDefinition>>();
  private readonly revisions = new Map<string, number>();
  /** Told of the names whose revision moved, after each change (the workspace view re-summarizes their files). */
  onNamesChanged: ((names: readonly string[]) => void) | undefined;

  get(path: string): IndexEntry | undefined {
    return this.entries.get(path);
  }

  all(): IterableIterator<IndexEntry> {
    return this.entries.values();
  }

  get size(): number {
    return this.entries.size;
  }

  /** Sets (or, with undefined, removes) a file's entry; returns the name keys whose group changed. */
  private replacing = false;

  set(path: string, entry: IndexEntry | undefined): string[] {
    const old = this.entries.get(path);
    if (entry) this.entries.set(path, entry);
    else this.entries.delete(path);
    const oldName = old && isNamed(old.kind) ? nameKey(old.kind, registeredName(old.names, path)) : undefined;
    const newName = entry && isNamed(entry.kind) ? nameKey(entry.kind, registeredName(entry.names, path)) : undefined;
    if (oldName === newName) return [];
    const touched: string[] = [];
    if (oldName !== undefined && this.removeName(path, oldName)) touched.push(oldName);
    if (newName !== undefined) {
      this.addName(path, newName);
      touched.push(newName);
    }
    for (const name of touched) this.revisions.set(name, (this.revisions.get(name) ?? 0) + 1);
    if (touched.length && !this.replacing) this.onNamesChanged?.(touched);
    return touched;
  }

  /** Replaces every entry that `keep` does not protect by `next`; returns the names whose group changed. */
  replaceAll(next: ReadonlyMap<string, IndexEntry>, keep: (path: string) => boolean): string[] {
    const touched = new Set<string>();
    // One `onNamesChanged` for the whole replacement: per entry, a name shared by k files was reported k times.
    this.replacing = true;
    try {
      for (const path of [...this.entries.keys()])
        if (!keep(path) && !next.has(path)) for (const n of this.set(path, undefined)) touched.add(n);
      for (const [path, entry] of next) if (!keep(path)) for (const n of this.set(path, entry)) touched.add(n);
    } finally {
      this.replacing = false;
    }
    const names = [...touched];
    if (names.length) this.onNamesChanged?.(names);
    return names;
  }

  /** Bumped whenever the definitions of a name key change: an analysis of a definition of that name is then stale. */
  revisionOf(key: string): number {
    return this.revisions.get(key) ?? 0;
  }

  /** The paths of the definitions registered under a name key (`polytoken:triage`). */
  pathsNamed(key: string): string[] {
    return [...(this.byName.get(key)?.keys() ?? [])];
  }

  /** The engine's view for `polytoken/shadowed` and `picasso/duplicate-role`: the groups, kept current entry by entry. */
  workspaceIndex(): WorkspaceIndex {
    const byName = this.byName;
    const groupOf = (kind: NamedDialect) => ({
      get: (name: string) =>
        byName.has(nameKey(kind, name)) ? [...byName.get(nameKey(kind, name))!.values()] : undefined,
    });
    return {
      polytokenByName: groupOf('polytoken'),
      picassoByName: groupOf('picasso'),
      // The rules read the groups; the flat list is only for readers that do not.
      get polytoken() {
        const flat: NamedDefinition[] = [];
        for (const [key, group] of byName)
          if (key.startsWith('polytoken:')) for (const d of group.values()) flat.push(d);
        return flat;
      },
    };
  }

  symbols(query: string) {
    return workspaceSymbols(this.entries.values(), query);
  }

  private addName(path: string, key: string): void {
    let group = this.byName.get(key);
    if (!group) this.byName.set(key, (group = new Map()));
    group.set(path, { path, name: key.slice(key.indexOf(':') + 1) });
  }

  private removeName(path: string, name: string): boolean {
    const group = this.byName.get(name);
    if (!group?.delete(path)) return false;
    if (!group.size) this.byName.delete(name);
    return true;
  }
}
