/**
 * Completion in a Profy Expert (JSON): the skeleton in an empty file, keys by path, the Expert's
 * toolset from the catalog, a subagent's allowlist from the main toolset (names and globs),
 * `name` and the values the key documentation lists. Everything inserted is JSON text.
 */
import { getLocation, parse as parseJsonc, type Location } from 'jsonc-parser';
import { CompletionItemKind, InsertTextFormat, type CompletionItem } from 'vscode-languageserver-types';
import { keyCandidate, toolCandidates } from '../../../features/kit/candidates';
import { toItems, type Candidate, type CompletionOptions } from '../../../features/kit/completion-items';
import { keyDocOf, keysUnder } from '../../../features/kit/keys';
import { expansionLine } from '../../../features/kit/tool-lines';
import type { FeatureFile } from '../../module';
import { PROFY_RESERVED } from '../builtins';
import type { ExpertModel } from '../model';
import { allowlistCandidates } from '../tools';

type ProfyFile = FeatureFile<ExpertModel>;

/** Where the cursor is in the JSON text: its path, the word to replace, and the parse as plain values. */
interface JsonAt {
  file: ProfyFile;
  loc: Location;
  plain: Record<string, unknown>;
  /** The cursor is inside a string token or a quoted key (its text, quotes excluded, is `current`). */
  inString: boolean;
  current: string;
  start: number;
  end: number;
  options: CompletionOptions;
}

export function profyCompletions(file: ProfyFile, offset: number, options: CompletionOptions): CompletionItem[] {
  const text = file.text;
  if (!text.trim()) {
    const expert: Candidate = {
      label: 'expert',
      kind: CompletionItemKind.Snippet,
      detail: 'Profy Expert skeleton',
      insert: profySkeleton(file.ctx.fileStem),
      snippet: true,
    };
    return toItems(file.ctx.file.source, [expert], 0, text.length, options);
  }
  const at = jsonAt(file, offset, options);
  if (!at) return [];
  if (at.loc.isAtPropertyKey) return keyItems(at);
  const path = at.loc.path;
  const last = path[path.length - 1];
  if (typeof last === 'number') return listItems(at);
  if (typeof last === 'string') return valueItems(at);
  return [];
}

function jsonAt(file: ProfyFile, offset: number, options: CompletionOptions): JsonAt | undefined {
  const text = file.text;
  let loc: Location;
  try {
    loc = getLocation(text, offset);
  } catch {
    return undefined;
  }
  const plain = (parseJsonc(text, [], { allowTrailingComma: true }) ?? {}) as Record<string, unknown>;
  const prev = loc.previousNode;
  // A key in quotes is a `property` node: it is replaced quotes and all, like a string value.
  const quoted = !!prev && (prev.type === 'string' || prev.type === 'property');
  const inString = quoted && offset > prev.offset && offset <= prev.offset + prev.length;
  let start = offset;
  let end = offset;
  if (inString) {
    start = prev!.offset;
    end = prev!.offset + prev!.length;
  } else {
    while (start > 0 && /[\w$*?-]/.test(text[start - 1])) start--;
    while (end < text.length && /[\w$*?-]/.test(text[end])) end++;
  }
  const current = inString ? String(prev!.value ?? '') : '';
  return { file, loc, plain, inString, current, start, end, options };
}

const quote = (s: string) => JSON.stringify(s);

/** Items replacing the word, filtered on its quoted text; values other than snippets are inserted quoted. */
function make(at: JsonAt, candidates: Candidate[], asKey: boolean): CompletionItem[] {
  return toItems(at.file.ctx.file.source, candidates, at.start, at.end, at.options)
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
}

function valueAtPath(root: unknown, path: (string | number)[]): unknown {
  let v = root;
  for (const s of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<string | number, unknown>)[s];
  }
  return v;
}

/** The keys of the object at the cursor not there yet (the one being written included). */
function keyItems(at: JsonAt): CompletionItem[] {
  const { file, loc, plain } = at;
  const mapPath = loc.path.slice(0, -1);
  const holder = valueAtPath(plain, mapPath);
  const existing = holder && typeof holder === 'object' && !Array.isArray(holder) ? Object.keys(holder) : [];
  const own = at.inString ? at.current : '';
  const hasColon = /^\s*:/.test(file.text.slice(at.end, at.end + 40));
  const docs = keysUnder(file.module, mapPath).filter((d) => !existing.includes(d.key) || d.key === own);
  const candidates = docs.map((d, i) =>
    keyCandidate(
      file.module,
      mapPath,
      d,
      i,
      hasColon ? quote(d.key) : `${quote(d.key)}: ${d.snippet ?? '$1'}`,
      !hasColon,
    ),
  );
  return make(at, candidates, true);
}

/** An entry of the Expert's `tools` (the catalog) or of a subagent's allowlist (the main toolset). */
function listItems(at: JsonAt): CompletionItem[] {
  const { file, loc, plain } = at;
  const listPath = loc.path.slice(0, -1);
  const list = valueAtPath(plain, listPath);
  const already = new Set(Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string') : []);
  already.delete(at.current);
  if (listPath.length === 1 && listPath[0] === 'tools') {
    const names = file.ctx.catalog.names().filter((n) => !PROFY_RESERVED.has(n) && !already.has(n));
    return make(at, toolCandidates(file, names), false);
  }
  if (!(listPath.length === 3 && listPath[0] === 'subagents' && listPath[2] === 'tools')) return [];
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
  return make(at, out, false);
}

/** The Expert's `name` (the file's stem), or a value its key documentation lists. */
function valueItems(at: JsonAt): CompletionItem[] {
  const { file, loc } = at;
  const path = loc.path;
  if (path.length === 1 && path[0] === 'name') {
    const stem = file.ctx.fileStem;
    // Inserted as written (already quoted), filtered on the quoted text like a key.
    const candidate: Candidate = {
      label: stem,
      kind: CompletionItemKind.Value,
      detail: 'the file name',
      insert: quote(stem),
      preselect: true,
    };
    return make(at, [candidate], true);
  }
  const doc = keyDocOf(file.module, path);
  if (!doc?.values) return [];
  const candidates = doc.values.map((v): Candidate => ({
    label: v,
    kind: CompletionItemKind.Value,
    detail: doc.type,
    insert: v,
  }));
  // Values are JSON literals already: insert them as they are.
  return toItems(file.ctx.file.source, candidates, at.start, at.end, at.options);
}

/** A new Expert with one subagent, as JSON with tab indentation. */
export function profySkeleton(name: string): string {
  return `{\n\t"name": "\${1:${name}}",\n\t"description": "\${2:for humans: the marketplace card}",\n\t"delegationBrief": "\${3:for models: what it accepts and produces}",\n\t"tools": [\${4:"read", "grep", "glob"}],\n\t"subagents": [\n\t\t{\n\t\t\t"name": "\${5:name}",\n\t\t\t"description": "\${6:when to dispatch here}",\n\t\t\t"system_prompt": "\${7:instructions}",\n\t\t\t"tools": [\${8:"read"}]\n\t\t}\n\t]\n}\n`;
}
