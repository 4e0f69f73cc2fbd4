/**
 * The two sides `subagents diff` compares (a git revision, the working tree or a folder)
 * and the resolution of every definition on each, through the engine's own check.
 */
import * as fs from 'fs';
import * as os from 'os';
import { posix } from 'path';
import picomatch from 'picomatch';
import { CONFIG_FILE_NAME, defaultLoadedConfig, parseConfig, type LoadedConfig } from '../shared';
import { resolveAnalysis } from '../shared';
import { dialectOf, toPosix } from '../shared';
import type { ConfigOptions } from '../shared/node';
import { loadConfigFile } from '../shared/node';
import type { Dialect, ResolvedDefinition } from '../shared';
import { UsageError } from './args';
import { absolutePath, isFolder, relativePath, runCheckPaths, type Io } from './common';
import { linkRefusal, realTarget } from './roots';
import { listFiles, readBlobs, resolveCommit, topLevel } from './git';

export type Side =
  { kind: 'worktree' } | { kind: 'git'; revision: string; commit: string } | { kind: 'folder'; path: string };

/** What a side is called in the output: the revision or folder as given, or `worktree`. */
export function sideLabel(side: Side): string {
  return side.kind === 'worktree' ? 'worktree' : side.kind === 'git' ? side.revision : side.path;
}

export interface Sides {
  base: Side;
  head: Side;
  /** PATHs, relative to the current folder. */
  paths: string[];
  /** The repository's top folder, when in one. */
  top?: string;
  /** How many sides the arguments named (0: HEAD and the working tree by default). */
  named: number;
}

/**
 * BASE and HEAD from the positionals: without `--`, the leading ones git knows as
 * revisions (at most two); before `--`, a revision or a folder each. Default: HEAD and
 * the working tree.
 */
export function chooseSides(positionals: string[], dashDash: number | undefined, io: Io): Sides {
  const top = topLevel(io.cwd);
  const revision = (arg: string): Side | undefined => {
    const commit = top ? resolveCommit(top, arg) : undefined;
    return commit ? { kind: 'git', revision: arg, commit } : undefined;
  };
  const given: Side[] = [];
  let rest: string[];
  if (dashDash !== undefined) {
    const named = positionals.slice(0, dashDash);
    if (named.length > 2)
      throw new UsageError(`diff takes at most two sides before \`--\`, BASE and HEAD (got ${named.length})`);
    for (const arg of named) {
      const side = isFolder(absolutePath(io.cwd, arg)) ? ({ kind: 'folder', path: arg } as const) : revision(arg);
      if (!side)
        throw new UsageError(`${arg}: neither a folder nor a git revision${top ? '' : ' (not in a git repository)'}`);
      given.push(side);
    }
    rest = positionals.slice(dashDash);
  } else {
    let k = 0;
    for (; k < Math.min(2, positionals.length); k++) {
      const side = revision(positionals[k]);
      if (!side) break;
      given.push(side);
    }
    rest = positionals.slice(k);
  }
  if (given.length < 1 && !top)
    throw new UsageError('not in a git repository: name the two folders to compare, `subagents diff OLD NEW --`');
  const base = given[0] ?? revision('HEAD');
  if (!base) throw new UsageError('HEAD names no commit yet: commit once, or name BASE');
  return { base, head: given[1] ?? { kind: 'worktree' }, paths: rest, named: given.length, ...(top ? { top } : {}) };
}

export interface SideDefinition {
  /** Relative to the compared folder (the current folder's place on that side), `/` separators. */
  file: string;
  dialect: Dialect;
  definition: ResolvedDefinition;
}

/** A side laid out as files: the folder that stands for the current folder, and where configuration discovery stops. */
interface Laid {
  root: string;
  stopAt?: string;
  cleanup?: () => void;
}

function lay(side: Side, sides: Sides, options: ConfigOptions, io: Io): Laid {
  if (side.kind === 'worktree') return { root: absolutePath(io.cwd, '.'), stopAt: sides.top };
  if (side.kind === 'folder') {
    const root = absolutePath(io.cwd, side.path);
    return { root, stopAt: root };
  }
  const top = sides.top!;
  const into = fs.realpathSync(fs.mkdtempSync(posix.join(toPosix(os.tmpdir()), 'subagents-diff-')));
  try {
    writeDefinitions(top, side.commit, into, options);
  } catch (e) {
    fs.rmSync(into, { recursive: true, force: true });
    throw e;
  }
  const here = relativePath(top, toPosix(fs.realpathSync(io.cwd)));
  return {
    root: here === '.' ? into : posix.join(into, here),
    stopAt: into,
    cleanup: () => fs.rmSync(into, { recursive: true, force: true }),
  };
}

