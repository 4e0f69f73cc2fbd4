import type { Finding } from '../results';
import type { SourceText } from '../text/source';
import { getValue, type AstNode } from '../text/tree';

/**
 * More wildcards than this in one glob are refused: picomatch's regular expression backtracks in (path
 * length)^(wildcards).
 */
const MAX_GLOB_WILDCARDS = 3;
const MAX_GLOB_LENGTH = 1000;
/** Every path is matched against every glob of a list: past this many, the rest of the list is left out. */
export const MAX_GLOBS_PER_LIST = 1000;

/**
 * Why a configuration glob is refused, or undefined when it is fine. A run of stars
 * (`*`, `**`) and the extglobs `+(…)` and `!(…)` count as one wildcard each: with three,
 * matching takes at most a few milliseconds even on a 255-character file name; with five
 * (`**\/*a*a*a*b`) one such name already takes seconds.
 */
export function unsafeGlobReason(glob: string): string | undefined {
  if (glob.length > MAX_GLOB_LENGTH) return `it is longer than ${MAX_GLOB_LENGTH} characters`;
  let wildcards = 0;
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i];
    // Stryker disable next-line ArithmeticOperator: counting each run's last star instead of its first counts the same runs
    if (ch === '*' && glob[i - 1] !== '*') wildcards++;
    else if ((ch === '+' || ch === '!') && glob[i + 1] === '(') wildcards++;
  }
  if (wildcards > MAX_GLOB_WILDCARDS)
    return `it has ${wildcards} wildcards and at most ${MAX_GLOB_WILDCARDS} are allowed (a run of \`*\` counts as one)`;
  return undefined;
}

/** The glob lists of a configuration: `ignore` and `files.<dialect>`. */
function globLists(root: AstNode): AstNode[] {
  const lists: AstNode[] = [];
  const ignore = getValue(root, 'ignore');
  if (ignore) lists.push(ignore);
  for (const p of getValue(root, 'files')?.properties ?? []) lists.push(p.value);
  return lists;
}

/**
 * `config/invalid` on every glob that could make matching take seconds per file, and on
 * the first glob past MAX_GLOBS_PER_LIST in a list (keptGlobs leaves them all out).
 */
export function globFindings(source: SourceText, root: AstNode): Finding[] {
  const findings: Finding[] = [];
  const refuse = (item: AstNode, message: string) =>
    findings.push({
      rule: 'config/invalid',
      range: source.range(item.start, item.end),
      message,
      data: { removable: true },
    });
  for (const list of globLists(root)) {
    const items = (list.items ?? []).filter((item) => item.kind === 'string');
    for (const item of items.slice(0, MAX_GLOBS_PER_LIST)) {
      const reason = unsafeGlobReason(String(item.value));
      if (reason)
        refuse(
          item,
          `This glob is ignored because ${reason}: matching it could take seconds per file; split it or use fewer wildcards.`,
        );
    }
    if (items.length > MAX_GLOBS_PER_LIST) {
      const rest = items.length - MAX_GLOBS_PER_LIST - 1;
      refuse(
        items[MAX_GLOBS_PER_LIST],
        `This glob and the ${rest.toLocaleString('en')} after it are ignored: a list may hold at most ${MAX_GLOBS_PER_LIST.toLocaleString('en')} globs, since every path is matched against each; use fewer, broader globs.`,
      );
    }
  }
  return findings;
}

/** The globs of a list that are used: the first MAX_GLOBS_PER_LIST, without the unsafe ones. */
export function keptGlobs(globs: readonly string[]): string[] {
  return globs.slice(0, MAX_GLOBS_PER_LIST).filter((g) => !unsafeGlobReason(g));
}
