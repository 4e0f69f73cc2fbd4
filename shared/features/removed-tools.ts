/**
 * Removed tools, faded where they are granted: a literal `tools` entry that the definition
 * itself takes away again (Polytoken `tools_deny`, Picasso `deny` or its memory scope) gets a
 * hint-severity diagnostic tagged Unnecessary, which editors show faded. These are not
 * findings: they carry no rule id, so no quick fix, "Fix all" or the CLI ever sees them; the
 * server appends them when it publishes. Shorthands are never faded: they grant other tools too.
 */
import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver-types';
import type { Analysis } from '../types';
import type { AstNode } from '../text/tree';
import { featureFile, type FeatureFile } from './common';

export function removedToolDiagnostics(analysis: Analysis | undefined): Diagnostic[] {
  const file = featureFile(analysis);
  if (!file) return [];
  const out: Diagnostic[] = [];
  const faded = (node: AstNode, tool: string, by: string) =>
    out.push({
      range: file.ctx.file.source.range(node.start, node.end),
      severity: DiagnosticSeverity.Hint,
      tags: [DiagnosticTag.Unnecessary],
      source: 'subagents',
      message: `\`${tool}\` is granted here, then removed by ${by}.`,
    });
  if (file.dialect === 'polytoken') {
    const denied = new Set(file.model.entries.tools_deny.map((e) => e.text));
    for (const e of file.model.entries.tools)
      if (e.meaning.kind === 'name' && denied.has(e.text)) faded(e.node, e.text, '`tools_deny`');
  } else if (file.dialect === 'picasso') {
    for (const e of file.model.entries.tools)
      if (e.removedBy) faded(e.node, e.text, removedByPicasso(file, e.removedBy));
  }
  return out;
}

function removedByPicasso(file: Extract<FeatureFile, { dialect: 'picasso' }>, by: 'deny' | 'memory'): string {
  return by === 'deny' ? '`deny`' : `\`memory: ${file.model.memory?.value ?? ''}\``;
}
