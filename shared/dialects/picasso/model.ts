/**
 * One reading of a Picasso role file, built once per analysis: its mapping, name, invocation,
 * memory scope, every tool entry with the catalog's verdict and what removes it, and the one
 * name every name fix agrees on. Rules, resolution and editor features read this model.
 */
import { extname } from 'path';
import type { RuleContext } from '../../types';
import { getValue, isObject, isString, stringItems, type AstNode, type AstProperty } from '../../text/tree';
import { NAME_PATTERN } from './constants';
import { memoryDenials, toolVerdict, type PicassoListKey } from './tools';

export type ObjectNode = AstNode & { properties: AstProperty[] };

export interface PicassoToolEntry {
  list: PicassoListKey;
  node: AstNode;
  text: string;
  known: boolean;
  /** The nearest catalog name, for an unknown entry. */
  near?: string;
  /** `tools` entries the runtime takes away again: by `deny` (first), or by the memory scope. */
  removedBy?: 'deny' | 'memory';
  /** A `tools` entry the memory scope refuses (picasso/memory-conflict), also when `deny` removes it first. */
  refusedByMemory?: boolean;
}

export interface StringValue {
  value: string;
  node: AstNode;
}

export interface PicassoModel {
  dialect: 'picasso';
  /** The role mapping, when the document is one. */
  root?: ObjectNode;
  name?: StringValue;
  invocation?: StringValue;
  memory?: StringValue;
  /** What the memory scope refuses; undefined when `memory` is absent or not a scope. */
  memoryDenies?: readonly string[];
  entries: Record<PicassoListKey, PicassoToolEntry[]>;
  /**
   * The name the role's name fixes agree on: the file name when it is a valid name, else
   * `name` when it is one, else `name` in snake_case; undefined when none is valid.
   */
  targetName?: string;
  /** The file's extension (`.yaml`, `.yml`, `.md`), for the rename fix. */
  extension: string;
}

function stringValue(root: AstNode | undefined, key: string): StringValue | undefined {
  const v = getValue(root, key);
  return isString(v) ? { value: v.value, node: v } : undefined;
}

export function buildPicassoModel(ctx: RuleContext<undefined>): PicassoModel {
  const root = isObject(ctx.file.root) ? ctx.file.root : undefined;
  const memory = stringValue(root, 'memory');
  const memoryDenies = memoryDenials(memory?.value);
  const denied = new Set(stringItems(getValue(root, 'deny')).map((i) => i.value));
  // Stryker disable next-line ArrayDeclaration: only a tool named like the planted entry would be refused
  const refused = new Set(memoryDenies ?? []);
  const entriesOf = (list: PicassoListKey): PicassoToolEntry[] =>
    stringItems(getValue(root, list)).map(({ value, node }) => {
      const verdict = toolVerdict(value, ctx.catalog);
      const entry: PicassoToolEntry = { list, node, text: value, known: verdict.known };
      if (!verdict.known && verdict.near) entry.near = verdict.near;
      if (list === 'tools' && refused.has(value)) entry.refusedByMemory = true;
      if (list === 'tools' && denied.has(value)) entry.removedBy = 'deny';
      else if (entry.refusedByMemory) entry.removedBy = 'memory';
      return entry;
    });
  const name = stringValue(root, 'name');
  return {
    dialect: 'picasso',
    root,
    name,
    invocation: stringValue(root, 'invocation'),
    memory,
    memoryDenies,
    entries: { tools: entriesOf('tools'), deny: entriesOf('deny') },
    targetName: targetName(name?.value, ctx.fileStem),
    extension: extname(ctx.path),
  };
}

/** See PicassoModel.targetName. */
export function targetName(name: string | undefined, stem: string): string | undefined {
  if (NAME_PATTERN.test(stem)) return stem;
  // Stryker disable next-line ConditionalExpression: a shortcut; a name the pattern accepts is its own snake case
  if (name !== undefined && NAME_PATTERN.test(name)) return name;
  for (const source of [name, stem]) {
    const snake = source !== undefined ? faithfulSnakeCase(source) : undefined;
    if (snake) return snake;
  }
  return undefined;
}

/**
 * `source` in snake_case when that changes only case and separators (`DocWriter`, `doc-writer`);
 * undefined when it would drop characters (`2fa_checker` is not `fa_checker`).
 */
function faithfulSnakeCase(source: string): string | undefined {
  const snake = snakeCase(source);
  // Every letter and digit, any script: `Ünïcode` is not `n_code`.
  // Stryker disable next-line MethodExpression: upper case compares as lower case does
  const letters = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
  return NAME_PATTERN.test(snake) && letters(snake) === letters(source) ? snake : undefined;
}

/** Turns `SecurityAuditor`, `security-auditor` or `Security Auditor` into `security_auditor`. */
export function snakeCase(text: string): string {
  // One statement per step: Stryker reads a disable comment only where it leads a statement.
  let out = text.replace(/([a-z0-9])([A-Z])/g, '$1_$2');
  // Stryker disable next-line Regex: the capitals before the last one are kept as they are either way
  out = out.replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2');
  out = out.toLowerCase().replace(/[^a-z0-9]+/g, '_');
  // Stryker disable next-line Regex: the line above leaves no two underscores in a row
  out = out.replace(/^_+|_+$/g, '');
  return out.replace(/^[0-9_]+/, '');
}

/** The model entry whose node is this one. */
export function picassoEntryAt(model: PicassoModel, node: AstNode): PicassoToolEntry | undefined {
  for (const list of Object.values(model.entries)) for (const e of list) if (e.node === node) return e;
  return undefined;
}
