/** `subagents check`: report every problem in the definitions under the given paths. */
import { createHash } from 'crypto';
import * as fs from 'fs';
import { posix } from 'path';
import { DiagnosticSeverity } from 'vscode-languageserver-types';
import { toPosix } from '../shared';
import { describeUnmatched, unmatchedFile, type CheckRun, type FileReport } from './batch/check-paths';
import { userCacheKey } from './batch/cache-key';
import type { CacheOptions, CheckOptions } from './batch/check-types';
import { writeFileSafely } from './batch/safe-write';
import type { ConfigOptions } from '../shared/node';
import { describeError } from '../shared/node';
import { formatOption, maxWarningsOption, parseArgs, UsageError, type OptionSpec, type ParsedArgs } from './args';
import { absolutePath, configOptions, errorLine, isFolder, relativePath, runCheckPaths, type Io } from './common';
import { fixInTwoPasses, unifiedDiff, writeFixed, type FixOutcome } from './fix';
import { formatGithub } from './github';
import { HELP } from './help';
import { inputRoots, linkRefusal, readRoots } from './roots';
import { launcherBundleDigest } from './bundle-digest';
import { buildReport, formatJson, formatText, textColors, type JsonReport } from './report';
import { formatSarif } from './sarif';
import { formatStylish } from './stylish';
import { mark } from './phase-marks';

const FORMATS = ['text', 'stylish', 'json', 'sarif', 'github'] as const;

/** The cache file when `--cache-location` is not given, in the current folder. */
export const DEFAULT_CACHE_FILE = '.subagentscache';

export const CHECK_OPTIONS: OptionSpec = {
  values: [
    '--format',
    '--config',
    '--max-warnings',
    '--output-file',
    '--cache-location',
    '--cache-strategy',
    '--stdin-filename',
  ],
  flags: ['--no-global', '--quiet', '--no-error-on-unmatched-pattern', '--cache', '--stdin', '--fix', '--fix-dry-run'],
  aliases: { '-f': '--format', '-o': '--output-file' },
};

export function commandCheck(args: string[], io: Io): number {
  const parsed = parseArgs(args, CHECK_OPTIONS, 'check');
  if (parsed.help) {
    io.out(HELP.check);
    return 0;
  }
  // On a terminal people read the grouped report; piped or written to a file, the one-line-per-diagnostic `text` that
  // tools parse.
  const toTerminal = !!io.stdoutIsTTY && parsed.values['--output-file'] === undefined;
  const format = formatOption(parsed, FORMATS, toTerminal ? 'stylish' : 'text');
  const maxWarnings = maxWarningsOption(parsed);
  const quiet = parsed.flags.has('--quiet');
  const allowUnmatched = parsed.flags.has('--no-error-on-unmatched-pattern');
  const options = configOptions(parsed, io);
  // A definition that is a link out of the checked folders is not read (cli/roots.ts).
  const given = parsed.flags.has('--stdin') ? [parsed.values['--stdin-filename'] ?? '.'] : parsed.positionals;
  options.refuse = linkRefusal(readRoots(given, io.cwd, options.configFile));
  const fix = fixMode(parsed);
  if (fix === 'dry-run') return fixDryRun(parsed, options, io, allowUnmatched);
  const fixesFailed = fix === 'write' && !applyFixes(parsed, options, io, allowUnmatched);
  const run = parsed.flags.has('--stdin')
    ? checkStdin(parsed, options, io, allowUnmatched)
    : checkFiles(parsed, options, io, allowUnmatched);
  for (const note of run.cacheNotes ?? []) io.err(errorLine(note));

  const report = reportOf(run, io.cwd, quiet);
  const ioErrors = run.ioErrors.map((e) => ({ path: relativePath(io.cwd, e.path), message: e.message }));
  for (const e of ioErrors) io.err(errorLine(`${e.path}: ${e.message}`));
  const tooManyWarnings = maxWarnings !== undefined && report.summary.warnings > maxWarnings;
  const warningsLine = tooManyWarnings
    ? `Too many warnings: ${report.summary.warnings}, the maximum is ${maxWarnings} (--max-warnings).\n`
    : '';

  const outputFile = parsed.values['--output-file'];
  let text: string;
  if (format === 'json') text = formatJson(report);
  else if (format === 'sarif') text = formatSarif(report, { version: io.version, cwd: toPosix(io.cwd), ioErrors });
  else if (format === 'github') text = formatGithub(report) + warningsLine;
  else if (format === 'stylish')
    text =
      formatStylish(report, {
        colors: outputFile === undefined ? textColors(io.env, !!io.stdoutIsTTY) : textColors({}, false),
        width: toTerminal ? io.columns : undefined,
      }) + warningsLine;
  else
    text =
      formatText(report, outputFile === undefined ? textColors(io.env, !!io.stdoutIsTTY) : undefined) + warningsLine;
  mark('report');
  // The whole report in one write: an interrupted run never leaves half a document.
  if (outputFile === undefined) io.out(text);
  else writeOutput(io, outputFile, text, 'report');
  mark('output');
  if (ioErrors.length || fixesFailed) return 2;
  if (report.summary.errors > 0 || tooManyWarnings) return 1;
  return 0;
}

