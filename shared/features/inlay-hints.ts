/**
 * Inlay hints: after each entry that stands for several tools (a Polytoken shorthand in
 * `tools`, a Profy glob in a subagent's `tools`), how many tools it grants right now, with the
 * list in the tooltip. Read off the dialect's model; what an entry expands to is decided there.
 */
import { MarkupKind, type InlayHint, type Range } from 'vscode-languageserver-types';
import type { Analysis } from '../types';
import type { AstNode } from '../text/tree';
import { emptyExpansionLine, expansionLine, globMatchLines } from '../docs/tools';
import { featureFile, type FeatureFile } from './common';

/** `→ 14 tools`, `→ 1 tool`, `→ no tool`. */
function countLabel(count: number): string {
  return count === 0 ? '\u2192 no tool' : `\u2192 ${count} tool${count === 1 ? '' : 's'}`;
}

/** The hints whose position lies in `range` (the visible part of the editor); only those are rendered. */
export function inlayHints(analysis: Analysis | undefined, range: Range): InlayHint[] {
  const file = featureFile(analysis);
  if (!file) return [];
  const out: InlayHint[] = [];
  const source = file.ctx.file.source;
  const [from, to] = [source.offset(range.start), source.offset(range.end)];
  const add = (node: AstNode, label: () => string, tooltip: () => string[]) => {
    if (node.end < from || node.end > to) return;
    out.push({
      position: source.position(node.end),
      label: label(),
      paddingLeft: true,
      tooltip: { kind: MarkupKind.Markdown, value: tooltip().join('\n\n') },
    });
  };
  if (file.dialect === 'polytoken') polytokenHints(file, add);
  else if (file.dialect === 'profy') profyHints(file, add);
  return out;
}

type AddHint = (node: AstNode, label: () => string, tooltip: () => string[]) => void;

function polytokenHints(file: Extract<FeatureFile, { dialect: 'polytoken' }>, add: AddHint): void {
  for (const entry of file.model.entries.tools) {
    const meaning = entry.meaning;
    if (meaning.kind === 'name') continue;
    const detail = () =>
      entry.expansion ? expansionLine('Expands now to', entry.expansion) : emptyExpansionLine(meaning);
    add(
      entry.node,
      () => countLabel(entry.expansion?.length ?? 0),
      () => [`**${entry.text}**`, detail()],
    );
  }
}

function profyHints(file: Extract<FeatureFile, { dialect: 'profy' }>, add: AddHint): void {
  const known = file.model.toolset.known;
  for (const subagent of file.model.subagents) {
    for (const entry of subagent.entries) {
      if (entry.kind !== 'glob') continue;
      const lines = () => globMatchLines({ known, granted: entry.granted, reservedMatches: entry.reservedMatches });
      add(
        entry.node,
        () => (known ? countLabel(entry.granted.length) : '\u2192 ? tools'),
        () => [`**${entry.text}**`, ...lines()],
      );
    }
  }
}
