/**
 * Completion candidates in YAML, built from a dialect's key documentation and catalog: the
 * shared YAML completion uses them as they are, and a dialect's `yamlCandidates` hook picks
 * and adds to them.
 */
import { CompletionItemKind } from 'vscode-languageserver-types';
import type { DialectModule, FeatureFile } from '../../dialects/module';
import type { KeyDoc } from '../../docs/key-doc';
import type { Candidate } from './completion-items';
import { isToolList } from './file';
import { keyDocMarkdownOf, keyDocOf, keysUnder } from './keys';
import type { YamlCursor } from './yaml-context';

/**
 * The keys a mapping may still take, as `key: <snippet>` (just the key when the colon is
 * there). A top-level `name` offers the file's stem; `snippet` may give another key's body.
 */
export function keyCandidates(
  file: FeatureFile,
  cursor: YamlCursor,
  docs: KeyDoc[] = keysUnder(file.module, cursor.path),
  snippet?: (doc: KeyDoc) => string | undefined,
): Candidate[] {
  const after = file.text.slice(cursor.replaceEnd, file.text.indexOf('\n', cursor.replaceEnd) >>> 0);
  const hasColon = /^\s*:/.test(after);
  return docs
    .filter((d) => !cursor.siblings.includes(d.key))
    .map((d, i) => {
      let body = (d.snippet ?? ' $1').replace(/\$\{INDENT\}/g, '  ');
      if (cursor.path.length === 0 && d.key === 'name') body = ` \${1:${file.ctx.fileStem}}`;
      body = snippet?.(d) ?? body;
      return keyCandidate(file.module, cursor.path, d, i, hasColon ? d.key : `${d.key}:${body}`, !hasColon);
    });
}

/** A key offered in a mapping at `path` (YAML or JSON): `insert` is the text after the key's start. */
export function keyCandidate(
  module: DialectModule,
  path: (string | number)[],
  d: KeyDoc,
  i: number,
  insert: string,
  snippet: boolean,
): Candidate {
  return {
    label: d.key,
    kind: CompletionItemKind.Property,
    detail: `${d.type}${d.presence ? ` \u00b7 ${d.presence}` : ''}`,
    documentation: keyDocMarkdownOf(module, [...path, d.key], d),
    insert,
    snippet,
    deprecated: d.deprecated,
    sort: d.presence === 'required' ? i : 100 + i,
  };
}

/** Values of a scalar: the file's stem for a top-level `name`, then the values its key doc lists (some as snippets). */
export function valueCandidates(file: FeatureFile, cursor: YamlCursor): Candidate[] {
  const doc = keyDocOf(file.module, cursor.path);
  const out: Candidate[] = [];
  if (cursor.path.length === 1 && cursor.path[0] === 'name')
    out.push({ label: file.ctx.fileStem, kind: CompletionItemKind.Value, detail: 'the file name', preselect: true });
  for (const v of doc?.values ?? []) {
    const snippet = doc?.valueSnippets?.[v];
    if (snippet) {
      out.push({
        label: v,
        kind: CompletionItemKind.Snippet,
        detail: snippet.detail,
        insert: snippet.insert,
        snippet: true,
      });
      continue;
    }
    out.push({
      label: v,
      kind: v === 'true' || v === 'false' ? CompletionItemKind.Keyword : CompletionItemKind.EnumMember,
      detail: doc!.type,
      documentation: doc!.summary,
    });
  }
  return out;
}

/** Tool names, each with its catalog description and hover text. */
export function toolCandidates(
  file: FeatureFile,
  names: string[],
  sortBase = 0,
  detail?: (n: string) => string | undefined,
): Candidate[] {
  return names.map((name, i) => ({
    label: name,
    kind: CompletionItemKind.Function,
    detail: detail?.(name) ?? file.ctx.catalog.get(name)?.description,
    documentation: file.describeTool(name),
    sort: sortBase + i,
  }));
}

/** Leaves out what the list or mapping already holds. */
export function excludeListed(candidates: Candidate[], cursor: YamlCursor): Candidate[] {
  const listed = new Set(cursor.siblings);
  return candidates.filter((c) => !listed.has(c.label));
}

/** The shared YAML completion: keys, values, and the catalog's names in a tool list not yet listed. */
export function yamlCandidates(file: FeatureFile, cursor: YamlCursor): Candidate[] {
  if (cursor.kind === 'key') return keyCandidates(file, cursor);
  if (cursor.kind === 'value') return valueCandidates(file, cursor);
  if (!isToolList(file.module, cursor.path)) return [];
  return excludeListed(toolCandidates(file, file.ctx.catalog.names()), cursor);
}