function fixMode(parsed: ParsedArgs): 'write' | 'dry-run' | undefined {
  const write = parsed.flags.has('--fix');
  const dry = parsed.flags.has('--fix-dry-run');
  if (write && dry) throw new UsageError('--fix and --fix-dry-run exclude each other');
  if ((write || dry) && parsed.flags.has('--stdin'))
    throw new UsageError('--fix and --fix-dry-run work on files, not on --stdin');
  return write ? 'write' : dry ? 'dry-run' : undefined;
}

/** The checked files with their analyses (the fixes need them), with no cache. */
function analyzedFiles(parsed: ParsedArgs, options: ConfigOptions, io: Io, allowUnmatched: boolean): CheckRun {
  return runCheckPaths(parsed.positionals, { ...options, keepAnalysis: true, failOnUnmatched: !allowUnmatched }, io);
}

/** Every fix, configurations first; `ioErrors` of the first check (the second reads the same files). */
function fixedFiles(
  parsed: ParsedArgs,
  options: ConfigOptions,
  io: Io,
  allowUnmatched: boolean,
): FixOutcome & { ioErrors: CheckRun['ioErrors'] } {
  let ioErrors: CheckRun['ioErrors'] = [];
  const outcome = fixInTwoPasses((configTexts) => {
    const run = analyzedFiles(
      parsed,
      configTexts ? withConfigTexts(options, configTexts) : options,
      io,
      allowUnmatched,
    );
    if (!configTexts) ioErrors = run.ioErrors;
    return run.files;
  });
  return { ...outcome, ioErrors };
}

/** Options under which configurations read as the given texts (fixed, not yet written). */
function withConfigTexts(options: ConfigOptions, texts: ReadonlyMap<string, string>): ConfigOptions {
  return { ...options, openText: (path) => texts.get(path) ?? options.openText?.(path) };
}

/**
 * `--fix`: writes every file the preferred fixes change; the check that follows reports what
 * is left. False when a file could not be written (the run then exits 2).
 */
function applyFixes(parsed: ParsedArgs, options: ConfigOptions, io: Io, allowUnmatched: boolean): boolean {
  const { fixed, problems, left } = fixedFiles(parsed, options, io, allowUnmatched);
  for (const p of problems) io.err(errorLine(`${relativePath(io.cwd, p.path)}: cannot fix: ${p.message}`));
  const roots = fixRoots(parsed.positionals, io.cwd, options.configFile);
  const { written, skipped, failed } = writeFixed(fixed, { roots });
  for (const p of [...skipped, ...failed])
    io.err(errorLine(`${relativePath(io.cwd, p.path)}: fixes not written: ${p.message}`));
  const count = written.reduce((n, f) => n + f.rules.length, 0);
  const files = (n: number) => `${n} file${n === 1 ? '' : 's'}`;
  const notWritten = fixed.length - written.length;
  // Fixes the machinery withheld: they would add a problem or grant a tool (docs/fixes.md); the editor offers them.
  const withheld = left
    ? `${left} fix${left === 1 ? '' : 'es'} left to you (they would add a problem or grant a tool)`
    : '';
  if (fixed.length)
    io.err(
      `subagents: applied ${count} fix${count === 1 ? '' : 'es'} in ${files(written.length)}${notWritten ? `; ${files(notWritten)} not written` : ''}${withheld ? `; ${withheld}` : ''}\n`,
    );
  else if (left) io.err(`subagents: no fix to apply; ${withheld}\n`);
  return failed.length === 0;
}

