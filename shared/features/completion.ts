/** Context-aware completion: keys, values and tool names for each dialect. */
import { getLocation, parse as parseJsonc, type Location } from 'jsonc-parser';
import { CompletionItemKind, InsertTextFormat, type CompletionItem, type Position } from 'vscode-languageserver-types';
import type { Analysis, Dialect } from '../types';
import { PROFY_RESERVED } from '../dialects/profy/builtins';
import { keyDoc, keyDocMarkdown, keysAt, type KeyDoc } from '../docs/keys';
import { expansionLine, toolMarkdown } from '../docs/tools';
import { STATUS_FAMILIES, STATUS_FIELDS } from '../dialects/polytoken/constants';
import { listCandidates, type ToolListKey } from '../dialects/polytoken/tools';
import { NAME_PATTERN } from '../dialects/picasso/constants';
import { allowlistCandidates } from '../dialects/profy/tools';
import { featureFile, listAt, offsetAt, stringAt, yamlRegionAt, type FeatureFile } from './common';
import { yamlCursorAt, type YamlCursor } from './yaml-context';
import { toItems, type Candidate, type CompletionOptions } from './completion-items';
import { configCompletions } from './config-file';
import { directiveCompletions, directiveFileOf } from './directives';
import { templateCompletions } from './template';

export type { CompletionOptions } from './completion-items';

/** Completion items at a position of an analysed document. */
export function completions(
  analysis: Analysis | undefined,
  position: Position,
  options: CompletionOptions = {},
): CompletionItem[] {
  const directiveFile = directiveFileOf(analysis);
  const inComment =
    directiveFile && directiveCompletions(directiveFile, directiveFile.source.offset(position), options);
  if (inComment) return inComment;
  if (analysis?.kind === 'config') return configCompletions(analysis, position, options);
  const file = featureFile(analysis);
  if (!file) return [];
  const offset = offsetAt(file, position);
  if (file.dialect === 'profy') return profyCompletions(file, offset, options);
  let region = yamlRegionAt(file, offset);
  // An empty Picasso `.md` role is YAML throughout once written.
  if (!region && file.dialect === 'picasso' && !file.text.trim()) region = { start: 0, end: file.text.length };
  if (!region) return templateCompletions(file, offset, options) ?? frontmatterStarter(file, offset, options);
  const cursor = yamlCursorAt(file.text, region.start, region.end, offset);
  if (!cursor) return [];
  const candidates = file.dialect === 'polytoken' ? polytokenCandidates(file, cursor) : picassoCandidates(file, cursor);
  return toItems(file.ctx.file.source, candidates, cursor.replaceStart, cursor.replaceEnd, options, cursor);
}

// ---------------------------------------------------------------------------------------
// YAML dialects

function keyCandidates(file: FeatureFile, cursor: YamlCursor, docs: KeyDoc[]): Candidate[] {
  const after = file.text.slice(cursor.replaceEnd, file.text.indexOf('\n', cursor.replaceEnd) >>> 0);
  const hasColon = /^\s*:/.test(after);
  return docs
    .filter((d) => !cursor.siblings.includes(d.key))
    .map((d, i) => {
      let body = (d.snippet ?? ' $1').replace(/\$\{INDENT\}/g, '  ');
      if (cursor.path.length === 0 && d.key === 'name') body = ` \${1:${file.ctx.fileStem}}`;
      if (cursor.path.length === 0 && d.key === 'invocation' && file.dialect === 'picasso')
        body = ` "@\${1:${currentName(file)}}"`;
      return keyCandidate(file.dialect, cursor.path, d, i, hasColon ? d.key : `${d.key}:${body}`, !hasColon);
    });
}

/** A key offered in a mapping at `path` (YAML or JSON): `insert` is the text after the key's start. */
function keyCandidate(
  dialect: Dialect,
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
    documentation: keyDocMarkdown(dialect, [...path, d.key], d),
    insert,
    snippet,
    deprecated: d.deprecated,
    sort: d.presence === 'required' ? i : 100 + i,
  };
}

