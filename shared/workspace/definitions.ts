/**
 * The one workspace index of definition names, for the language server and `subagents check`:
 * every definition's names (symbols, the workspace view) and, for the dialects whose names
 * clash across files, the files grouped by name (`polytoken/shadowed`, `picasso/duplicate-role`).
 * It reads files only through a small host (list a folder, read a file; shared/workspace/names.ts),
 * so the server can hand it the editor's text and tests a fake file system.
 *
 * Those rules depend only on the definitions that share a name, so every change says which
 * names it touched, and each name has a revision: a cached analysis stays valid while the
 * revision of its own name does not move.
 */
import type { NamedDefinition, WorkspaceIndex } from '../types';
import { nameKey, namesClash, registeredName, type IndexEntry } from './names';

export class DefinitionIndex {
  private readonly entries = new Map<string, IndexEntry>();
  /** The definitions of the dialects whose names clash, by name key, each group by path (in insertion order). */
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

  /** While held, `onNamesChanged` waits, and is then told once of every name touched meanwhile. */
  private holds = 0;
  private readonly heldNames = new Set<string>();

  /** Sets (or, with undefined, removes) a file's entry; returns the name keys whose group changed. */
  set(path: string, entry: IndexEntry | undefined): string[] {
    const old = this.entries.get(path);
    if (entry) this.entries.set(path, entry);
    else this.entries.delete(path);
    const oldName =
      old && namesClash(old.kind) ? nameKey(old.kind, registeredName(old.kind, old.names, path)) : undefined;
    const newName =
      entry && namesClash(entry.kind) ? nameKey(entry.kind, registeredName(entry.kind, entry.names, path)) : undefined;
    if (oldName === newName) return [];
    const touched: string[] = [];
    if (oldName !== undefined && this.removeName(path, oldName)) touched.push(oldName);
    if (newName !== undefined) {
      this.addName(path, newName);
      touched.push(newName);
    }
    for (const name of touched) this.revisions.set(name, (this.revisions.get(name) ?? 0) + 1);
    if (this.holds) for (const name of touched) this.heldNames.add(name);
    else if (touched.length) this.onNamesChanged?.(touched);
    return touched;
  }

  /**
   * Holds `onNamesChanged` until the returned function is called, then tells it once: a batch of
   * changes that adds k files of one name reports that name once, not k times (its listener
   * looks at the whole group each time).
   */
  hold(): () => void {
    this.holds++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds || !this.heldNames.size) return;
      const names = [...this.heldNames];
      this.heldNames.clear();
      this.onNamesChanged?.(names);
    };
  }

  /** Replaces every entry that `keep` does not protect by `next`; returns the names whose group changed. */
  replaceAll(next: ReadonlyMap<string, IndexEntry>, keep: (path: string) => boolean): string[] {
    const touched = new Set<string>();
    const release = this.hold();
    try {
      for (const path of [...this.entries.keys()])
        if (!keep(path) && !next.has(path)) for (const n of this.set(path, undefined)) touched.add(n);
      for (const [path, entry] of next) if (!keep(path)) for (const n of this.set(path, entry)) touched.add(n);
    } finally {
      release();
    }
    return [...touched];
  }

  /** Bumped whenever the definitions of a name key change: an analysis of a definition of that name is then stale. */
  revisionOf(key: string): number {
    return this.revisions.get(key) ?? 0;
  }

  /** The paths of the definitions registered under a name key (`<dialect>:<name>`). */
  pathsNamed(key: string): string[] {
    return [...(this.byName.get(key)?.keys() ?? [])];
  }

  /** The engine's view for the rules about names in other files: the groups, kept current entry by entry. */
  workspaceIndex(): WorkspaceIndex {
    const byName = this.byName;
    return {
      byName: (kind, name) => {
        const group = byName.get(nameKey(kind, name));
        return group ? [...group.values()] : undefined;
      },
    };
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
