/**
 * The Polytoken editor features: its key documentation, tool lists, and the hooks for what only
 * Polytoken knows (shorthands and their expansion, status values, the body template, removed
 * tools, renaming a definition with its file).
 */
import type { AddHint, DialectEditor, FeatureFile } from '../../module';
import { countLabel, expansionLine, unknownLines } from '../../../features/kit/tool-lines';
import type { AstNode } from '../../../text/tree';
import { STATUS_FIELDS } from '../constants';
import { polytokenKeys } from '../keys';
import { entryAt, type PolytokenModel } from '../model';
import { entryFacts, type ToolListKey } from '../tools';
import { polytokenCandidates, polytokenOutsideYaml } from './completion';
import { emptyExpansionLine, shorthandMarkdown, statusValueMarkdown } from './docs';
import { polytokenRenamePlan, polytokenRenameTarget } from './rename';
import { templateHover } from './template';

type PolytokenFile = FeatureFile<PolytokenModel>;

const TOOL_LISTS: readonly ToolListKey[] = ['tools', 'tools_deny', 'undeferred_tools'];

/** A status value in an `exit_tool_schema` field's enum (`…properties.status.enum`). */
function isStatusEnum(listPath: readonly (string | number)[]): boolean {
  const n = listPath.length;
  return (
    n >= 4 &&
    listPath[1] === 'exit_tool_schema' &&
    listPath[n - 1] === 'enum' &&
    listPath[n - 3] === 'properties' &&
    (STATUS_FIELDS as readonly string[]).includes(String(listPath[n - 2]))
  );
}

/** A tool entry, a shorthand with what it grants, or a status value; `node` undefined for text that does not parse. */
function entryHover(file: PolytokenFile, listPath: (string | number)[], value: string, node?: AstNode) {
  if (isStatusEnum(listPath)) return statusValueMarkdown(value);
  const list = listPath[1] as ToolListKey;
  if (listPath.length !== 2 || listPath[0] !== 'polytoken' || !TOOL_LISTS.includes(list)) return undefined;
  const { catalog } = file.ctx;
  const known = node && entryAt(file.model, node);
  const facts = known ?? entryFacts(value, list, catalog);
  const expansion = known
    ? list === 'tools'
      ? known.expansion
      : entryFacts(value, list, catalog).expansion
    : facts.expansion;
  const near = facts.unknown?.near;
  if (facts.meaning.kind === 'name') return file.describeTool(value, near);
  return shorthandMarkdown(value, facts.meaning, expansion, near);
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
