/**
 * `check --fix` and `--fix-dry-run`: every preferred fix of every checked definition and
 * configuration, applied round after round until nothing changes (at most 10 rounds;
 * shared/fixes/apply.ts). Only edits inside files: a fix that would rename a file is left for
 * the author, whose check then says so. `--fix` writes each changed file with
 * writeFileSafely (shared/node/safe-write.ts: never through a link out of the checked
 * folders, mode and owner kept, a file changed meanwhile skipped); `--fix-dry-run` writes
 * nothing and shows the changes as a unified diff.
 */
import { posix } from 'path';
import { createTwoFilesPatch } from 'diff';
import { parseConfig } from '../shared';
import { fixAll } from '../shared';
import type { FileReport } from './batch/check-types';
import { readRegularFile } from '../shared/node';
import { writeFileSafely, type WritePlace } from './batch/safe-write';
import { describeError } from '../shared/node';

export interface FixedFile {
  /** Absolute, posix. */
  path: string;
  before: string;
  after: string;
  /** The fixes applied, by rule, in order. */
  rules: string[];
}

export interface FixOutcome {
  fixed: FixedFile[];
  problems: { path: string; message: string }[];
  /**
   * Preferred fixes the rules propose that were not applied: they would add a problem or grant a tool (docs/fixes.md).
   */
  left: number;
}

/**
 * Fixes in two passes: the configurations first, since every definition is checked with one,
 * then the definitions as `check(configTexts)` reports them with the fixed configurations in
 * force (a misspelt key can make a whole configuration fall back to the defaults). `read` gives
 * a file's text before the fixes (default: the disk; the MCP server's `fix` passes unsaved text).
 */
export function fixInTwoPasses(
  check: (configTexts?: ReadonlyMap<string, string>) => readonly FileReport[],
  read: (path: string) => string = readRegularFile,
): FixOutcome {
  const first = check();
  const configs = fixReports(
    first.filter((r) => r.kind === 'config'),
    read,
  );
  const texts = new Map(configs.fixed.map((f) => [f.path, f.after]));
  const reports = texts.size ? check(texts) : first;
  const definitions = fixReports(
    reports.filter((r) => r.kind !== 'config'),
    read,
  );
  return {
    fixed: configs.fixed.concat(definitions.fixed),
    problems: configs.problems.concat(definitions.problems),
    left: configs.left + definitions.left,
  };
}

/** The fixed text of every file a fix changes (reports with their analysis kept); `read` gives each file's text. */
function fixReports(reports: readonly FileReport[], read: (path: string) => string): FixOutcome {
  const fixed: FixedFile[] = [];
  const problems: { path: string; message: string }[] = [];
  let left = 0;
  for (const report of reports) {
    const ctx = report.analysis?.context;
    if (report.kind !== 'config' && !ctx) continue;
    let before: string;
    try {
      before = read(report.path);
    } catch (e) {
      problems.push({ path: report.path, message: describeError(e) });
      continue;
    }
    // A configuration is read with its own settings (its `rules:` may silence its own problems).
    const config = ctx ? ctx.loaded : parseConfig(before, report.path, posix.dirname(report.path));
    // With the workspace around it, as it was checked: a fix may not make a name clash with another file's.
    const result = fixAll({ text: before, path: report.path, config, kind: report.kind, workspace: ctx?.workspace });
    left += result.demoted.length;
    if (result.text !== before)
      fixed.push({ path: report.path, before, after: result.text, rules: result.applied.map((a) => a.rule) });
  }
  return { fixed, problems, left };
}

export interface WrittenFixes {
  written: FixedFile[];
  /** Not written on purpose: a link out of `place`, a file changed since it was read. */
  skipped: { path: string; message: string }[];
  /** Not written because the system refused (no space, permission, …): the run fails. */
  failed: { path: string; message: string }[];
}

/** Writes each fixed file, unless it changed on disk since it was read. */
export function writeFixed(fixed: readonly FixedFile[], place: WritePlace): WrittenFixes {
  const result: WrittenFixes = { written: [], skipped: [], failed: [] };
  for (const f of fixed) {
    const outcome = writeFileSafely(f.path, f.after, place, { expected: f.before });
    if (outcome.status === 'written') result.written.push(f);
    else result[outcome.status].push({ path: f.path, message: outcome.reason });
  }
  return result;
}

/** The changes as one unified diff, paths relative to the current folder (`a/…`, `b/…`). */
export function unifiedDiff(fixed: readonly FixedFile[], relative: (path: string) => string): string {
  return fixed
    .map((f) => {
      const rel = relative(f.path);
      const patch = createTwoFilesPatch(`a/${rel}`, `b/${rel}`, f.before, f.after, undefined, undefined, {
        context: 3,
      });
      // Stryker disable next-line Regex: the separator is the patch's first line (the names differ, so no Index line precedes it): the first match is the same without ^
      return patch.replace(/^=+\n/, '');
    })
    .join('');
}
