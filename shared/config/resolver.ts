/**
 * Configuration discovery: the nearest `.subagents.yaml` walking up from a file's folder (they do
 * not merge), read through the workspace host (shared/host.ts), so the CLI and the Node server read
 * the disk and the server in a browser reads what the client sent. shared/node/config-loader.ts
 * gives it the disk and the process's environment.
 */
import { posix } from 'path';
import { describeError, type WorkspaceHost } from '../host';
import { dialectModules } from '../dialects';
import { toPosix } from '../files';
import type { Finding } from '../results';
import { CONFIG_FILE_NAME, defaultLoadedConfig, parseConfig } from './config';
import type { LoadedConfig } from './types';

export interface ConfigOptions {
  /** How files are read, and where the user's home is (none: no global folder). */
  host: WorkspaceHost;
  /** An explicit configuration file (CLI `--config`): used for every file. */
  configFile?: string;
  /** Stop walking up here (the workspace root); default: the filesystem root. */
  stopAt?: string;
  /** CLI `--no-global`. */
  noGlobal?: boolean;
  /** Editor setting of the global folder (`subagents.polytoken.globalDir`); the configuration file wins over it. */
  globalDirSetting?: string;
  /**
   * The editor's text of a file open in it (unsaved edits included); undefined when it is not open. Wins over the disk.
   */
  openText?: (path: string) => string | undefined;
  /** Parses a configuration's text (default: parseConfig; `check --cache` answers unchanged ones itself). */
  parse?: typeof parseConfig;
  /**
   * Why a link may not be read at all (a link that leads out of the checked folders or the MCP
   * server's workspace), or undefined. Applies to configurations and to the files `checkPaths`
   * finds; a refused file is reported as unreadable, never opened. A file that is no link is never
   * refused: `checkPaths` asks only about the links among the files a walk lists.
   */
  refuse?: (path: string) => string | undefined;
}

/** The dialect that owns the global folder (Polytoken's), if one does. */
const globalFolderOf = () => dialectModules().find((m) => m.files.globalFolder)?.files.globalFolder;

/**
 * The global folder: configuration, then setting, then its place under XDG (Polytoken's:
 * docs/runtimes/polytoken.md, which files are definitions); undefined when no dialect has one,
 * and when the host has no home folders (a browser) unless an absolute folder is configured.
 */
export function globalDirFor(
  configured: string | undefined,
  options: Pick<ConfigOptions, 'host' | 'noGlobal' | 'globalDirSetting'>,
  configDir: string,
): string | undefined {
  const owner = globalFolderOf();
  if (options.noGlobal || !owner) return undefined;
  const homes = options.host.homes();
  const expand = (p: string) => {
    const withHome = !homes ? p : p === '~' ? homes.home : p.startsWith('~/') ? homes.home + p.slice(1) : p;
    if (!homes && withHome.startsWith('~')) return undefined;
    return posix.resolve(configDir, toPosix(withHome));
  };
  if (configured) return expand(configured);
  if (options.globalDirSetting) return expand(options.globalDirSetting);
  return homes ? posix.join(homes.configHome, owner.underConfigHome) : undefined;
}

/** `config/invalid` for a configuration file that exists but cannot be read. */
export function unreadableConfigFinding(e: unknown): Finding {
  return {
    rule: 'config/invalid',
    range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
    message: `The configuration file cannot be read (${describeError(e)}), so the defaults are used for every definition it covers; make it readable or remove it.`,
  };
}

/** Reads and parses one configuration file; an unreadable one is reported like a malformed one. */
export function loadConfigFile(file: string, options: ConfigOptions): LoadedConfig {
  const path = toPosix(posix.resolve(toPosix(file)));
  const dir = posix.dirname(path);
  let text: string;
  try {
    const open = options.openText?.(path);
    const refused = open === undefined ? options.refuse?.(path) : undefined;
    if (refused !== undefined) throw new Error(refused);
    text = open ?? options.host.readFile(path);
  } catch (e) {
    const loaded = defaultLoadedConfig(dir);
    loaded.path = path;
    loaded.findings = [unreadableConfigFinding(e)];
    loaded.globalDir = globalDirFor(undefined, options, dir);
    return loaded;
  }
  const loaded = (options.parse ?? parseConfig)(text, path, dir);
  loaded.globalDir = globalDirFor(globalFolderOf()?.configured(loaded), options, dir);
  return loaded;
}

/**
 * Finds the configuration for files in a folder: the nearest `.subagents.yaml` walking
 * up (they do not merge), cached per folder and configuration file.
 */
export class ConfigResolver {
  private readonly byDir = new Map<string, string | undefined>();
  private readonly byFile = new Map<string, LoadedConfig>();

  constructor(private readonly options: ConfigOptions) {}

  forFile(file: string): LoadedConfig {
    return this.forDir(posix.dirname(toPosix(file)));
  }

  forDir(dir: string, fallbackDir = this.options.stopAt ?? dir): LoadedConfig {
    if (this.options.configFile) return this.load(this.options.configFile);
    const found = this.find(toPosix(dir));
    if (found) return this.load(found);
    const key = `default:${fallbackDir}`;
    let loaded = this.byFile.get(key);
    if (!loaded) {
      loaded = defaultLoadedConfig(toPosix(fallbackDir));
      loaded.globalDir = globalDirFor(undefined, this.options, loaded.dir);
      this.byFile.set(key, loaded);
    }
    return loaded;
  }

  /** The configurations loaded so far (files and defaults). */
  loaded(): IterableIterator<LoadedConfig> {
    return this.byFile.values();
  }

  /** Forget cached configurations (after `.subagents.yaml` changed). */
  invalidate(): void {
    this.byDir.clear();
    this.byFile.clear();
  }

  private load(file: string): LoadedConfig {
    const path = toPosix(posix.resolve(toPosix(file)));
    let loaded = this.byFile.get(path);
    if (!loaded) this.byFile.set(path, (loaded = loadConfigFile(path, this.options)));
    return loaded;
  }

  private find(dir: string): string | undefined {
    const visited: string[] = [];
    let current = dir;
    let found: string | undefined;
    for (;;) {
      if (this.byDir.has(current)) {
        found = this.byDir.get(current);
        break;
      }
      visited.push(current);
      const candidate = posix.join(current, CONFIG_FILE_NAME);
      if (this.options.host.stat(candidate) === 'file' || this.options.openText?.(candidate) !== undefined) {
        found = candidate;
        break;
      }
      const parent = posix.dirname(current);
      if (parent === current || (this.options.stopAt && current === toPosix(this.options.stopAt))) break;
      current = parent;
    }
    for (const v of visited) this.byDir.set(v, found);
    return found;
  }
}
