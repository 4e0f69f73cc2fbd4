/**
 * Profy allowlist globs (docs/runtimes/profy.md): `*` matches any run of characters (also none), `?`
 * exactly one character, nothing else is special. Matching is anchored and
 * case-sensitive; a prefix pattern such as `mcp__ledger__*` is just a glob.
 */
export function isGlob(entry: string): boolean {
  return entry.includes('*') || entry.includes('?');
}

const cache = new Map<string, RegExp>();

export function globToRegExp(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (!re) {
    let source = '';
    for (const ch of pattern) {
      if (ch === '*') source += '[\\s\\S]*';
      else if (ch === '?') source += '[\\s\\S]';
      else source += ch.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    }
    // `u`: `?` stands for one character, not one UTF-16 unit.
    re = new RegExp(`^${source}$`, 'u');
    if (cache.size > 500) cache.clear();
    cache.set(pattern, re);
  }
  return re;
}

export function globMatches(pattern: string, name: string): boolean {
  return globToRegExp(pattern).test(name);
}

/** The tools a glob matches, in the toolset's order. */
export function expandGlob(pattern: string, toolset: readonly string[]): string[] {
  const re = globToRegExp(pattern);
  return toolset.filter((t) => re.test(t));
}