function valueCandidates(file: FeatureFile, cursor: YamlCursor): Candidate[] {
  const doc = keyDoc(file.dialect, cursor.path);
  const out: Candidate[] = [];
  const key = cursor.path[cursor.path.length - 1];
  if (cursor.path.length === 1 && key === 'name') {
    out.push({ label: file.ctx.fileStem, kind: CompletionItemKind.Value, detail: 'the file name', preselect: true });
  }
  if (file.dialect === 'picasso' && cursor.path.length === 1 && key === 'invocation') {
    const name = currentName(file);
    const value = `@${name}`;
    out.push({
      label: value,
      kind: CompletionItemKind.Value,
      detail: '`@` followed by `name`',
      insert: cursor.quoted ? value : `"${value}"`,
      preselect: true,
    });
  }
  for (const v of doc?.values ?? []) {
    if (v === 'skip') {
      out.push({
        label: 'skip',
        kind: CompletionItemKind.Snippet,
        detail: 'skip some hooks',
        insert: '\n  skip: [${1:post-act}]',
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

function currentName(file: FeatureFile): string {
  return stringAt(file.root, 'name') ?? /^name:\s*["']?([^\s"'#]+)/m.exec(file.text)?.[1] ?? file.ctx.fileStem;
}

function toolCandidates(
  file: FeatureFile,
  names: string[],
  sortBase = 0,
  detail?: (n: string) => string | undefined,
): Candidate[] {
  return names.map((name, i) => ({
    label: name,
    kind: CompletionItemKind.Function,
    detail: detail?.(name) ?? file.ctx.catalog.get(name)?.description,
    documentation: toolMarkdown(file.dialect, file.ctx.catalog, name),
    sort: sortBase + i,
  }));
}

function isStatusEnumPath(path: (string | number)[]): boolean {
  const n = path.length;
  return (
    n >= 5 &&
    path[0] === 'polytoken' &&
    path[1] === 'exit_tool_schema' &&
    path[n - 1] === 'enum' &&
    path[n - 3] === 'properties' &&
    (STATUS_FIELDS as readonly string[]).includes(String(path[n - 2]))
  );
}

const SHORTHAND_DETAIL: Record<string, string> = {
  all: 'every catalog and MCP tool',
  'all-mcp': 'every MCP tool',
  tag: 'every tool tagged',
  server: 'every tool of MCP server',
};
const SHORTHAND_SORT: Record<string, number> = { all: 0, 'all-mcp': 1, tag: 2, server: 3 };

function polytokenCandidates(file: FeatureFile, cursor: YamlCursor): Candidate[] {
  const path = cursor.path;
  if (cursor.kind === 'key') return keyCandidates(file, cursor, keysAt('polytoken', path));
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
    // The entries tools.ts accepts in this list: each is known and grants something.
    const candidates = listCandidates(listKey as ToolListKey, file.ctx.catalog);
    const denied = new Set(listAt(file.root, ['polytoken', 'tools_deny']));
    const granted = new Set(listAt(file.root, ['polytoken', 'tools']));
    const literal = candidates
      .filter((c) => c.facts.meaning.kind === 'name' && !(listKey === 'undeferred_tools' && denied.has(c.text)))
      .map((c) => c.text);
    out = toolCandidates(file, literal, listKey === 'tools' ? 100 : 0);
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
  }
  return excludeListed(out, cursor);
}

function picassoCandidates(file: FeatureFile, cursor: YamlCursor): Candidate[] {
  const path = cursor.path;
  if (cursor.kind === 'key') return keyCandidates(file, cursor, keysAt('picasso', path));
  if (cursor.kind === 'value') {
    const out = valueCandidates(file, cursor);
    if (path.length === 1 && path[0] === 'name' && !NAME_PATTERN.test(file.ctx.fileStem)) out.length = 0;
    return out;
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

function excludeListed(candidates: Candidate[], cursor: YamlCursor): Candidate[] {
  const listed = new Set(cursor.siblings);
  return candidates.filter((c) => !listed.has(c.label));
}

/** A Polytoken file without frontmatter: offer the whole block at the top. */
function frontmatterStarter(file: FeatureFile, offset: number, options: CompletionOptions): CompletionItem[] {
  if (file.dialect !== 'polytoken' || file.ctx.file.frontmatter?.kind !== 'none') return [];
  if (file.text.slice(0, offset).includes('\n')) return [];
  const body = `---\nname: ${file.ctx.fileStem}\ndescription: \${1:what it does and when to use it}\npolytoken:\n  tools: [\${2:file_read, glob, grep}]\n---\n$0`;
  return toItems(
    file.ctx.file.source,
    [
      {
        label: 'frontmatter',
        kind: CompletionItemKind.Snippet,
        detail: 'Polytoken subagent frontmatter',
        insert: body,
        snippet: true,
      },
    ],
    0,
    offset,
    options,
  );
}

// ---------------------------------------------------------------------------------------
// Profy (JSON)

function profyCompletions(file: FeatureFile, offset: number, options: CompletionOptions): CompletionItem[] {
  const text = file.text;
  if (!text.trim()) {
    const body = `{\n\t"name": "\${1:${file.ctx.fileStem}}",\n\t"description": "\${2:for humans: the marketplace card}",\n\t"delegationBrief": "\${3:for models: what it accepts and produces}",\n\t"tools": [\${4:"read", "grep", "glob"}],\n\t"subagents": [\n\t\t{\n\t\t\t"name": "\${5:name}",\n\t\t\t"description": "\${6:when to dispatch here}",\n\t\t\t"system_prompt": "\${7:instructions}",\n\t\t\t"tools": [\${8:"read"}]\n\t\t}\n\t]\n}\n`;
    return toItems(
      file.ctx.file.source,
      [
        {
          label: 'expert',
          kind: CompletionItemKind.Snippet,
          detail: 'Profy Expert skeleton',
          insert: body,
          snippet: true,
        },
      ],
      0,
      text.length,
      options,
    );
  }
  let loc: Location;
  try {
    loc = getLocation(text, offset);
  } catch {
    return [];
  }
  const plain = (parseJsonc(text, [], { allowTrailingComma: true }) ?? {}) as Record<string, unknown>;
  const prev = loc.previousNode;
  const inString = prev && prev.type === 'string' && offset > prev.offset && offset <= prev.offset + prev.length;
  let start = offset;
  let end = offset;
  if (inString) {
    start = prev!.offset;
    end = prev!.offset + prev!.length;
  } else {
    while (start > 0 && /[\w$*?-]/.test(text[start - 1])) start--;
    while (end < text.length && /[\w$*?-]/.test(text[end])) end++;
  }
  const path = loc.path;
  const quote = (s: string) => JSON.stringify(s);
  const make = (candidates: Candidate[], asKey: boolean): CompletionItem[] =>
    toItems(file.ctx.file.source, candidates, start, end, options)
      .map((item) => {
        item.filterText = quote(item.label);
        return item;
      })
      .map((item) => {
        if (!asKey && item.insertTextFormat !== InsertTextFormat.Snippet && item.textEdit && 'range' in item.textEdit) {
          item.textEdit.newText = quote(item.textEdit.newText);
        }
        return item;
      });

  if (loc.isAtPropertyKey) {
    const mapPath = path.slice(0, -1);
    const holder = valueAtPath(plain, mapPath);
    const existing = holder && typeof holder === 'object' && !Array.isArray(holder) ? Object.keys(holder) : [];
    const own = inString ? String(prev!.value ?? '') : '';
    const afterText = text.slice(end, end + 40);
    const hasColon = /^\s*:/.test(afterText);
    const docs = keysAt('profy', mapPath).filter((d) => !existing.includes(d.key) || d.key === own);
    const candidates = docs.map((d, i) =>
      keyCandidate(
        'profy',
        mapPath,
        d,
        i,
        hasColon ? quote(d.key) : `${quote(d.key)}: ${d.snippet ?? '$1'}`,
        !hasColon,
      ),
    );
    return make(candidates, true);
  }
  const last = path[path.length - 1];
  const listed = (list: unknown) =>
    new Set(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
  const current = inString ? String(prev!.value ?? '') : '';
  if (typeof last === 'number') {
    const listPath = path.slice(0, -1);
    const already = listed(valueAtPath(plain, listPath));
    already.delete(current);
    if (listPath.length === 1 && listPath[0] === 'tools') {
      const names = file.ctx.catalog.names().filter((n) => !PROFY_RESERVED.has(n) && !already.has(n));
      return make(toolCandidates(file, names), false);
    }
    if (listPath.length === 3 && listPath[0] === 'subagents' && listPath[2] === 'tools' && file.dialect === 'profy') {
      // The model's toolset: the Expert's `tools`, else `profy.mainTools`.
      const candidates = allowlistCandidates(file.model.toolset).filter((c) => !already.has(c.text));
      const out = toolCandidates(
        file,
        candidates.filter((c) => c.kind === 'literal').map((c) => c.text),
        10,
        () => 'main agent tool',
      );
      for (const c of candidates) {
        if (c.kind !== 'glob') continue;
        const server = /^mcp__(.+?)__\*$/.exec(c.text)?.[1];
        const detail = server
          ? `every tool of MCP server ${server} in the main toolset`
          : 'every tool of the main toolset (reserved names excluded)';
        out.push({
          label: c.text,
          kind: CompletionItemKind.Constant,
          detail,
          documentation: expansionLine('Matches now', c.granted, ' of the main toolset'),
          sort: server ? 0 : 1,
        });
      }
      return make(out, false);
    }
    return [];
  }
  if (typeof last === 'string') {
    if (path.length === 1 && last === 'name') {
      // Inserted as written (already quoted), filtered on the quoted text like a key.
      return make(
        [
          {
            label: file.ctx.fileStem,
            kind: CompletionItemKind.Value,
            detail: 'the file name',
            insert: quote(file.ctx.fileStem),
            preselect: true,
          },
        ],
        true,
      );
    }
    const doc = keyDoc('profy', path);
    if (!doc?.values) return [];
    const candidates = doc.values.map((v): Candidate => ({
      label: v,
      kind: CompletionItemKind.Value,
      detail: doc.type,
      insert: v,
    }));
    // Values are JSON literals already: insert them as they are.
    return toItems(file.ctx.file.source, candidates, start, end, options);
  }
  return [];
}

function valueAtPath(root: unknown, path: (string | number)[]): unknown {
  let v = root;
  for (const s of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}
