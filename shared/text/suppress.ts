import type { SourceText } from './source';

/** Rules silenced per line (0-based) and for the whole file; `*` silences every rule. */
export interface Suppressions {
  file: Set<string>;
  lines: Map<number, Set<string>>;
}

const DIRECTIVE = /#\s*subagents-disable(-next-line)?(?![\w-])[ \t]*([^\r\n#]*)/;

/**
 * Finds `# subagents-disable-next-line a, b` and `# subagents-disable a` comments
 * in the given regions (the YAML parts of a file). Without rule ids a directive
 * silences every rule.
 */
export function findSuppressions(source: SourceText, regions: { start: number; end: number }[]): Suppressions {
  const result: Suppressions = { file: new Set(), lines: new Map() };
  const text = source.text;
  for (const region of regions) {
    let index = text.indexOf('subagents-disable', region.start);
    while (index !== -1 && index < region.end) {
      const lineStart = Math.max(text.lastIndexOf('\n', index), text.lastIndexOf('\r', index)) + 1;
      const hash = text.lastIndexOf('#', index);
      if (hash >= lineStart) {
        const match = DIRECTIVE.exec(text.slice(hash, lineEndOf(text, index)));
        if (match) {
          const ids = match[2].split(',').map((s) => s.trim()).filter(Boolean);
          const rules = ids.length ? ids : ['*'];
          if (match[1]) {
            const line = source.position(index).line + 1;
            const set = result.lines.get(line) ?? new Set<string>();
            rules.forEach((r) => set.add(r));
            result.lines.set(line, set);
          } else {
            rules.forEach((r) => result.file.add(r));
          }
        }
      }
      index = text.indexOf('subagents-disable', index + 1);
    }
  }
  return result;
}

function lineEndOf(text: string, from: number): number {
  let end = from;
  while (end < text.length && text[end] !== '\n' && text[end] !== '\r') end++;
  return end;
}

export function isSuppressed(s: Suppressions, rule: string, line: number): boolean {
  if (s.file.has(rule) || s.file.has('*')) return true;
  const set = s.lines.get(line);
  return !!set && (set.has(rule) || set.has('*'));
}
