/**
 * Completion in a Polytoken definition: keys and values (shared), tool entries with shorthands, status values, the
 * frontmatter block.
 */
import { CompletionItemKind, type CompletionItem } from 'vscode-languageserver-types';
import { excludeListed, keyCandidates, toolCandidates, valueCandidates } from '../../../features/kit/candidates';
import { toItems, type Candidate, type CompletionOptions } from '../../../features/kit/completion-items';
import { listAt } from '../../../features/kit/file';
import { expansionLine } from '../../../features/kit/tool-lines';
import type { YamlCursor } from '../../../features/kit/yaml-context';
import type { FeatureFile } from '../../module';
import { isStatusEnumPath, STATUS_FAMILIES } from '../constants';
import type { PolytokenModel } from '../model';
import { listCandidates, type ToolListKey } from '../tools';
import { templateCompletions } from './template';

type PolytokenFile = FeatureFile<PolytokenModel>;

const SHORTHAND_DETAIL: Record<string, string> = {
  all: 'every catalog and MCP tool',
  'all-mcp': 'every MCP tool',
  tag: 'every tool tagged',
  server: 'every tool of MCP server',
};
const SHORTHAND_SORT: Record<string, number> = { all: 0, 'all-mcp': 1, tag: 2, server: 3 };

export function polytokenCandidates(file: PolytokenFile, cursor: YamlCursor): Candidate[] {
  const path = cursor.path;
  if (cursor.kind === 'key') return keyCandidates(file, cursor);
  if (cursor.kind === 'value') return valueCandidates(file, cursor);
  const listKey = path.length === 2 && path[0] === 'polytoken' ? String(path[1]) : undefined;
  let out: Candidate[] = [];
  if (isStatusEnumPath(path)) {
    out = Object.entries(STATUS_FAMILIES).flatMap(([family, values]) =>
      values.map((v, i) => ({
        label: v,
        kind: CompletionItemKind.EnumMember,
        detail: `${family} (recognized status)`,
        sort: i,
      })),
    );
  } else if (listKey === 'tools' || listKey === 'tools_deny' || listKey === 'undeferred_tools') {
    out = toolEntryCandidates(file, listKey);
  }
  return excludeListed(out, cursor);
}

/** The entries tools.ts accepts in this list: each is known and grants something. */
function toolEntryCandidates(file: PolytokenFile, listKey: ToolListKey): Candidate[] {
  const candidates = listCandidates(listKey, file.ctx.catalog);
  const denied = new Set(listAt(file.root, ['polytoken', 'tools_deny']));
  const granted = new Set(listAt(file.root, ['polytoken', 'tools']));
  const literal = candidates
    .filter((c) => c.facts.meaning.kind === 'name' && !(listKey === 'undeferred_tools' && denied.has(c.text)))
    .map((c) => c.text);
  const out = toolCandidates(file, literal, listKey === 'tools' ? 100 : 0);
  if (listKey === 'undeferred_tools') for (const c of out) if (granted.has(c.label)) c.sort = -1;
  for (const c of candidates) {
    const m = c.facts.meaning;
    if (m.kind === 'name') continue;
    const what =
      m.kind === 'tag'
        ? `${SHORTHAND_DETAIL.tag} ${m.tag}`
        : m.kind === 'server'
          ? `${SHORTHAND_DETAIL.server} ${m.server}`
          : SHORTHAND_DETAIL[m.kind];
    out.push({
      label: c.text,
      kind: m.kind === 'server' ? CompletionItemKind.Module : CompletionItemKind.Constant,
      detail: what,
      documentation: expansionLine('Expands now to', c.facts.expansion ?? []),
      sort: SHORTHAND_SORT[m.kind],
    });
  }
  return out;
}

/**
 * Outside the frontmatter: the template's names and tags in the body, or the whole frontmatter block at the top of a
 * file without one.
 */
export function polytokenOutsideYaml(
  file: PolytokenFile,
  offset: number,
  options: CompletionOptions,
): CompletionItem[] {
  return templateCompletions(file, offset, options) ?? frontmatterStarter(file, offset, options);
}

function frontmatterStarter(file: PolytokenFile, offset: number, options: CompletionOptions): CompletionItem[] {
  if (file.ctx.file.frontmatter?.kind !== 'none') return [];
  if (file.text.slice(0, offset).includes('\n')) return [];
  const starter: Candidate = {
    label: 'frontmatter',
    kind: CompletionItemKind.Snippet,
    detail: 'Polytoken subagent frontmatter',
    insert: polytokenSkeleton(file.ctx.fileStem),
    snippet: true,
  };
  return toItems(file.ctx.file.source, [starter], 0, offset, options);
}

/** A new definition: its frontmatter with the name, a description and a few tools to choose, then the body. */
export function polytokenSkeleton(name: string): string {
  return `---\nname: ${name}\ndescription: \${1:what it does and when to use it}\npolytoken:\n  tools: [\${2:file_read, glob, grep}]\n---\n$0`;
}
