/** SPEC §9's resolve object for the editor's text, with the provenance the dialect resolvers fill. */
import { resolveAnalysis, type Analysis } from '../engine';
import type { Resolution } from '../types';

/**
 * `file` is the document URI. Every definition carries `tools`, `removed` and, where the
 * dialect knows them, `provenance` (which entries granted each tool), `dropped` and `reasons`.
 */
export function resolveWithProvenance(analysis: Analysis | undefined, uri: string): Resolution | undefined {
  if (!analysis) return undefined;
  const resolution = resolveAnalysis(analysis, uri);
  if (!resolution) return undefined;
  for (const d of resolution.definitions) {
    d.tools = [...new Set(d.tools)].sort();
    d.removed ??= [];
  }
  return resolution;
}
