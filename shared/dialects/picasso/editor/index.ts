/**
 * The Picasso editor features: key documentation, the `tools` and `deny` lists, and the hooks
 * for what only Picasso knows (the `invocation` handle, what a memory scope refuses, removed
 * tools, renaming a role with its invocation and file).
 */
import { CompletionItemKind } from 'vscode-languageserver-types';
import { excludeListed, keyCandidates, toolCandidates, valueCandidates } from '../../../features/kit/candidates';
import type { Candidate } from '../../../features/kit/completion-items';
import { listAt, stringAt } from '../../../features/kit/file';
import type { YamlCursor } from '../../../features/kit/yaml-context';
import type { AstNode } from '../../../text/tree';
import type { DialectEditor, FeatureFile } from '../../module';
import { MEMORY_DENIES, NAME_PATTERN } from '../constants';
import { PICASSO_KEYS } from '../keys';
import { picassoEntryAt, type PicassoModel } from '../model';
import { toolVerdict } from '../tools';
import { picassoRenamePlan, picassoRenameTarget } from './rename';

type PicassoFile = FeatureFile<PicassoModel>;

/** The role's name as written so far (from the text while it does not parse), else the file's stem. */
function currentName(file: PicassoFile): string {
  return stringAt(file.root, 'name') ?? /^name:[ \t]*["']?([\w.-]+)/m.exec(file.text)?.[1] ?? file.ctx.fileStem;
}

function picassoCandidates(file: PicassoFile, cursor: YamlCursor): Candidate[] {
  const path = cursor.path;
  if (cursor.kind === 'key')
    return keyCandidates(file, cursor, undefined, (d) =>
      cursor.path.length === 0 && d.key === 'invocation' ? ` "@\${1:${currentName(file)}}"` : undefined,
    );
  if (cursor.kind === 'value') {
    // `name` offers the file's stem only when it is a valid name; `invocation`, `@` and the name.
    if (path.length === 1 && path[0] === 'name' && !NAME_PATTERN.test(file.ctx.fileStem)) return [];
    if (!(path.length === 1 && path[0] === 'invocation')) return valueCandidates(file, cursor);
    const value = `@${currentName(file)}`;
    const handle: Candidate = {
      label: value,
      kind: CompletionItemKind.Value,
      detail: '`@` followed by `name`',
      insert: cursor.quoted ? value : `"${value}"`,
      preselect: true,
    };
    return [handle, ...valueCandidates(file, cursor)];
  }
  if (path.length !== 1 || (path[0] !== 'tools' && path[0] !== 'deny')) return [];
  const other = new Set(listAt(file.root, [path[0] === 'tools' ? 'deny' : 'tools']));
  return excludeListed(
    toolCandidates(
      file,
      file.ctx.catalog.names().filter((n) => !other.has(n)),
    ),
    cursor,
  );
}

/**
 * A tool of `tools` or `deny`: what the catalog says, which memory scopes refuse it, and what this role does with it.
 */
function entryHover(file: PicassoFile, listPath: (string | number)[], value: string, node?: AstNode) {
  if (listPath.length !== 1 || (listPath[0] !== 'tools' && listPath[0] !== 'deny')) return undefined;
  const entry = node && picassoEntryAt(file.model, node);
  const verdict = entry ? { near: entry.near } : toolVerdict(value, file.ctx.catalog);
  let text = file.describeTool(value, 'near' in verdict ? verdict.near : undefined);
  for (const [scope, denied] of Object.entries(MEMORY_DENIES))
    if (denied.includes(value)) text += `\n\nRefused by \`memory: ${scope}\`.`;
  if (entry?.removedBy === 'deny') text += '\n\nAlso in `deny`: the role is refused at load.';
  if (entry?.refusedByMemory)
    text += `\n\nRefused by this role's \`memory: ${file.model.memory?.value}\`: the role is refused at load.`;
  return text;
}

/** `memory`: what the scope refuses, before the key's documentation. */
function scalarHover(_file: PicassoFile, path: (string | number)[], value: string, keyDoc: string): string {
  if (!(path.length === 1 && path[0] === 'memory')) return keyDoc;
  const denied = Object.prototype.hasOwnProperty.call(MEMORY_DENIES, value) ? MEMORY_DENIES[value] : undefined;
  return denied
    ? `\`memory: ${value}\` ${denied.length ? `refuses ${denied.map((t) => `\`${t}\``).join(' and ')}` : 'refuses no tool and gives the run a session-scoped namespace'}.\n\n---\n\n${keyDoc}`
    : `\`${value}\` is not a memory scope: use \`none\`, \`read-only\` or \`session\`.\n\n---\n\n${keyDoc}`;
}

/** A literal `tools` entry that `deny` or the memory scope takes away again. */
function removedTools(file: PicassoFile) {
  return file.model.entries.tools.flatMap((e) =>
    e.removedBy
      ? [
          {
            node: e.node,
            tool: e.text,
            by: e.removedBy === 'deny' ? '`deny`' : `\`memory: ${file.model.memory?.value ?? ''}\``,
          },
        ]
      : [],
  );
}

export const picassoEditor: DialectEditor<PicassoModel> = {
  keys: { table: PICASSO_KEYS },
  toolLists: ['tools', 'deny'],
  unknownToolRule: 'picasso/unknown-tool',
  yamlCandidates: picassoCandidates,
  entryHover,
  scalarHover,
  removedTools,
  rename: { target: picassoRenameTarget, plan: picassoRenamePlan },
};
