/**
 * Workspace folders, editor settings and each file's `.subagents.yaml`.
 *
 * Settings: `subagents.rules` is merged over the `rules:` of the file's `.subagents.yaml`
 * (the editor setting wins for a rule both name), so an author can silence or raise a rule
 * locally without editing the shared configuration. `subagents.polytoken.globalDir` is the
 * ConfigResolver `globalDirSetting` (a `polytoken.globalDir` in `.subagents.yaml` wins over it).
 * `subagents.inlayHints.enabled` and `subagents.fadeRemovedTools` (both on by default) turn the
 * tool-count inlay hints and the faded removed tools off. `subagents.problems.scope` and
 * `subagents.problems.maxFiles`: which closed files Problems lists (server/workspace-problems.ts). An open
 * `.subagents.yaml` is read from
 * the editor's text (`openText`), so unsaved edits apply.
 */
import { ConfigResolver, defaultLoadedConfig, type LoadedConfig, type WorkspaceHost } from '../shared';
import type { SeveritySetting } from '../shared';
import { uriToPath, virtualRoot } from './uri';

export interface Settings {
  rules: Record<string, SeveritySetting>;
  globalDir?: string;
  /** `subagents.inlayHints.enabled`: tool counts after shorthands and globs. */
  inlayHints: boolean;
  /** `subagents.fadeRemovedTools`: granted tools the definition removes again are shown faded. */
  fadeRemovedTools: boolean;
  /** `subagents.problems.scope`: Problems lists every file of the workspace, or only the open ones. */
  problemsScope: 'workspace' | 'openFiles';
  /** `subagents.problems.maxFiles`: past this many files, closed files show problems once opened. */
  problemsMaxFiles: number;
}

/** The default of `subagents.problems.maxFiles` (docs/editors.md: what happens past it). */
export const DEFAULT_PROBLEMS_MAX_FILES = 5000;

const DEFAULT_SETTINGS: Settings = {
  rules: {},
  inlayHints: true,
  fadeRemovedTools: true,
  problemsScope: 'workspace',
  problemsMaxFiles: DEFAULT_PROBLEMS_MAX_FILES,
};

const SEVERITIES = new Set(['off', 'error', 'warning', 'information', 'hint']);

/** The `subagents` settings section; unknown or malformed values are ignored. */
export function readSettings(raw: unknown): Settings {
  const s = (raw ?? {}) as {
    rules?: unknown;
    polytoken?: { globalDir?: unknown };
    inlayHints?: { enabled?: unknown };
    fadeRemovedTools?: unknown;
    problems?: { scope?: unknown; maxFiles?: unknown };
  };
  const rules: Record<string, SeveritySetting> = {};
  if (s.rules && typeof s.rules === 'object') {
    for (const [id, v] of Object.entries(s.rules as Record<string, unknown>))
      if (typeof v === 'string' && SEVERITIES.has(v)) rules[id] = v as SeveritySetting;
  }
  const globalDir =
    typeof s.polytoken?.globalDir === 'string' && s.polytoken.globalDir.trim()
      ? s.polytoken.globalDir.trim()
      : undefined;
  // Both default to on: only an explicit `false` turns them off.
  return {
    rules,
    globalDir,
    inlayHints: s.inlayHints?.enabled !== false,
    fadeRemovedTools: s.fadeRemovedTools !== false,
    problemsScope: s.problems?.scope === 'openFiles' ? 'openFiles' : 'workspace',
    problemsMaxFiles: readCount(s.problems?.maxFiles, DEFAULT_PROBLEMS_MAX_FILES),
  };
}

/** A whole number of zero or more; anything else is the default. */
function readCount(raw: unknown, fallback: number): number {
  return typeof raw === 'number' && Number.isInteger(raw) && raw >= 0 ? raw : fallback;
}

const withoutTrailingSlash = (path: string): string => path.replace(/\/+$/, '') || '/';

export class Configuration {
  /** Workspace folder paths: a file's `.subagents.yaml` is searched up to the folder holding it. */
  folders: string[] = [];
  settings: Settings = DEFAULT_SETTINGS;
  /** One resolver per workspace folder ('' for files outside every folder). */
  private resolvers = new Map<string, ConfigResolver>();
  /** The editor's text of an open file: an unsaved `.subagents.yaml` applies as typed. */
  openText?: (path: string) => string | undefined;
  /** Each loaded configuration with `subagents.rules` merged in, so the merge is done once. */
  private merged = new WeakMap<LoadedConfig, LoadedConfig>();
  private detached: LoadedConfig | undefined;

  /** `host`: how configuration files are read (the disk, or the client's files: server/files.ts). */
  constructor(private readonly host: WorkspaceHost) {}

  setFolders(uris: string[]): void {
    this.folders = uris
      .map((uri) => uriToPath(uri))
      .filter((p): p is string => !!p)
      .map(withoutTrailingSlash);
  }

  changeFolders(added: string[], removed: string[]): void {
    const gone = new Set(removed.map((uri) => uriToPath(uri)));
    this.folders = this.folders.filter((f) => !gone.has(f));
    for (const uri of added) {
      const p = uriToPath(uri);
      if (p) this.folders.push(withoutTrailingSlash(p));
    }
  }

  /** The innermost workspace folder holding the path. */
  folderOf(path: string): string | undefined {
    let best: string | undefined;
    for (const f of this.folders)
      if ((path === f || path.startsWith(f.endsWith('/') ? f : f + '/')) && (!best || f.length > best.length)) best = f;
    return best;
  }

  configFor(path: string): LoadedConfig {
    // Outside every folder, a virtual file's configuration is searched up to its file system's root, never on the disk.
    return this.withSettings(this.resolverFor(this.folderOf(path) ?? virtualRoot(path)).forFile(path));
  }

  /**
   * The configuration of a document that is not a file on disk (`git:`, `untitled:`): nothing is
   * read for it, so the defaults (no global folder) with the editor's rules. One object until
   * the next reset, so the catalog built for it is reused.
   */
  detachedConfig(): LoadedConfig {
    this.detached ??= defaultLoadedConfig('/');
    return this.withSettings(this.detached);
  }

  private withSettings(loaded: LoadedConfig): LoadedConfig {
    if (!Object.keys(this.settings.rules).length) return loaded;
    let m = this.merged.get(loaded);
    if (!m) {
      m = { ...loaded, config: { ...loaded.config, rules: { ...loaded.config.rules, ...this.settings.rules } } };
      this.merged.set(loaded, m);
    }
    return m;
  }

  /** Every configuration loaded since the last reset (an index rebuild loads each one that governs a file). */
  *loadedConfigs(): Generator<LoadedConfig> {
    for (const r of this.resolvers.values()) yield* r.loaded();
  }

  /** Forgets every loaded configuration; the caller re-checks the open documents. */
  reset(): void {
    for (const r of this.resolvers.values()) r.invalidate();
    this.resolvers = new Map();
    this.merged = new WeakMap();
    this.detached = undefined;
  }

  private resolverFor(folder: string | undefined): ConfigResolver {
    const key = folder ?? '';
    let r = this.resolvers.get(key);
    if (!r)
      this.resolvers.set(
        key,
        (r = new ConfigResolver({
          host: this.host,
          stopAt: folder,
          globalDirSetting: this.settings.globalDir,
          openText: (p) => this.openText?.(p),
        })),
      );
    return r;
  }
}
