/** Picasso role texts for test/picasso*.test.ts. */

/** A role file: `lines` with the keys in `drop` left out, then the `extra` lines. */
export function roleText(lines: string[], extra: string[] = [], drop: string[] = []): string {
  const kept = lines.filter((l) => !drop.includes(l.split(':')[0]));
  return [...kept, ...extra].join('\n') + '\n';
}
