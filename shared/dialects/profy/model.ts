/**
 * One reading of an Expert file, built once per analysis and shared by every Profy rule, the
 * resolution and the editor features, so that they never disagree about why a subagent is
 * dropped or what an entry grants.
 */
import type { DroppedEntry, RemovedTool, RuleContext } from '../../types';
import { getProperty, isArray, isObject, isString, type AstNode, type AstProperty } from '../../text/tree';
import { FORBIDDEN_NAME_CHARS, REQUIRED_SUBAGENT_FIELDS, RESERVED_NAMES } from './constants';
import { allowlistEntry, GLOB_MATCH_BUDGET, mainToolset, type AllowlistEntry, type Toolset } from './tools';
import type { MatchBudget } from './glob';
import { profySettings } from './settings';

export type { AllowlistEntry, Toolset } from './tools';

export type FieldProblem = { field: string; node?: AstNode; why: 'missing' | 'empty' | 'not-a-string' };

export type DuplicateOf = { builtin: string } | { subagent: SubagentModel };

export interface SubagentModel {
  index: number;
  node: AstNode;
  isObject: boolean;
  /** The name when it is a non-empty string, else `#<index>`. */
  label: string;
  name?: string;
  nameNode?: AstNode;
  fieldProblems: FieldProblem[];
  /** The offending characters of the name (white space shown as words). */
  badNameChars: string[];
  reservedName: boolean;
  toolsProp?: AstProperty;
  toolsNotArray: boolean;
  entries: AllowlistEntry[];
  /** Resolution (meaningful when the toolset is known). */
  tools: string[];
  provenance: Record<string, string[]>;
  removed: RemovedTool[];
  dropped: DroppedEntry[];
  /** Unknown toolset: at least one entry could still resolve to a tool. */
  mayResolve: boolean;
  noTools: boolean;
  duplicateOf?: DuplicateOf;
  /** The drop rules that fire for this subagent, in the order docs/runtimes/profy.md lists them. */
  dropReasons: string[];
}

export interface ExpertModel {
  dialect: 'profy';
  root?: AstNode;
  /** The root when it is an object. */
  expert?: AstNode;
  toolset: Toolset;
  subagentsNode?: AstNode;
  subagents: SubagentModel[];
}

export function buildExpertModel(ctx: RuleContext<undefined>): ExpertModel {
  const root = ctx.file.root;
  const expert = isObject(root) ? root : undefined;
  const settings = profySettings(ctx.config);
  const toolset = mainToolset(expert, settings.mainTools);
  const subagentsNode = getProperty(expert, 'subagents')?.value;
  const budget = { left: GLOB_MATCH_BUDGET };
  const subagents = isArray(subagentsNode)
    ? subagentsNode.items.map((node, index) => subagentModel(node, index, toolset, budget))
    : [];

  // First wins; the platform's builtin subagents come before the file's own. The configuration's reader keeps
  // `builtinSubagents` a list of strings, and setting a name again sets the same value.
  // Stryker disable ArrayDeclaration,ConditionalExpression,LogicalOperator: see above
  const builtins = Array.isArray(settings.builtinSubagents) ? settings.builtinSubagents : [];
  const first = new Map<string, DuplicateOf>();
  for (const b of builtins) if (typeof b === 'string' && !first.has(b)) first.set(b, { builtin: b });
  // Stryker restore ArrayDeclaration,ConditionalExpression,LogicalOperator
  for (const s of subagents) {
    if (s.name === undefined) continue;
    const earlier = first.get(s.name);
    // A name that is reserved or malformed has its own drop rule; a duplicate on top would be noise.
    if (earlier && !s.reservedName && !s.badNameChars.length) s.duplicateOf = earlier;
    if (!earlier) first.set(s.name, { subagent: s });
  }
  for (const s of subagents) s.dropReasons = dropReasons(s);
  return { dialect: 'profy', root, expert, toolset, subagentsNode, subagents };
}

function subagentModel(node: AstNode, index: number, toolset: Toolset, budget: MatchBudget): SubagentModel {
  const s: SubagentModel = {
    index,
    node,
    isObject: isObject(node),
    label: `#${index}`,
    fieldProblems: [],
    badNameChars: [],
    reservedName: false,
    toolsNotArray: false,
    entries: [],
    tools: [],
    provenance: {},
    removed: [],
    dropped: [],
    mayResolve: false,
    noTools: false,
    // Stryker disable next-line ArrayDeclaration: buildExpertModel sets every subagent's reasons
    dropReasons: [],
  };
  if (!isObject(node)) return s;

  for (const field of REQUIRED_SUBAGENT_FIELDS) {
    const value = getProperty(node, field)?.value;
    if (!value) s.fieldProblems.push({ field, why: 'missing' });
    else if (!isString(value)) s.fieldProblems.push({ field, node: value, why: 'not-a-string' });
    else if (value.value === '') s.fieldProblems.push({ field, node: value, why: 'empty' });
  }
  const nameNode = getProperty(node, 'name')?.value;
  if (isString(nameNode) && nameNode.value !== '') {
    s.name = nameNode.value;
    s.nameNode = nameNode;
    s.label = nameNode.value;
    s.badNameChars = badNameChars(nameNode.value);
    s.reservedName = RESERVED_NAMES.has(nameNode.value);
  }

  s.toolsProp = getProperty(node, 'tools');
  const toolsNode = s.toolsProp?.value;
  if (s.toolsProp && !isArray(toolsNode)) {
    s.toolsNotArray = true;
    return s;
  }
  s.entries = isArray(toolsNode) ? toolsNode.items.map((item) => allowlistEntry(item, toolset, budget)) : [];
  resolveEntries(s, toolset);
  return s;
}

