/**
 * The Polytoken editor features: its key documentation, tool lists, and the hooks for what only
 * Polytoken knows (shorthands and their expansion, status values, the body template, removed
 * tools, renaming a definition with its file).
 */
import type { AddHint, DialectEditor, FeatureFile } from '../../module';
import { countLabel, expansionLine, unknownLines } from '../../../features/kit/tool-lines';
import { isStatusEnumPath } from '../constants';
import { polytokenKeys } from '../keys';
import type { PolytokenModel } from '../model';
import { entryFacts, type ToolListKey } from '../tools';
import { polytokenCandidates, polytokenOutsideYaml } from './completion';
import { emptyExpansionLine, shorthandMarkdown, statusValueMarkdown } from './docs';
import { polytokenRenamePlan, polytokenRenameTarget } from './rename';
import { templateHover } from './template';

type PolytokenFile = FeatureFile<PolytokenModel>;

const TOOL_LISTS: readonly ToolListKey[] = ['tools', 'tools_deny', 'undeferred_tools'];

/**
 * A tool entry, a shorthand with what it grants, or a status value. What tools.ts says of the text as written, in
 * text that does not parse as in the model (whose entries keep an expansion for `tools` only).
 */
function entryHover(file: PolytokenFile, listPath: (string | number)[], value: string) {
  if (isStatusEnumPath(listPath)) return statusValueMarkdown(value);
  const list = listPath[1] as ToolListKey;
  if (listPath.length !== 2 || listPath[0] !== 'polytoken' || !TOOL_LISTS.includes(list)) return undefined;
  const facts = entryFacts(value, list, file.ctx.catalog);
  const near = facts.unknown?.near;
  if (facts.meaning.kind === 'name') return file.describeTool(value, near);
  return shorthandMarkdown(value, facts.meaning, facts.expansion, near);
}

/** After each shorthand in `tools`: how many tools it grants now. */
function inlayHints(file: PolytokenFile, add: AddHint): void {
  for (const entry of file.model.entries.tools) {
    const meaning = entry.meaning;
    if (meaning.kind === 'name') continue;
    const detail = () =>
      entry.expansion ? expansionLine('Expands now to', entry.expansion) : emptyExpansionLine(meaning);
    const catalog = file.ctx.catalog;
    add(
      entry.node,
      () => countLabel(entry.expansion ?? [], catalog),
      () => [`**${entry.text}**`, detail(), ...unknownLines(entry.expansion ?? [], catalog)],
    );
  }
}

/** A literal `tools` entry that `tools_deny` takes away again. */
function removedTools(file: PolytokenFile) {
  const denied = new Set(file.model.entries.tools_deny.map((e) => e.text));
  return file.model.entries.tools
    .filter((e) => e.meaning.kind === 'name' && denied.has(e.text))
    .map((e) => ({ node: e.node, tool: e.text, by: '`tools_deny`' }));
}

export const polytokenEditor: DialectEditor<PolytokenModel> = {
  keys: polytokenKeys,
  toolLists: TOOL_LISTS.map((list) => `polytoken.${list}`),
  unknownToolRule: 'polytoken/unknown-tool',
  yamlCandidates: polytokenCandidates,
  completeOutsideYaml: polytokenOutsideYaml,
  hoverOutsideYaml: templateHover,
  entryHover,
  inlayHints,
  removedTools,
  rename: { target: polytokenRenameTarget, plan: polytokenRenamePlan },
};