/**
 * The folders `--fix` may write in: each PATH's real folder (a file's own folder, a glob's
 * existing base; the current folder without PATH) and the `--config` file's. A file that
 * resolves outside them (a link, a folder of `polytoken.subagentDirs` elsewhere) is not written.
 */
function fixRoots(positionals: string[], cwd: string, configFile?: string): string[] {
  return inputRoots([...(positionals.length ? positionals : ['.']), ...(configFile ? [configFile] : [])], cwd, false);
}

/** The current folder as given and resolved: a link in it is not followed out of it by `-o` or `--cache`. */
function workspaceRoots(io: Io): string[] {
  const cwd = toPosix(io.cwd);
  try {
    return [...new Set([cwd, toPosix(fs.realpathSync.native(cwd))])];
  } catch {
    return [cwd];
  }
}

/** `-o FILE`: the report or diff, written safely (safe-write.ts). */
function writeOutput(io: Io, given: string, text: string, what: string): void {
  const outcome = writeFileSafely(
    absolutePath(io.cwd, given),
    text,
    { roots: workspaceRoots(io), userPathsOutside: true },
    { makeFolders: true },
  );
  if (outcome.status !== 'written') throw new UsageError(`cannot write the ${what} to ${given}: ${outcome.reason}`);
}

/**
 * `--fix-dry-run`: the changes as a unified diff, nothing written; the exit status is the one
 * the check would give once the fixes are applied.
 */
function fixDryRun(parsed: ParsedArgs, options: ConfigOptions, io: Io, allowUnmatched: boolean): number {
  const { fixed, problems, ioErrors } = fixedFiles(parsed, options, io, allowUnmatched);
  for (const p of problems) io.err(errorLine(`${relativePath(io.cwd, p.path)}: cannot fix: ${p.message}`));
  const diff = unifiedDiff(fixed, (path) => relativePath(io.cwd, path));
  const outputFile = parsed.values['--output-file'];
  if (outputFile === undefined) io.out(diff);
  else writeOutput(io, outputFile, diff, 'diff');
  const texts = new Map(fixed.map((f) => [f.path, f.after]));
  const after = runCheckPaths(
    parsed.positionals,
    { ...withConfigTexts(options, texts), contents: texts, failOnUnmatched: !allowUnmatched },
    io,
  );
  const errors = after.files.reduce(
    (n, f) =>
      n + f.diagnostics.filter((d) => (d.severity ?? DiagnosticSeverity.Error) === DiagnosticSeverity.Error).length,
    0,
  );
  if (ioErrors.length || problems.length) return 2;
  return errors > 0 ? 1 : 0;
}

/** The `--format json` report of a run: paths relative to `cwd`, sorted. */
export function reportOf(run: CheckRun, cwd: string, quiet = false): JsonReport {
  const files = run.files.map((f) => ({
    path: relativePath(cwd, f.path),
    kind: f.kind,
    diagnostics: quiet ? errorsOnly(f) : f.diagnostics,
  }));
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return buildReport(files);
}

/** `--quiet`: errors only, as ESLint; warnings are then neither shown nor counted. */
function errorsOnly(f: FileReport) {
  return f.diagnostics.filter((d) => (d.severity ?? DiagnosticSeverity.Error) === DiagnosticSeverity.Error);
}

function checkFiles(parsed: ParsedArgs, options: ConfigOptions, io: Io, allowUnmatched: boolean): CheckRun {
  if (parsed.values['--stdin-filename'] !== undefined)
    throw new UsageError('--stdin-filename is only used with --stdin');
  for (const option of ['--cache-location', '--cache-strategy'])
    if (parsed.values[option] !== undefined && !parsed.flags.has('--cache'))
      throw new UsageError(`${option} needs --cache`);
  const cache = parsed.flags.has('--cache') ? cacheOptions(parsed, io) : undefined;
  return runCheckPaths(parsed.positionals, { ...options, cache, failOnUnmatched: !allowUnmatched }, io);
}