function resolveEntries(s: SubagentModel, toolset: Toolset): void {
  const granted = new Set<string>();
  const removed = new Set<string>();
  // A Map, not an object literal: tool names such as `__proto__` are plain text here.
  const provenance = new Map<string, string[]>();
  for (const e of s.entries) {
    if (e.kind === 'reserved') removed.add(e.text!);
    for (const t of e.reservedMatches) removed.add(t);
    for (const t of e.granted) {
      granted.add(t);
      const from = provenance.get(t) ?? [];
      from.push(`tools: ${e.text}`);
      provenance.set(t, from);
    }
    if (e.kind === 'not-a-string')
      s.dropped.push({ entry: JSON.stringify(plainOf(e.node)) ?? String(e.node.kind), reason: 'not a string' });
    else if (e.unresolved)
      s.dropped.push({
        entry: e.text!,
        reason:
          e.kind === 'glob'
            ? e.reservedMatches.length
              ? 'the glob matches only reserved tools'
              : 'the glob matches no tool of the main toolset'
            : 'not in the main toolset',
      });
    if (e.unchecked) s.mayResolve = true;
  }
  s.tools = [...granted].sort();
  s.provenance = Object.fromEntries(provenance);
  s.removed = [...removed].map((tool) => ({ tool, by: 'reserved' }));
  s.noTools = granted.size === 0 && !s.mayResolve;
}

function plainOf(node: AstNode): unknown {
  if (node.kind === 'object') return {};
  if (node.kind === 'array') return [];
  return node.value ?? null;
}

function dropReasons(s: SubagentModel): string[] {
  if (!s.isObject) return ['profy/not-an-object'];
  const out: string[] = [];
  if (s.fieldProblems.length) out.push('profy/missing-field');
  if (s.badNameChars.length) out.push('profy/invalid-name');
  if (s.reservedName) out.push('profy/reserved-name');
  if (s.toolsNotArray) out.push('profy/tools-not-array');
  if (s.noTools) out.push('profy/no-tools');
  if (s.duplicateOf) out.push('profy/duplicate-name');
  return out;
}

const WHITESPACE_WORDS: Record<string, string> = {
  ' ': 'a space',
  '\t': 'a tab',
  '\n': 'a line break',
  '\r': 'a carriage return',
};

/**
 * White space as the runtime's Python `str.isspace()` sees it (the runtime is Python): not
 * JavaScript's `\s`, which also holds U+FEFF and leaves out U+001C–U+001F and U+0085.
 */
const PYTHON_SPACE = /[\u0009-\u000d\u001c-\u0020\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/u;
export const isPythonSpace = (ch: string): boolean => PYTHON_SPACE.test(ch);

/** The characters that make a name invalid, described for a message (unique, in order). */
export function badNameChars(name: string): string[] {
  const out: string[] = [];
  for (const ch of name) {
    let word: string | undefined;
    if (isPythonSpace(ch))
      word =
        WHITESPACE_WORDS[ch] ?? `white space (U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')})`;
    else if ((FORBIDDEN_NAME_CHARS as readonly string[]).includes(ch)) word = `\`${ch}\``;
    if (word && !out.includes(word)) out.push(word);
  }
  return out;
}

/** The name with every white space run and forbidden character turned into `_`. */
export function sanitizedName(name: string): string {
  const forbidden = new Set<string>(FORBIDDEN_NAME_CHARS);
  let out = '';
  for (const ch of name) out += isPythonSpace(ch) || forbidden.has(ch) ? '_' : ch;
  return out.replace(/_+/g, '_').replace(/^_|_$/g, '');
}

/** "a number", "a list", … for messages about a node's type. */
export function kindWord(node: AstNode): string {
  const words: Record<string, string> = {
    object: 'an object',
    array: 'a list',
    string: 'a string',
    number: 'a number',
    boolean: 'a boolean',
    null: 'null',
    unknown: 'an unreadable value',
  };
  return words[node.kind] ?? node.kind;
}

export const SKIPPED =
  'Profy skips this subagent without raising any error (publishing still succeeds, the subagent just never exists)';

/** The allowlist entry (and its subagent) whose node is this one. */
export function allowlistEntryAt(model: ExpertModel, node: AstNode): AllowlistEntry | undefined {
  for (const s of model.subagents) for (const e of s.entries) if (e.node === node) return e;
  return undefined;
}
