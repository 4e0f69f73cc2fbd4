/**
 * The names definitions register, asked of each file's dialect module (`DialectModule.names`):
 * the one source the workspace index (server and CLI), symbols, shadowing and the workspace
 * view read. The module's quick path reads a name off the text without a parse when it can.
 */
import { SymbolKind, type Range } from 'vscode-languageserver-types';
import { posix } from 'path';
import type { Dialect } from '../basics';
import { readIfRegular, type WorkspaceHost } from '../host';
import type { LoadedConfig } from '../config/types';
import { dialectModule } from '../dialects';
import { discoveryFoldersOf, fileStem, isDiscoveryFile } from '../recognition';
import type { ParsedFile } from '../text/document';
import { unreadableReason } from '../text/limits';
import { QUICK_NAMES, type QuickName } from '../text/quick-name';
import { SourceText } from '../text/source';
import type { IndexedName, NamedDefinition, WorkspaceIndex } from '../types';

/** A definition file's names, as the workspace index holds them. */
export interface IndexedFile {
  uri: string;
  kind: Dialect;
  names: IndexedName[];
}

export interface IndexEntry extends IndexedFile {
  /** Absolute, posix. */
  path: string;
}

/** Every definition a file declares, by name (the file's own first); none for a kind no dialect has. */
export function definitionNames(kind: Dialect, parsed: ParsedFile, path: string): IndexedName[] {
  return dialectModule(kind)?.names.of(parsed, fileStem(path, kind)) ?? [];
}

/** The file's own name read off its text without a parse, when its dialect can (undefined: parse it). */
export function quickName(kind: Dialect, raw: string, path: string): QuickName | undefined {
  const quick = QUICK_NAMES.enabled ? dialectModule(kind)?.names.quick : undefined;
  if (!quick) return undefined;
  return quick(raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw, path);
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

/** A file's names: the quick path when it answers, else from a parse. Undefined for a binary or huge file. */
export function namesFromText(kind: Dialect, text: string, path: string): IndexedName[] | undefined {
  const module = dialectModule(kind);
  if (!module || unreadableReason(text)) return undefined;
  const quick = quickName(kind, text, path);
  if (quick) {
    const plain = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    const range: Range = { start: positionAt(plain, quick.start), end: positionAt(plain, quick.end) };
    return [{ name: quick.name, range, symbolKind: SymbolKind.Class }];
  }
  return definitionNames(kind, module.parse(new SourceText(text), path), path);
}

/** The name a file's definition registers under: the first of its names, else (nothing read) its stem. */
export function registeredName(kind: Dialect, names: readonly IndexedName[] | undefined, path: string): string {
  return names?.[0]?.name ?? fileStem(path, kind);
}

/** The dialect's names clash across files: its files are indexed by name. */
export function namesClash(kind: Dialect): boolean {
  return !!dialectModule(kind)?.names.clash;
}

/** The key of a name in the index: names only clash within a dialect. */
export const nameKey = (kind: Dialect, name: string): string => `${kind}:${name}`;

/** The name key a parsed file registers under; undefined when its dialect's names do not clash. */
export function nameKeyOf(kind: Dialect, parsed: ParsedFile, path: string): string | undefined {
  return namesClash(kind) ? nameKey(kind, registeredName(kind, definitionNames(kind, parsed, path), path)) : undefined;
}

/**
 * The dialect's discovery folders under these configurations (Polytoken: the global folder and `subagentDirs`), without
 * repeats.
 */
export function discoveryFolders(kind: Dialect, configs: Iterable<LoadedConfig>): string[] {
  const module = dialectModule(kind);
  const dirs = new Set<string>();
  if (module) for (const c of configs) for (const d of discoveryFoldersOf(module, c)) dirs.add(d);
  return [...dirs];
}

/**
 * The folders around a definition whose files can clash with it, besides the discovery folders
 * (`DialectFiles.neighbourFolders`): what a file checked on its own is checked with.
 */
export function neighbourFolders(kind: Dialect, path: string, loaded: LoadedConfig): readonly string[] {
  return dialectModule(kind)?.files.neighbourFolders?.(path, loaded) ?? [];
}

/** Whether a file of one of the dialect's discovery folders is a definition there (by its name alone). */
export function isDiscoveryDefinition(kind: Dialect, path: string): boolean {
  const module = dialectModule(kind);
  return !!module?.files.discoveryPattern && isDiscoveryFile(module, posix.basename(path));
}

/** The definitions in a dialect's discovery folders (a folder that cannot be read is skipped, as the runtime does). */
export function readDiscoveryFolders(
  kind: Dialect,
  dirs: Iterable<string>,
  host: WorkspaceHost,
  skip: (path: string) => boolean,
): IndexEntry[] {
  const module = dialectModule(kind);
  const out: IndexEntry[] = [];
  if (!module?.files.discoveryPattern) return out;
  for (const dir of dirs) {
    for (const { name, kind: type } of host.readDirectory(dir) ?? []) {
      if (type !== 'file' || !isDiscoveryFile(module, name)) continue;
      const path = posix.join(dir, name);
      if (skip(path)) continue;
      const text = readIfRegular(host, path);
      const names = text === undefined ? undefined : namesFromText(kind, text, path);
      if (names) out.push({ path, uri: host.toUri(path), kind, names });
    }
  }
  return out;
}

/** The definitions of each dialect whose names clash, as plain lists (what a worker thread is sent). */
export type NameLists = Record<Dialect, NamedDefinition[]>;

/** An index over plain lists, grouped by name once (each list keeps its order within a name). */
export function nameIndex(lists: NameLists): WorkspaceIndex & { readonly lists: NameLists } {
  const groups = new Map<string, NamedDefinition[]>();
  for (const [kind, list] of Object.entries(lists)) {
    for (const entry of list) {
      const key = nameKey(kind, entry.name);
      const group = groups.get(key);
      if (group) group.push(entry);
      else groups.set(key, [entry]);
    }
  }
  return { lists, byName: (kind, name) => groups.get(nameKey(kind, name)) };
}
