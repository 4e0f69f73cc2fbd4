/** Text edits on the neutral tree that keep YAML and JSON well-formed. */
import type { Range, TextEdit } from 'vscode-languageserver-types';
import type { ParsedFile } from '../text/document';
import { lineEndingOf } from '../text/source';
import { getValue, isArray, type AstNode } from '../text/tree';

/** The file an edit is made in (a RuleContext is one). */
export interface EditTarget {
  file: ParsedFile;
}

export function rangeOf(target: EditTarget, start: number, end: number): Range {
  return target.file.source.range(start, end);
}

const textOf = (target: EditTarget) => target.file.source.text;

export function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset just after the line's line break (or the text's end). */
export function nextLineStart(text: string, offset: number): number {
  const nl = text.indexOf('\n', offset);
  return nl < 0 ? text.length : nl + 1;
}

export function indentOf(text: string, offset: number): string {
  const start = lineStartOf(text, offset);
  // Stryker disable next-line Regex: without `^`, exec still matches at 0 (`*` matches the empty string there)
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/**
 * The node whose span is exactly [start, end], else the deepest node holding `start`. A key is
 * found by the second search: it is the deepest node holding its own start.
 */
export function nodeForRange(root: AstNode | undefined, start: number, end: number): AstNode | undefined {
  let best: AstNode | undefined;
  const visit = (node: AstNode | undefined): boolean => {
    // Stryker disable next-line ConditionalExpression,EqualityOperator: only prunes; a node that does not hold `start` cannot span [start, end]
    if (!node || start < node.start || start > node.end) return false;
    if (node.start === start && node.end === end) {
      best = node;
      return true;
    }
    for (const p of node.properties ?? []) if (visit(p.value)) return true;
    for (const i of node.items ?? []) if (visit(i)) return true;
    return false;
  };
  if (visit(root)) return best;
  let deepest: AstNode | undefined;
  const dive = (node: AstNode | undefined) => {
    if (!node || start < node.start || start > node.end) return;
    deepest = node;
    for (const p of node.properties ?? []) {
      if (start >= p.keyNode.start && start <= p.keyNode.end) {
        deepest = p.keyNode;
        return;
      }
      dive(p.value);
    }
    for (const i of node.items ?? []) dive(i);
  };
  dive(root);
  return deepest;
}

const isBlank = (s: string) => /^[ \t]*$/.test(s);

/** The `-` of a block list entry: searched before the entry, whose own text may start with `-` (`- -5`). */
const dashOf = (text: string, item: AstNode) => text.lastIndexOf('-', item.start - 1);

/** What goes before the `-` of a new entry beside `item`: spaces up to its dash (`- - a` has an outer dash there). */
function entryIndent(text: string, item: AstNode): string {
  const dash = dashOf(text, item);
  return ' '.repeat(dash - lineStartOf(text, dash));
}

/** Deletes a list entry with its separator: the comma in flow lists and JSON, the whole `- x` line in block lists. */
export function removeItemEdit(file: EditTarget, item: AstNode): TextEdit {
  const list = item.parent!;
  const text = textOf(file);
  const block = file.file.format === 'yaml' && !list.flow;
  if (block) {
    const dash = dashOf(text, item);
    const start = lineStartOf(text, dash);
    if (isBlank(text.slice(start, dash))) {
      const endLine = nextLineStart(text, Math.max(item.end - 1, item.start));
      const single = list.items!.length === 1;
      if (single) {
        // The last entry: leave an empty flow list so the key keeps its type.
        const key = list.property?.keyNode;
        if (key) {
          const colon = text.indexOf(':', key.end);
          return { range: rangeOf(file, colon + 1, endLine), newText: ' []\n' };
        }
      }
      return { range: rangeOf(file, start, endLine), newText: '' };
    }
    // The entry shares its line with an outer list's dash (`- - a`): the next entry moves up in
    // its place, or the list becomes `[]` (deleting only the entry would leave a null one).
    const next = list.items![list.items!.indexOf(item) + 1];
    if (next) return { range: rangeOf(file, item.start, next.start), newText: '' };
    return { range: rangeOf(file, dash, item.end), newText: '[]' };
  }
  const items = list.items!;
  const i = items.indexOf(item);
  if (i < items.length - 1) return { range: rangeOf(file, item.start, items[i + 1].start), newText: '' };
  if (i > 0) {
    const prev = items[i - 1];
    return { range: rangeOf(file, prev.end, item.end), newText: '' };
  }
  return { range: rangeOf(file, item.start, item.end), newText: '' };
}

/** Deletes a key with its value. */
export function removePropertyEdit(file: EditTarget, key: AstNode): TextEdit {
  const prop = key.keyOf!;
  const text = textOf(file);
  const map = prop.parent;
  if (file.file.format === 'json' || map.flow) {
    const props = map.properties!;
    const i = props.indexOf(prop);
    const end = prop.value.end;
    if (i < props.length - 1) return { range: rangeOf(file, key.start, props[i + 1].keyNode.start), newText: '' };
    if (i > 0) return { range: rangeOf(file, props[i - 1].value.end, end), newText: '' };
    return { range: rangeOf(file, key.start, end), newText: '' };
  }
  const start = lineStartOf(text, key.start);
  let valueEnd = Math.max(prop.value.end, key.end);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the key's own last character stops the loop (only an empty key has none)
  while (valueEnd > key.end && /\s/.test(text[valueEnd - 1])) valueEnd--;
  return { range: rangeOf(file, start, nextLineStart(text, valueEnd)), newText: '' };
}

/**
 * A scalar written so that YAML reads it back as this string (test/fix-plans.test.ts holds it
 * for generated strings): a trailing `:` would make a plain scalar a key.
 */
export function yamlScalar(value: string, original?: string): string {
  // Stryker disable next-line Regex: without `^`, a quote inside makes `quote` the first character, which is no quote
  const quote = original && /^["']/.test(original) ? original[0] : undefined;
  if (quote === "'") return `'${value.replace(/'/g, "''")}'`;
  if (quote === '"') return JSON.stringify(value);
  if (
    /^[@`!&*%|>?:,\[\]{}#'"-]|^\s|\s$|: |:$| #|^(true|false|null|yes|no|on|off|~|[-+.\d][\d._eE+-]*)$/i.test(value) ||
    value === ''
  )
    return JSON.stringify(value);
  return value;
}

/**
 * Replaces a value's text, keeping its quoting (YAML) or JSON form. A replacement that is
 * already written as JSON text / a quoted YAML scalar (rules may give it so) is used as is.
 */
export function replaceValueEdit(file: EditTarget, start: number, end: number, value: string): TextEdit {
  const text = textOf(file);
  // A block scalar (`>`, `|`) or collection ends with the line break after it, which stays. A JSON
  // value ends with its last character; `end` never passes `start` (the range clamps it, and slice).
  // Stryker disable next-line ConditionalExpression,EqualityOperator
  if (file.file.format !== 'json') while (end > start && /\s/.test(text[end - 1])) end--;
  const original = text.slice(start, end);
  if (file.file.format === 'json') {
    let newText = value;
    if (/^"/.test(original) && !isJsonText(value)) newText = JSON.stringify(value);
    return { range: rangeOf(file, start, end), newText };
  }
  if (/^(".*"|'.*')$/s.test(value)) return { range: rangeOf(file, start, end), newText: value };
  return { range: rangeOf(file, start, end), newText: yamlScalar(value, original) };
}

function isJsonText(value: string): boolean {
  if (!/^["\[{]/.test(value)) return false;
  try {
    JSON.parse(value);
    return true;
  } catch {
    return false;
  }
}

/** Replaces one list entry by several. */
export function replaceItemWithManyEdit(file: EditTarget, item: AstNode, values: string[]): TextEdit {
  const list = item.parent!;
  const text = textOf(file);
  if (file.file.format === 'json')
    return { range: rangeOf(file, item.start, item.end), newText: values.map((v) => JSON.stringify(v)).join(', ') };
  if (list.flow)
    return { range: rangeOf(file, item.start, item.end), newText: values.map((v) => yamlScalar(v)).join(', ') };
  const indent = entryIndent(text, item);
  return {
    range: rangeOf(file, item.start, item.end),
    newText: values.map((v, i) => (i ? `${indent}- ` : '') + yamlScalar(v)).join('\n'),
  };
}

/** Appends a value to the list at `key` of `mapping` (creating the key when missing); undefined where there is no place. */
export function appendToListEdit(
  file: EditTarget,
  mapping: AstNode | undefined,
  key: string,
  value: string,
): TextEdit | undefined {
  const text = textOf(file);
  const list = getValue(mapping, key);
  const json = file.file.format === 'json';
  const scalar = json ? JSON.stringify(value) : yamlScalar(value);
  if (isArray(list)) {
    // A list copied through an alias (`tools: *base`) has no text of its own to append to.
    if (list.viaAlias) return undefined;
    const items = list.items;
    if (json || list.flow) {
      if (!items.length) {
        const close = text.lastIndexOf(']', list.end);
        return { range: rangeOf(file, close, close), newText: scalar };
      }
      const last = items[items.length - 1];
      return { range: rangeOf(file, last.end, last.end), newText: `, ${scalar}` };
    }
    const last = items[items.length - 1];
    const indent = entryIndent(text, last);
    const at = nextLineStart(text, Math.max(last.end - 1, last.start));
    const nl = at === text.length && !text.endsWith('\n') ? '\n' : '';
    return { range: rangeOf(file, at, at), newText: `${nl}${indent}- ${scalar}\n` };
  }
  if (list && list.kind !== 'null') return undefined;
  if (list && list.property) return afterColonEdit(file, list.property.keyNode, ` [${scalar}]`); // `key:` with no value
  if (!mapping || json) return undefined;
  return insertKeyLinesEdit(file, mapping, [`${key}: [${scalar}]`]);
}

/**
 * Where YAML that reads as null is written (`~`, `null`, an anchor or tag with no value), past the
 * comments before it; undefined when nothing is (empty, or comments only). An edit that adds keys
 * must replace it: a mapping written before or after it would not be YAML.
 */
export function writtenNull(target: EditTarget): { start: number; end: number } | undefined {
  const root = target.file.root;
  if (root?.kind !== 'null') return undefined;
  const text = textOf(target);
  let start = target.file.yamlRegions[0]?.start ?? root.start;
  while (start < root.end) {
    if (text[start] === '#') start = text.indexOf('\n', start) + 1 || root.end;
    else if (/\s/.test(text[start])) start++;
    else break;
  }
  return start < root.end ? { start, end: root.end } : undefined;
}

/** Inserts text right after the colon of a key (one with no value yet). */
export function afterColonEdit(file: EditTarget, keyNode: AstNode, newText: string): TextEdit {
  const colon = textOf(file).indexOf(':', keyNode.end);
  return { range: rangeOf(file, colon + 1, colon + 1), newText };
}

/** Inserts `key: value` lines at the end of a block mapping, at its keys' indentation. */
export function insertKeyLinesEdit(file: EditTarget, mapping: AstNode, lines: string[]): TextEdit | undefined {
  const text = textOf(file);
  const props = mapping.properties ?? [];
  // A mapping copied through an alias (`k: *base`) has no lines of its own to add to.
  if (mapping.flow || mapping.viaAlias) return undefined;
  if (!props.length) {
    const at = mapping.start;
    const indent = indentOf(text, at);
    // A mapping with no keys of its own still has text (a merge key), which goes on the next line.
    return {
      range: rangeOf(file, at, at),
      newText: lines.map((l, i) => (i ? indent : '') + l).join('\n') + '\n' + indent,
    };
  }
  const first = props[0].keyNode;
  const indent = text.slice(lineStartOf(text, first.start), first.start);
  const last = props[props.length - 1];
  let end = Math.max(last.value.end, last.keyNode.end);
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the key's own last character stops the loop (only an empty key has none)
  while (end > last.keyNode.end && /\s/.test(text[end - 1])) end--;
  const at = nextLineStart(text, end);
  const nl = at === text.length && !text.endsWith('\n') ? '\n' : '';
  return { range: rangeOf(file, at, at), newText: nl + lines.map((l) => `${indent}${l}\n`).join('') };
}

/** Adds `"key": value` (JSON text) as the last property of a JSON object, in its layout. */
export function insertJsonPropertyEdit(file: EditTarget, object: AstNode, key: string, valueJson: string): TextEdit {
  const text = textOf(file);
  const props = object.properties ?? [];
  const entry = `${JSON.stringify(key)}: ${valueJson}`;
  if (!props.length) return { range: rangeOf(file, object.start + 1, object.start + 1), newText: ` ${entry} ` };
  const last = props[props.length - 1];
  // The last key on a line of its own (so the object spans several lines): the new one goes on the next line.
  if (isBlank(text.slice(lineStartOf(text, last.keyNode.start), last.keyNode.start))) {
    return {
      range: rangeOf(file, last.value.end, last.value.end),
      newText: `,\n${indentOf(text, last.keyNode.start)}${entry}`,
    };
  }
  return { range: rangeOf(file, last.value.end, last.value.end), newText: `, ${entry}` };
}

/**
 * The edits with every line break they insert written as the file writes its own (fixes build
 * their text with `\n`): a fix never leaves a CRLF file with mixed line endings.
 */
export function inLineEndingOf<E extends { newText: string }>(text: string, edits: readonly E[]): E[] {
  const eol = lineEndingOf(text);
  if (eol === '\n') return edits.slice();
  // Stryker disable next-line StringLiteral: the test only spares copying the edits without a line break
  return edits.map((e) => (e.newText.includes('\n') ? { ...e, newText: e.newText.replace(/\r?\n/g, eol) } : e));
}

/** One edit that turns `before` into `after`: the span between their common prefix and suffix. */
export function minimalEdit(
  doc: { positionAt(offset: number): { line: number; character: number } },
  before: string,
  after: string,
): TextEdit {
  let start = 0;
  const max = Math.min(before.length, after.length);
  while (start < max && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let end = 0;
  while (end < max - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end))
    end++;
  return {
    range: { start: doc.positionAt(start), end: doc.positionAt(before.length - end) },
    newText: after.slice(start, after.length - end),
  };
}
