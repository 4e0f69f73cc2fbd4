/** The `subagents resolve` object for the editor's text, with the provenance the dialect resolvers fill. */
import { resolveAnalysis } from '../engine';
import type { Analysis, Resolution } from '../types';
import { onForgetMemos } from '../memos';

/**
 * The last resolution of each analysis: the code lens, the status bar and an open preview all
 * ask for the same version's resolution, which is worked out once. Read it, never change it.
 */
let resolved = new WeakMap<Analysis, { uri: string; resolution: Resolution | undefined }>();
onForgetMemos(() => (resolved = new WeakMap()));

/**
 * `file` is the document URI. Every definition carries `tools`, `removed` and, where the
 * dialect knows them, `provenance` (which entries granted each tool), `dropped` and `reasons`.
 */
export function resolveWithProvenance(analysis: Analysis | undefined, uri: string): Resolution | undefined {
  if (!analysis) return undefined;
  const cached = resolved.get(analysis);
  if (cached?.uri === uri) return cached.resolution;
  const resolution = resolveAnalysis(analysis, uri);
  for (const d of resolution?.definitions ?? []) {
    d.tools = [...new Set(d.tools)].sort();
    d.removed ??= [];
  }
  resolved.set(analysis, { uri, resolution });
  return resolution;
}
