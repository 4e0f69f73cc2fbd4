/**
 * Inlay hints: after each entry that stands for several tools (a Polytoken shorthand in
 * `tools`, a Profy glob in a subagent's `tools`), how many tools it grants right now, with the
 * list in the tooltip. Read off the dialect's model; what an entry expands to is decided there.
 */
import { MarkupKind, type InlayHint, type Position, type Range } from 'vscode-languageserver-types';
import type { Analysis } from '../types';
import type { AstNode } from '../text/tree';
import { emptyExpansionLine, expansionLine, globMatchLines } from '../docs/tools';
import { featureFile, type FeatureFile } from './common';

const before = (a: Position, b: Position) => a.line < b.line || (a.line === b.line && a.character < b.character);
const inside = (p: Position, r: Range) => !before(p, r.start) && !before(r.end, p);

/** `→ 14 tools`, `→ 1 tool`, `→ no tool`. */
export function countLabel(count: number): string {
  return count === 0 ? '\u2192 no tool' : `\u2192 ${count} tool${count === 1 ? '' : 's'}`;
}

/** The hints whose position lies in `range` (the visible part of the editor). */
export function inlayHints(analysis: Analysis | undefined, range: Range): InlayHint[] {
  const file = featureFile(analysis);
  if (!file) return [];
  const all = file.dialect === 'polytoken' ? polytokenHints(file) : file.dialect === 'profy' ? profyHints(file) : [];
  return all.filter((h) => inside(h.position, range));
}

function hint(file: FeatureFile, node: AstNode, label: string, tooltip: string[]): InlayHint {
  return {
    position: file.ctx.file.source.position(node.end),
    label,
    paddingLeft: true,
    tooltip: { kind: MarkupKind.Markdown, value: tooltip.join('\n\n') },
  };
}

function polytokenHints(file: Extract<FeatureFile, { dialect: 'polytoken' }>): InlayHint[] {
  const out: InlayHint[] = [];
  for (const entry of file.model.entries.tools) {
    const meaning = entry.meaning;
    if (meaning.kind === 'name') continue;
    const expansion = entry.expansion ?? [];
    const detail = entry.expansion ? expansionLine('Expands now to', entry.expansion) : emptyExpansionLine(meaning);
    out.push(hint(file, entry.node, countLabel(expansion.length), [`**${entry.text}**`, detail]));
  }
  return out;
}

function profyHints(file: Extract<FeatureFile, { dialect: 'profy' }>): InlayHint[] {
  const out: InlayHint[] = [];
  const known = file.model.toolset.known;
  for (const subagent of file.model.subagents) {
    for (const entry of subagent.entries) {
      if (entry.kind !== 'glob') continue;
      const label = known ? countLabel(entry.granted.length) : '\u2192 ? tools';
      const lines = globMatchLines({ known, granted: entry.granted, reservedMatches: entry.reservedMatches });
      out.push(hint(file, entry.node, label, [`**${entry.text}**`, ...lines]));
    }
  }
  return out;
}