/**
 * Writes the files of a commit that can be definitions or configurations into `into`:
 * each file is tried against the defaults, every configuration of the commit in one of
 * its folders and `--config` (a superset; the check then decides with the right one).
 */
function writeDefinitions(top: string, commit: string, into: string, options: ConfigOptions): void {
  const files = listFiles(top, commit).filter(
    (f) => !f.path.split('/').some((s) => s === '..' || s === '.' || s === '' || s === '.git'),
  );
  const configFiles = files.filter((f) => posix.basename(f.path) === CONFIG_FILE_NAME);
  const configs = new Map<string, LoadedConfig>();
  readBlobs(
    top,
    configFiles.map((f) => f.oid),
  ).forEach((blob, i) => {
    const dir = posix.dirname(posix.join(into, configFiles[i].path));
    configs.set(dir, parseConfig(blob.toString('utf8'), posix.join(into, configFiles[i].path), dir));
  });
  const always = [
    defaultLoadedConfig(into),
    ...(options.configFile ? [loadConfigFile(options.configFile, options)] : []),
  ];
  const wanted = files.filter((f) => {
    const abs = posix.join(into, f.path);
    if (posix.basename(f.path) === CONFIG_FILE_NAME) return true;
    if (always.some((c) => dialectOf(abs, c, into))) return true;
    for (let dir = posix.dirname(abs); dir.length >= into.length; dir = posix.dirname(dir)) {
      const config = configs.get(dir);
      if (config && dialectOf(abs, config, into)) return true;
    }
    return false;
  });
  readBlobs(
    top,
    wanted.map((f) => f.oid),
  ).forEach((blob, i) => {
    const { path, bytes } = wanted[i];
    // A name that is not UTF-8 is written by its bytes: the check then reports it as in the working tree.
    const target = bytes ? Buffer.concat([Buffer.from(`${into}/`), bytes]) : posix.join(into, path);
    const folder = typeof target === 'string' ? posix.dirname(target) : target.subarray(0, target.lastIndexOf(47));
    fs.mkdirSync(folder, { recursive: true });
    // Created exclusively, as every file we make: the folder is new and ours, and a commit names each path once.
    fs.writeFileSync(target, blob, { flag: 'wx' });
  });
}

/** Every definition under the PATHs on one side, with its resolution. */
export function resolveSide(
  side: Side,
  sides: Sides,
  options: ConfigOptions,
  io: Io,
): { definitions: SideDefinition[]; present: Set<string> } {
  const laid = lay(side, sides, options, io);
  try {
    const inputs = sides.paths.length ? sides.paths : ['.'];
    // A PATH may exist on one side only (a folder added or deleted).
    const present = new Set(
      inputs.filter(
        (p) => picomatch.scan(toPosix(p)).isGlob || fs.existsSync(posix.resolve(laid.root, relativeToCwd(p, io))),
      ),
    );
    const used = inputs.filter((p) => present.has(p)).map((p) => relativeToCwd(p, io));
    if (!used.length) return { definitions: [], present };
    // The working tree's definitions that link out of the repository are not read (cli/roots.ts).
    const top = side.kind === 'worktree' ? realTarget(laid.stopAt ?? laid.root) : undefined;
    const refuse = top === undefined ? options.refuse : linkRefusal([top]);
    const run = runCheckPaths(
      used,
      { ...options, refuse, cwd: laid.root, stopAt: laid.stopAt, keepAnalysis: true },
      io,
    );
    for (const e of run.ioErrors)
      throw new UsageError(`${sideLabel(side)}: ${relativePath(laid.root, e.path)}: ${e.message}`);
    const definitions: SideDefinition[] = [];
    for (const report of run.files) {
      const file = relativePath(laid.root, report.path);
      const resolution = report.analysis && resolveAnalysis(report.analysis, file);
      if (!resolution) continue;
      for (const definition of resolution.definitions)
        definitions.push({ file, dialect: resolution.dialect, definition });
    }
    return { definitions, present };
  } finally {
    laid.cleanup?.();
  }
}

/** A PATH as given, relative to the current folder (so it can be found on every side). */
function relativeToCwd(p: string, io: Io): string {
  return picomatch.scan(toPosix(p)).isGlob ? toPosix(p) : relativePath(io.cwd, absolutePath(io.cwd, p));
}
