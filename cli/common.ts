/** What the commands share: the I/O they are given, paths in output, configuration options, running a check. */
import * as fs from 'fs';
import { posix } from 'path';
import { relativeInside, toPosix } from '../shared';
import { checkPaths, InputError, UnmatchedInputError, type CheckOptions, type CheckRun } from './batch/check-paths';
import type { ConfigOptions } from '../shared/node';
import { describeError } from '../shared/node';
import { printable } from '../shared';
import { UsageError, type ParsedArgs } from './args';

export interface Io {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  version: string;
  /** Whether standard output is a terminal (colour, the default report format). */
  stdoutIsTTY?: boolean;
  /** The terminal's width, when standard output is one (the stylish report wraps to it). */
  columns?: number;
  /** All of standard input (`check --stdin`). */
  readStdin?(): string;
}

/** One line on stderr, `subagents: <text>`; control characters in the text (a file name) escaped. */
export const errorLine = (text: string): string => `subagents: ${printable(text)}\n`;

/** Paths in every output: relative to the current folder, `/` separators. */
export function relativePath(cwd: string, abs: string): string {
  const rel = relativeInside(toPosix(cwd), toPosix(abs)) ?? posix.relative(toPosix(cwd), toPosix(abs));
  return rel === '' ? '.' : rel;
}

/** An absolute posix path for a path given on the command line. */
export function absolutePath(cwd: string, given: string): string {
  return posix.resolve(toPosix(cwd), toPosix(given));
}

/** `--config FILE` and `--no-global`. */
export function configOptions(parsed: ParsedArgs, io: Io): ConfigOptions {
  const options: ConfigOptions = { env: io.env, noGlobal: parsed.flags.has('--no-global') };
  const config = parsed.values['--config'];
  if (config !== undefined) {
    const abs = absolutePath(io.cwd, config);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch (e) {
      throw new UsageError(`--config ${config}: ${describeError(e)}`);
    }
    if (!stat.isFile()) throw new UsageError(`--config ${config}: not a file`);
    try {
      fs.accessSync(abs, fs.constants.R_OK);
    } catch (e) {
      throw new UsageError(`--config ${config}: ${describeError(e)}`);
    }
    options.configFile = abs;
  }
  return options;
}

/** Whether `path` is an existing folder (links followed). */
export function isFolder(path: string): boolean {
  try {
    return fs.statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** checkPaths with the CLI's error handling: a missing, refused or unmatched input is a usage error. */
export function runCheckPaths(paths: string[], options: ConfigOptions & Partial<CheckOptions>, io: Io): CheckRun {
  try {
    return checkPaths(paths, {
      keepAnalysis: false,
      onRuleError: (rule, error) =>
        io.err(
          errorLine(`internal error in rule ${rule}: ${String((error as Error)?.message ?? error).split('\n')[0]}`),
        ),
      ...options,
      cwd: options.cwd ?? io.cwd,
    });
  } catch (e) {
    if (e instanceof InputError) throw new UsageError(e.message);
    if (e instanceof UnmatchedInputError)
      throw new UsageError(`${e.message}; pass --no-error-on-unmatched-pattern to allow this`);
    throw e;
  }
}
