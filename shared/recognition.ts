/**
 * What a file is, from its path: its dialect (each module's default globs, the configuration's
 * `files:` and discovery folders), its kind (a dialect or the configuration) and its stem.
 */
import { posix } from 'path';
import type { Dialect, FileKind } from './basics';
import { CONFIG_FILE_NAME, type LoadedConfig } from './config/types';
import { dialectModule, dialectModules } from './dialects';
import type { DialectModule } from './dialects/module';
import { globMatcher, isNormal, relativeInside, toPosix, type Matcher } from './files';
import type { DocumentInput } from './types';
import { onForgetMemos } from './memos';

/**
 * The file name without its extension, as the dialect's runtime reads it (`triage.md` → `triage`, `ledger.expert.json`
 * → `ledger`).
 */
export function fileStem(path: string, dialect?: Dialect): string {
  const base = posix.basename(toPosix(path));
  const own = dialect === undefined ? undefined : dialectModule(dialect)?.files.stem?.(base);
  if (own !== undefined) return own;
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

/** The kind of a file: `config` for `.subagents.yaml`, else its dialect by path (undefined: not a definition). */
export function kindOf(input: Pick<DocumentInput, 'path' | 'config' | 'root' | 'kind'>): FileKind | undefined {
  if (input.kind) return input.kind;
  if (posix.basename(toPosix(input.path)) === CONFIG_FILE_NAME) return 'config';
  return dialectOf(input.path, input.config, input.root);
}

const never: Matcher = () => false;

/** The matcher of `globs` for `module`, kept in `memo` (one per kind of glob list). */
function memoMatcher(memo: WeakMap<DialectModule, Matcher>, module: DialectModule, globs: readonly string[]): Matcher {
  let m = memo.get(module);
  // Stryker disable next-line ConditionalExpression: a memo; a matcher made again from the same globs matches the same
  if (!m) memo.set(module, (m = globMatcher(globs)));
  return m;
}

/** Each dialect module's default globs, matched. */
let defaultMatchers = new WeakMap<DialectModule, Matcher>();
const defaultMatcher = (module: DialectModule): Matcher =>
  memoMatcher(defaultMatchers, module, module.files.defaultGlobs);

/**
 * A dialect's discovery folders under a configuration, in discovery order: the global folder
 * when the dialect owns it, then the configuration's own (Polytoken's `subagentDirs`).
 */
export function discoveryFoldersOf(module: DialectModule, loaded: LoadedConfig): string[] {
  const own = module.files.discoveryFolders?.(loaded) ?? [];
  return module.files.globalFolder && loaded.globalDir ? [loaded.globalDir, ...own] : [...own];
}

/** Which names of a discovery folder are the dialect's definitions (its `discoveryPattern`). */
let discoveryMatchers = new WeakMap<DialectModule, Matcher>();
onForgetMemos(() => {
  defaultMatchers = new WeakMap();
  discoveryMatchers = new WeakMap();
});
export function isDiscoveryFile(module: DialectModule, name: string): boolean {
  const pattern = module.files.discoveryPattern;
  return pattern !== undefined && memoMatcher(discoveryMatchers, module, [pattern])(name);
}

/** What a configuration adds per dialect: its `files.<dialect>` globs, its discovery folders. */
interface DialectMatchers {
  extra: Matcher;
  dirs: ReadonlySet<string>;
}

let matcherCache = new WeakMap<LoadedConfig, { ignore: Matcher; byModule: Map<DialectModule, DialectMatchers> }>();
onForgetMemos(() => (matcherCache = new WeakMap()));

function matchersFor(loaded: LoadedConfig) {
  let m = matcherCache.get(loaded);
  // Stryker disable next-line ConditionalExpression: a memo; matchers made again from the same configuration match the same
  if (!m) {
    m = { ignore: loaded.config.ignore.length ? globMatcher(loaded.config.ignore) : never, byModule: new Map() };
    matcherCache.set(loaded, m);
  }
  return m;
}

/** The configuration's matchers of one dialect (made on first use: a dialect may be registered later). */
function dialectMatchers(loaded: LoadedConfig, module: DialectModule): DialectMatchers {
  const { byModule } = matchersFor(loaded);
  let m = byModule.get(module);
  if (!m) {
    const globs = loaded.config.files[module.id];
    const dirs = new Set(discoveryFoldersOf(module, loaded));
    byModule.set(module, (m = { extra: globs?.length ? globMatcher(globs) : never, dirs }));
  }
  return m;
}

/** The dialect whose discovery folder `dir` is and that takes a file named `name` there. */
function discoveredIn(dir: string, name: string, loaded: LoadedConfig): Dialect | undefined {
  for (const module of dialectModules())
    if (dialectMatchers(loaded, module).dirs.has(dir) && isDiscoveryFile(module, name)) return module.id;
  return undefined;
}

function hasSkippedFolder(path: string): boolean {
  return /(^|\/)(node_modules|\.git)\//.test(path);
}

/**
 * The dialect of a file, decided by its path alone (docs/runtimes/<dialect>.md, which files are definitions). `path` is
 * absolute;
 * `root` is the workspace folder the default globs are relative to.
 */
export function dialectOf(path: string, loaded: LoadedConfig, root?: string): Dialect | undefined {
  const abs = toPosix(path);
  const rel = (root && relativeInside(toPosix(root), abs)) ?? abs.replace(/^\/+/, '');
  return decide(matchersFor(loaded).ignore, modulesOf(loaded), {
    inConfig: relativeInside(loaded.dir, abs),
    discovered: () => discoveredIn(posix.dirname(abs), posix.basename(abs), loaded),
    skipped: () => hasSkippedFolder(rel),
    rel,
  });
}

/** A dialect with its matchers under one configuration. */
interface ModuleMatchers extends DialectMatchers {
  module: DialectModule;
  byDefault: Matcher;
}

const modulesOf = (loaded: LoadedConfig): ModuleMatchers[] =>
  dialectModules().map((module) => ({ module, byDefault: defaultMatcher(module), ...dialectMatchers(loaded, module) }));

/** Where a file is, as `decide` reads it: below the configuration's folder, below the root. */
interface FilePlace {
  /** The path below the configuration's folder; undefined outside it. */
  inConfig: string | undefined;
  discovered(): Dialect | undefined;
  skipped(): boolean;
  /** The path the default globs are matched against. */
  rel: string;
}

/**
 * The order that decides a file's dialect, in one place (dialectOf, folderDialects): ignored by
 * the configuration; in a discovery folder; below node_modules or .git; a default glob or the
 * configuration's `files:`, dialect by dialect.
 */
function decide(ignore: Matcher, modules: readonly ModuleMatchers[], place: FilePlace): Dialect | undefined {
  const { inConfig, rel } = place;
  if (inConfig !== undefined && ignore(inConfig)) return undefined;
  const discovered = place.discovered();
  if (discovered) return discovered;
  if (place.skipped()) return undefined;
  for (const d of modules) {
    if (d.byDefault(rel)) return d.module.id;
    if (inConfig !== undefined && d.extra(inConfig)) return d.module.id;
  }
  return undefined;
}

const isNormalAbsolute = (path: string) => path.charCodeAt(0) === 47 && (path === '/' || isNormal(path));

/**
 * dialectOf for the files of one folder, with what depends on the folder alone worked out
 * once (checkPaths classifies ten thousand files in a thousand folders): the answer for
 * `name` is dialectOf(`${dir}/${name}`, loaded, root).
 */
export function folderDialects(
  dir: string,
  loaded: LoadedConfig,
  root?: string,
): (name: string) => Dialect | undefined {
  const rootDir = root === undefined ? undefined : toPosix(root);
  // For `/`, `//name`: dialectOf normalizes the path first.
  const join = (name: string) => `${dir}/${name}`;
  // Slicing is exact for normalized absolute paths only; anything else takes the per-file way.
  if (!isNormalAbsolute(dir) || !isNormalAbsolute(loaded.dir) || (rootDir !== undefined && !isNormalAbsolute(rootDir)))
    return (name) => dialectOf(join(name), loaded, root);
  const { ignore } = matchersFor(loaded);
  /** The folder relative to `base` ('' for base itself), undefined outside it. */
  const below = (base: string) => (dir === base ? '' : relativeInside(base, dir));
  const inConfigDir = below(loaded.dir);
  const modules = modulesOf(loaded);
  const discovering = modules.filter((d) => d.dirs.has(dir));
  const relDir = (rootDir && below(rootDir)) ?? dir.slice(1);
  const skipped = relDir !== '' && hasSkippedFolder(`${relDir}/`);
  return (name) =>
    decide(ignore, modules, {
      inConfig: inConfigDir === undefined ? undefined : inConfigDir ? `${inConfigDir}/${name}` : name,
      discovered: () => discovering.find((d) => isDiscoveryFile(d.module, name))?.module.id,
      skipped: () => skipped,
      rel: relDir ? `${relDir}/${name}` : name,
    });
}

let nearMissMatchers = new WeakMap<DialectModule, Matcher>();
onForgetMemos(() => (nearMissMatchers = new WeakMap()));

/**
 * The dialect whose definition a file that is none was most likely meant to be: its whole path
 * matches one of the dialect's near misses (`DialectFiles.nearMisses`). A hint for a check that
 * finds nothing, never a verdict: the file's dialect is still decided by `dialectOf` alone.
 */
export function nearMissOf(path: string): DialectModule | undefined {
  const rel = toPosix(path).replace(/^\/+/, '');
  if (hasSkippedFolder(rel)) return undefined;
  return dialectModules().find((module) => {
    const globs = module.files.nearMisses;
    return !!globs?.length && memoMatcher(nearMissMatchers, module, globs)(rel);
  });
}

/** What decides which files of a configuration are definitions: a change of it needs the workspace index rebuilt. */
export function recognitionKey(loaded: LoadedConfig): string {
  const { config } = loaded;
  const perDialect = dialectModules().map((m) => [
    m.id,
    m.files.discoveryFolders?.(loaded) ?? [],
    m.files.globalFolder?.configured(loaded) ?? null,
  ]);
  return JSON.stringify([config.files, config.ignore, perDialect]);
}

/**
 * The folders and file patterns the dialects discover definitions in under these configurations (the global folder
 * included).
 */
export function discoveryWatches(configs: Iterable<LoadedConfig>): { dir: string; pattern: string }[] {
  const out = new Map<string, { dir: string; pattern: string }>();
  const list = [...configs];
  for (const module of dialectModules()) {
    const pattern = module.files.discoveryPattern;
    if (pattern === undefined) continue;
    for (const loaded of list)
      for (const dir of discoveryFoldersOf(module, loaded)) out.set(`${dir}\u0000${pattern}`, { dir, pattern });
  }
  return [...out.values()];
}
