/** Helpers the editor features share: the analysed file with its model, its YAML region, tree lookups. */
import type { Position, Range } from 'vscode-languageserver-types';
import type { Analysis, Dialect, RuleContext } from '../types';
import type { AstNode } from '../text/tree';
import { getValue, isString, nodeAtOffset, nodeAtPath, stringItems } from '../text/tree';
import type { PolytokenModel } from '../dialects/polytoken/model';
import type { ExpertModel } from '../dialects/profy/model';
import type { PicassoModel } from '../dialects/picasso/model';

export type FeatureFile =
  | { dialect: 'polytoken'; ctx: RuleContext<PolytokenModel>; model: PolytokenModel; text: string; root?: AstNode }
  | { dialect: 'profy'; ctx: RuleContext<ExpertModel>; model: ExpertModel; text: string; root?: AstNode }
  | { dialect: 'picasso'; ctx: RuleContext<PicassoModel>; model: PicassoModel; text: string; root?: AstNode };

/** The definition file behind an analysis, with its dialect's model; undefined for configuration and unrecognized files. */
export function featureFile(analysis: Analysis | undefined): FeatureFile | undefined {
  const ctx = analysis?.context;
  if (!ctx || !analysis.kind || analysis.kind === 'config' || !ctx.model) return undefined;
  const base = { text: ctx.file.source.text, root: ctx.file.root };
  switch (analysis.kind) {
    case 'polytoken':
      return {
        ...base,
        dialect: 'polytoken',
        ctx: ctx as RuleContext<PolytokenModel>,
        model: ctx.model as PolytokenModel,
      };
    case 'profy':
      return { ...base, dialect: 'profy', ctx: ctx as RuleContext<ExpertModel>, model: ctx.model as ExpertModel };
    case 'picasso':
      return { ...base, dialect: 'picasso', ctx: ctx as RuleContext<PicassoModel>, model: ctx.model as PicassoModel };
  }
}

export function offsetAt(file: FeatureFile, position: Position): number {
  return file.ctx.file.source.offset(position);
}

export function rangeOf(file: FeatureFile, start: number, end: number): Range {
  return file.ctx.file.source.range(start, end);
}

/** The YAML region holding the offset (the frontmatter, or the whole YAML file). */
export function yamlRegionAt(file: FeatureFile, offset: number): { start: number; end: number } | undefined {
  if (file.ctx.file.format !== 'yaml') return undefined;
  return file.ctx.file.yamlRegions.find((r) => offset >= r.start && offset <= r.end);
}

/** The deepest node at the offset; at a node's very end the node still counts. */
export function nodeAt(file: FeatureFile, offset: number): AstNode | undefined {
  return nodeAtOffset(file.root, offset);
}

/** String entries of a list at a path of the root (from the tree). */
export function listAt(root: AstNode | undefined, path: (string | number)[]): string[] {
  return stringItems(nodeAtPath(root, path)).map((i) => i.value);
}

export function stringAt(root: AstNode | undefined, key: string): string | undefined {
  const v = getValue(root, key);
  return isString(v) ? v.value : undefined;
}

/** True when the list at this path (`['polytoken', 'tools']`, without an entry's index) holds tool names. */
export function isToolList(dialect: Dialect, listPath: readonly (string | number)[]): boolean {
  const n = listPath.length;
  if (dialect === 'polytoken')
    return (
      n === 2 &&
      listPath[0] === 'polytoken' &&
      (listPath[1] === 'tools' || listPath[1] === 'tools_deny' || listPath[1] === 'undeferred_tools')
    );
  if (dialect === 'picasso') return n === 1 && (listPath[0] === 'tools' || listPath[0] === 'deny');
  return (n === 1 && listPath[0] === 'tools') || (n === 3 && listPath[0] === 'subagents' && listPath[2] === 'tools');
}
