import type { Finding } from '../types';
import type { SourceText } from '../text/source';
import { getValue, type AstNode } from '../text/tree';

/** More wildcards than this in one glob are refused: picomatch's regular expression backtracks in (path length)^(wildcards). */
export const MAX_GLOB_WILDCARDS = 3;
export const MAX_GLOB_LENGTH = 1000;

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
    if (ch === '*' && glob[i - 1] !== '*') wildcards++;
    else if ((ch === '+' || ch === '!') && glob[i + 1] === '(') wildcards++;
  }
  if (wildcards > MAX_GLOB_WILDCARDS) return `it has ${wildcards} wildcards and at most ${MAX_GLOB_WILDCARDS} are allowed (a run of \`*\` counts as one)`;
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
 * `config/invalid` on every glob that could make matching take seconds per file, and
 * the set of those globs, which are then left out (the rest of the configuration applies).
 */
export function unsafeGlobs(source: SourceText, root: AstNode): { findings: Finding[]; refused: Set<string> } {
  const findings: Finding[] = [];
  const refused = new Set<string>();
  for (const list of globLists(root)) {
    for (const item of list.items ?? []) {
      if (item.kind !== 'string') continue;
      const reason = unsafeGlobReason(String(item.value));
      if (!reason) continue;
      refused.add(String(item.value));
      findings.push({
        rule: 'config/invalid',
        range: source.range(item.start, item.end),
        message: `This glob is ignored because ${reason}: matching it could take seconds per file; split it or use fewer wildcards.`,
        data: { removable: true },
      });
    }
  }
  return { findings, refused };
}
