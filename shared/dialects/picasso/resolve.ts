import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import type { RuleContext } from '../../engine';
import type { RemovedTool, ResolvedDefinition } from '../../types';
import { memoryDenials } from './constants';
import { listEntries, roleRoot, stringValue } from './rules/util';

/**
 * SPEC §6 resolution: `tools` minus `deny` minus what the memory scope refuses.
 * `removed` lists the granted tools taken away, and by what.
 */
export function resolvePicasso(ctx: RuleContext, diagnostics: readonly Diagnostic[]): ResolvedDefinition[] {
  const root = roleRoot(ctx);
  const name = stringValue(root, 'name')?.value || ctx.fileStem;
  const granted = [...new Set(listEntries(root, 'tools').map((e) => e.value))];
  const denied = new Set(listEntries(root, 'deny').map((e) => e.value));
  const memory = stringValue(root, 'memory')?.value;
  const scopeDenies = new Set(memoryDenials(memory) ?? []);
  const removed: RemovedTool[] = [];
  const tools: string[] = [];
  for (const tool of granted) {
    if (denied.has(tool)) removed.push({ tool, by: 'deny' });
    else if (scopeDenies.has(tool)) removed.push({ tool, by: `memory: ${memory}` });
    else tools.push(tool);
  }
  tools.sort();
  const reasons = [...new Set(diagnostics.filter((d) => d.severity === DiagnosticSeverity.Error).map((d) => String(d.code)))];
  const provenance: Record<string, string[]> = {};
  for (const tool of tools) provenance[tool] = ['tools'];
  return [
    {
      name,
      status: reasons.length ? 'rejected' : 'loads',
      tools,
      removed,
      provenance,
      ...(reasons.length ? { reasons } : {}),
    },
  ];
}
