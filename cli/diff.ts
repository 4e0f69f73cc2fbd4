/** `subagents diff [BASE [HEAD]] [PATH…]`: what a change does to the tools each definition gets. */
import { printableJson } from '../shared';
import { didYouMean, formatOption, parseArgs, UsageError, type OptionSpec } from './args';
import { configOptions, type Io } from './common';
import { compare, formatDiffMarkdown, formatDiffText, grantsSomething, type DiffReport } from './diff-report';
import { chooseSides, resolveSide, sideLabel } from './diff-sides';
import { branchNames, GitError } from './git';
import { HELP } from './help';

export const DIFF_OPTIONS: OptionSpec = {
  values: ['--format', '--config'],
  flags: ['--fail-on-grant', '--no-global'],
  aliases: { '-f': '--format' },
};

const FORMATTERS = {
  text: formatDiffText,
  markdown: formatDiffMarkdown,
  json: (report: DiffReport) => printableJson(report) + '\n',
};
type Format = keyof typeof FORMATTERS;
const FORMATS = Object.keys(FORMATTERS) as Format[];

export function commandDiff(args: string[], io: Io): number {
  const parsed = parseArgs(args, DIFF_OPTIONS, 'diff');
  if (parsed.help) {
    io.out(HELP.diff);
    return 0;
  }
  const formatted = FORMATTERS[formatOption(parsed, FORMATS, 'text')];
  const options = configOptions(parsed, io);
  try {
    const sides = chooseSides(parsed.positionals, parsed.dashDash, io);
    const base = resolveSide(sides.base, sides, options, io);
    const head = resolveSide(sides.head, sides, options, io);
    const missing = sides.paths.find((p) => !base.present.has(p) && !head.present.has(p));
    if (missing !== undefined) {
      // A leading argument that is neither a revision nor a path was most likely meant as a revision (`diff main` on
      // `master`).
      const leading = parsed.dashDash === undefined && missing === sides.paths[0] && sides.named === 0;
      if (leading && sides.top) throw new UsageError(unknownRevision(missing, sides.top));
      throw new UsageError(
        `${missing}: no such file or folder in ${sideLabel(sides.base)} nor in ${sideLabel(sides.head)}`,
      );
    }
    const report = compare(base.definitions, head.definitions, {
      base: sideLabel(sides.base),
      head: sideLabel(sides.head),
    });
    io.out(formatted(report));
    return parsed.flags.has('--fail-on-grant') && grantsSomething(report) ? 1 : 0;
  } catch (e) {
    if (e instanceof GitError) throw new UsageError(e.message);
    throw e;
  }
}

/**
 * `unknown revision \`main\``, with the nearest branch, else the current one (and `master` or `main` when it exists).
 */
function unknownRevision(given: string, top: string): string {
  const { branches, current } = branchNames(top);
  const near = didYouMean(given, branches);
  // `given` is no branch (it did not resolve), so only the current branch is left out.
  const usual = ['main', 'master'].filter((b) => branches.includes(b) && b !== current);
  const hint =
    near ||
    (current ? ` (the current branch is \`${current}\`${usual.length ? `; there is also \`${usual[0]}\`` : ''})` : '');
  return `unknown revision \`${given}\`, nor a file or folder here${hint}; run \`git branch -a\` to list the branches`;
}
