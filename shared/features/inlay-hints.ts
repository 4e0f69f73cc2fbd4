/**
 * Inlay hints: after each entry that stands for several tools (a Polytoken shorthand in
 * `tools`, a Profy glob in a subagent's `tools`), how many tools it grants right now, with the
 * list in the tooltip. The dialect's module says which entries and what they grant (`inlayHints`).
 */
import { MarkupKind, type InlayHint, type Range } from 'vscode-languageserver-types';
import type { Analysis } from '../types';
import type { AstNode } from '../text/tree';
import { featureFile } from './common';

/** The hints whose position lies in `range` (the visible part of the editor); only those are rendered. */
export function inlayHints(analysis: Analysis | undefined, range: Range): InlayHint[] {
  const file = featureFile(analysis);
  const hints = file?.module.editor.inlayHints;
  if (!file || !hints) return [];
  const out: InlayHint[] = [];
  const source = file.ctx.file.source;
  const [from, to] = [source.offset(range.start), source.offset(range.end)];
  hints(file, (node: AstNode, label: () => string, tooltip: () => string[]) => {
    if (node.end < from || node.end > to) return;
    out.push({
      position: source.position(node.end),
      label: label(),
      paddingLeft: true,
      tooltip: { kind: MarkupKind.Markdown, value: tooltip().join('\n\n') },
    });
  });
  return out;
}
