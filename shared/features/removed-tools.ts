/**
 * Removed tools, faded where they are granted: a literal `tools` entry that the definition
 * itself takes away again (Polytoken `tools_deny`, Picasso `deny` or its memory scope: the
 * module's `removedTools`) gets a hint-severity diagnostic tagged Unnecessary, which editors
 * show faded. These are not findings: they carry no rule id, so no quick fix, "Fix all" or the
 * CLI ever sees them; the server appends them when it publishes. Shorthands are never faded:
 * they grant other tools too.
 */
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver-types';
import type { Analysis } from '../types';
import { featureFile } from './common';

export function removedToolDiagnostics(analysis: Analysis | undefined): Diagnostic[] {
  const file = featureFile(analysis);
  const removed = file?.module.editor.removedTools;
  if (!file || !removed) return [];
  return removed(file).map(({ node, tool, by }) => ({
    range: file.ctx.file.source.range(node.start, node.end),
    severity: DiagnosticSeverity.Hint,
    tags: [DiagnosticTag.Unnecessary],
    source: 'subagents',
    message: `\`${tool}\` is granted here, then removed by ${by}.`,
  }));
}