/** `--stdin --stdin-filename PATH`: standard input checked as if it were PATH (which need not exist). */
function checkStdin(parsed: ParsedArgs, options: ConfigOptions, io: Io, allowUnmatched: boolean): CheckRun {
  const name = parsed.values['--stdin-filename'];
  if (name === undefined)
    throw new UsageError('--stdin needs --stdin-filename PATH: the path decides the dialect and the configuration');
  if (parsed.positionals.length)
    throw new UsageError(`--stdin checks standard input only; drop "${parsed.positionals[0]}"`);
  if (
    parsed.flags.has('--cache') ||
    parsed.values['--cache-location'] !== undefined ||
    parsed.values['--cache-strategy'] !== undefined
  )
    throw new UsageError('--cache is not used with --stdin');
  if (!io.readStdin) throw new UsageError('standard input cannot be read here');
  let text: string;
  try {
    text = io.readStdin();
  } catch (e) {
    throw new UsageError(`cannot read standard input: ${describeError(e)}`);
  }
  const abs = absolutePath(io.cwd, name);
  const run = checkUnsaved(new Map([[abs, text]]), options, io);
  if (!run.files.length && !allowUnmatched)
    throw new UsageError(
      `${describeUnmatched(unmatchedFile(name, abs, io.cwd))}; pass --no-error-on-unmatched-pattern to allow this`,
    );
  return run;
}

/**
 * Unsaved texts checked as the files they name (absolute, posix; they need not exist), with the
 * definitions around them (each dialect's neighbour folders): the run lists only the unsaved files
 * (`check --stdin`; the MCP server's `check` of `files`). One that is not a definition is left out.
 */
export function checkUnsaved(
  contents: ReadonlyMap<string, string>,
  options: ConfigOptions & Partial<CheckOptions>,
  io: Io,
  /** Folders whose definitions are indexed too (names that clash across files: `subagents new`). */
  around: readonly string[] = [],
): CheckRun {
  const inputs = new Set([...around, ...contents.keys()]);
  const own = (p: string) => contents.has(p);
  const run = runCheckPaths([...inputs], { ...options, contents, keepAnalysis: own, analyze: own }, io);
  return {
    files: run.files.filter((f) => contents.has(f.path)),
    ioErrors: run.ioErrors.filter((e) => contents.has(e.path)),
    unmatched: [],
  };
}

/**
 * `--cache [--cache-location P] [--cache-strategy S]`: P is the file, or a folder to hold
 * `.subagentscache`. Without the user's key (cache-key.ts) there is no cache: a note says why.
 */
function cacheOptions(parsed: ParsedArgs, io: Io): CacheOptions | undefined {
  const strategy = parsed.values['--cache-strategy'] ?? 'metadata';
  if (strategy !== 'metadata' && strategy !== 'content')
    throw new UsageError(`--cache-strategy is metadata or content, not "${strategy}"`);
  const given = parsed.values['--cache-location'];
  let file = absolutePath(io.cwd, given ?? DEFAULT_CACHE_FILE);
  if (given !== undefined && ((process.platform === 'win32' ? /[\\/]$/ : /\/$/).test(given) || isFolder(file)))
    file = posix.join(file, DEFAULT_CACHE_FILE);
  const key = userCacheKey(io.env);
  if ('problem' in key) {
    io.err(errorLine(`not using the cache: ${key.problem}`));
    return undefined;
  }
  return { file, checker: checkerIdentity(io.version), key: key.key, workspace: workspaceRoots(io), strategy };
}

/** The version and a digest of the running bundle: a rebuilt checker never trusts an older cache. */
function checkerIdentity(version: string): string {
  const launched = launcherBundleDigest();
  if (launched !== undefined) return `${version} ${launched}`;
  try {
    return `${version} ${createHash('sha256').update(fs.readFileSync(__filename)).digest('base64')}`;
  } catch {
    return `${version} ${Date.now()}`; // cannot tell the build: do not reuse anything
  }
}
