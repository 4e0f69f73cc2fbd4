/** Lines about tool names that hover, completion and inlay hints share, whatever the dialect. */

/** `a`, `b`, … at most `max` names, then how many more. */
export function nameFence(names: readonly string[], max = 40): string {
  return names.length
    ? names
        .slice(0, max)
        .map((n) => `\`${n}\``)
        .join(', ') + (names.length > max ? `, \u2026 (${names.length - max} more)` : '')
    : '*(nothing)*';
}

/** "Expands now to 2 tools: `a`, `b`" (sorted): the line hover and the inlay hints' tooltip share. */
export function expansionLine(verb: string, names: readonly string[], what = ''): string {
  const sorted = [...names].sort();
  return `${verb} ${sorted.length} tool${sorted.length === 1 ? '' : 's'}${what}: ${nameFence(sorted)}`;
}

/** An inlay hint's label: `→ 14 tools`, `→ 1 tool`, `→ no tool`. */
export function countLabel(count: number): string {
  return count === 0 ? '\u2192 no tool' : `\u2192 ${count} tool${count === 1 ? '' : 's'}`;
}
