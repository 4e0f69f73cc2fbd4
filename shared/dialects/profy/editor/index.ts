/**
 * The Profy editor features: key documentation, the Expert's `tools` and each subagent's
 * allowlist, and the hooks for what only Profy knows (JSON completion, globs and what they
 * match in the main toolset, renaming a subagent within its Expert).
 */
import { countLabel } from '../../../features/kit/tool-lines';
import type { AstNode } from '../../../text/tree';
import type { AddHint, DialectEditor, FeatureFile } from '../../module';
import { PROFY_KEYS } from '../keys';
import { allowlistEntryAt, type ExpertModel } from '../model';
import { allowlistEntry } from '../tools';
import { profyCompletions } from './completion';
import { globMarkdown, globMatchLines, globTitle } from './docs';
import { profyRenamePlan, profyRenameTarget } from './rename';

type ProfyFile = FeatureFile<ExpertModel>;

/** A tool of the Expert's own toolset, or a subagent's allowlist entry with what it grants. */
function entryHover(file: ProfyFile, listPath: (string | number)[], value: string, node?: AstNode) {
  const { catalog } = file.ctx;
  const near = () => (catalog.has(value) ? undefined : catalog.nearest(value));
  if (listPath.length === 1 && listPath[0] === 'tools') return file.describeTool(value, near());
  if (!(listPath.length === 3 && listPath[0] === 'subagents' && listPath[2] === 'tools')) return undefined;
  const toolset = file.model.toolset;
  const entry =
    (node && allowlistEntryAt(file.model, node)) ??
    allowlistEntry({ kind: 'string', value, start: 0, end: 0 }, toolset);
  if (entry.kind === 'glob')
    return globMarkdown(value, {
      known: toolset.known,
      unchecked: entry.unchecked,
      granted: entry.granted,
      reservedMatches: entry.reservedMatches,
    });
  const text = file.describeTool(value, near());
  if (entry.kind === 'reserved' || !toolset.known) return text;
  return `${text}\n\n${entry.granted.length ? 'In the main agent toolset: granted.' : 'Not in the main agent toolset: the runtime drops it silently.'}`;
}

/** After each glob of a subagent's allowlist: how many tools of the main toolset it matches now. */
function inlayHints(file: ProfyFile, add: AddHint): void {
  const known = file.model.toolset.known;
  for (const subagent of file.model.subagents) {
    for (const entry of subagent.entries) {
      if (entry.kind !== 'glob') continue;
      const { unchecked, granted, reservedMatches } = entry;
      const lines = () => globMatchLines({ known, unchecked, granted, reservedMatches });
      add(
        entry.node,
        () => (unchecked ? '\u2192 ? tools' : countLabel(granted)),
        () => [globTitle(entry.text!), ...lines()],
      );
    }
  }
}

export const profyEditor: DialectEditor<ExpertModel> = {
  keys: { table: PROFY_KEYS },
  toolLists: ['tools', 'subagents.[].tools'],
  nestedDefinitions: { key: 'subagents', label: 'subagent' },
  complete: profyCompletions,
  entryHover,
  inlayHints,
  rename: { target: profyRenameTarget, plan: profyRenamePlan },
};
