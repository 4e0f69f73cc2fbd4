/** Lines about tool names that hover, completion and inlay hints share, whatever the dialect. */
import type { Catalog } from '../../catalog/catalog';
import { toolCount } from '../../results';

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

/**
 * An inlay hint's label: `→ 14 tools`, `→ 1 tool`, `→ no tool`; with the catalog of a dialect
 * that reports unknown tools, what it does not know counted apart (`→ 2 tools + 1 unknown`).
 */
export function countLabel(tools: readonly string[], catalog?: Catalog): string {
  const unknown = catalog ? catalog.unknownAmong(tools).length : 0;
  return tools.length === 0 ? '\u2192 no tool' : `\u2192 ${toolCount(tools.length, unknown)}`;
}

/** The tooltip's line naming the tools the catalog does not know, if any. */
export function unknownLines(tools: readonly string[], catalog: Catalog): string[] {
  const unknown = catalog.unknownAmong(tools);
  return unknown.length
    ? [`Not in the catalog (the runtime will likely have no such tool): ${nameFence(unknown)}`]
    : [];
}
