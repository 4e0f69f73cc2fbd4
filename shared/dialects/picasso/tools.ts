/**
 * What a Picasso tool entry means: a literal name of the catalog, which `deny` or the memory
 * scope may remove. The only place that judges entries (docs/runtimes/picasso.md, "Tools").
 */
import type { Catalog } from '../../catalog/catalog';
import { MEMORY_DENIES } from './constants';

export type PicassoListKey = 'tools' | 'deny';

/** The tools a `memory` value refuses; undefined when it is not one of the scopes. */
export function memoryDenials(memory: string | undefined): readonly string[] | undefined {
  return memory !== undefined && Object.prototype.hasOwnProperty.call(MEMORY_DENIES, memory)
    ? MEMORY_DENIES[memory]
    : undefined;
}

/** The scopes that keep a tool, e.g. ["read-only", "session"] for `query_memory`. */
export function scopesAllowing(tool: string): string[] {
  return Object.keys(MEMORY_DENIES).filter((s) => !MEMORY_DENIES[s].includes(tool));
}

/** The catalog's verdict on an entry: known, or unknown with the nearest known name. */
export function toolVerdict(name: string, catalog: Catalog): { known: true } | { known: false; near?: string } {
  if (catalog.has(name)) return { known: true };
  const near = catalog.nearest(name);
  return near ? { known: false, near } : { known: false };
}
