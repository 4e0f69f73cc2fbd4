/** A code lens above each definition: its status and tool count, opening the resolution. */
import type { CodeLens, Range } from 'vscode-languageserver-types';
import type { Analysis } from '../types';
import { toolCount } from '../results';
import { featureFile } from './common';
import { definitionNames } from '../workspace/names';
import { resolveWithProvenance } from './resolve';

export { CLIENT_RESOLVE_COMMAND as RESOLVE_COMMAND } from '../protocol';
import { CLIENT_RESOLVE_COMMAND as RESOLVE_COMMAND } from '../protocol';

export function codeLenses(analysis: Analysis | undefined, uri: string): CodeLens[] {
  const file = featureFile(analysis);
  if (!file) return [];
  const resolution = resolveWithProvenance(analysis, uri);
  if (!resolution) return [];
  const names = definitionNames(file.dialect, file.ctx.file, file.ctx.path);
  const firstLine: Range = { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
  return resolution.definitions.map((d, i) => {
    // Several definitions in a file (a Profy Expert's subagents): each after the file's own in the names list.
    const many = file.module.definitionsPerFile === 'many';
    const named = many ? names.slice(1).find((n) => n.name === d.name) : undefined;
    const at = d.range ?? named?.range ?? firstLine;
    // One definition per file: above the whole file.
    const line = !many ? 0 : !d.range && !named ? i : at.start.line;
    const range: Range = { start: { line, character: 0 }, end: { line, character: 0 } };
    return {
      range,
      command: {
        title: lensTitle(d.status, toolCount(d.tools.length, d.unknown?.length), d.reasons, d.name, many),
        command: RESOLVE_COMMAND,
        arguments: [uri],
      },
    };
  });
}

/** `loads · 4 tools + 1 unknown`, or the status and why. */
function lensTitle(
  status: string,
  count: string,
  reasons: string[] | undefined,
  name: string,
  showName: boolean,
): string {
  const who = showName ? `${name}: ` : '';
  if (status === 'loads') return `${who}loads \u00b7 ${count}`;
  const ids = [...new Set(reasons ?? [])].map((r) => r.replace(/^[a-z]+\//, ''));
  const why = ids.length ? ` \u00b7 ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` +${ids.length - 3}` : ''}` : '';
  return `${who}${status}${why}`;
}
