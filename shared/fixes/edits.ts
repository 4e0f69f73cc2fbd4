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
  return /^[ \t]*/.exec(text.slice(start))![0];
}

/** The node whose span is exactly [start, end], else the deepest node holding `start`. */
export function nodeForRange(root: AstNode | undefined, start: number, end: number): AstNode | undefined {
  let best: AstNode | undefined;
  const visit = (node: AstNode | undefined): boolean => {
    if (!node || start < node.start || start > node.end) return false;
    if (node.start === start && node.end === end) {
      best = node;
      return true;
    }
    for (const p of node.properties ?? []) {
      if (p.keyNode.start === start && p.keyNode.end === end) {
        best = p.keyNode;
        return true;
      }
      if (visit(p.value)) return true;
    }
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

/** Deletes a list entry with its separator: the comma in flow lists and JSON, the whole `- x` line in block lists. */
export function removeItemEdit(file: EditTarget, item: AstNode): TextEdit {
  const list = item.parent!;
  const text = textOf(file);
  const block = file.file.format === 'yaml' && !list.flow;
  if (block) {
    const dash = text.lastIndexOf('-', item.start);
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
    return { range: rangeOf(file, item.start, item.end), newText: '' };
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
  while (valueEnd > key.end && /\s/.test(text[valueEnd - 1])) valueEnd--;
  return { range: rangeOf(file, start, nextLineStart(text, valueEnd)), newText: '' };
}

/**
 * A scalar written so that YAML reads it back as this string (test/fix-plans.test.ts holds it
 * for generated strings): a trailing `:` would make a plain scalar a key.
 */
export function yamlScalar(value: string, original?: string): string {
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
  // A block scalar (`>`, `|`) or collection ends with the line break after it, which stays.
  if (file.file.format !== 'json') while (end > start && /\s/.test(text[end - 1])) end--;
  const original = text.slice(start, end);
  if (file.file.format === 'json') {
    let newText = value;
    if (/^"/.test(original) && !isJsonText(value)) newText = JSON.stringify(value);
    return { range: rangeOf(file, start, end), newText };
  }
  if (/^(".*"|'.*')$/s.test(value) && value.length >= 2) return { range: rangeOf(file, start, end), newText: value };
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
  const dash = text.lastIndexOf('-', item.start);
  const indent = text.slice(lineStartOf(text, dash), dash);
  return {
    range: rangeOf(file, item.start, item.end),
    newText: values.map((v, i) => (i ? `${indent}- ` : '') + yamlScalar(v)).join('\n'),
  };
}

/** Appends a value to the list at `key` of `mapping` (creating the key when missing). */
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
    const dash = text.lastIndexOf('-', last.start);
    const indent = text.slice(lineStartOf(text, dash), dash);
    const at = nextLineStart(text, Math.max(last.end - 1, last.start));
    const nl = at === text.length && !text.endsWith('\n') ? '\n' : '';
    return { range: rangeOf(file, at, at), newText: `${nl}${indent}- ${scalar}\n` };
  }
  if (list && list.kind !== 'null') return undefined;
  if (list && list.property) return afterColonEdit(file, list.property.keyNode, ` [${scalar}]`); // `key:` with no value
  if (!mapping || json) return undefined;
  return insertKeyLinesEdit(file, mapping, [`${key}: [${scalar}]`]);
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
  if (mapping.flow) return undefined;
  if (!props.length) {
    const at = mapping.start;
    const indent = indentOf(text, at);
    return {
      range: rangeOf(file, at, at),
      newText: lines.map((l, i) => (i ? indent : '') + l).join('\n') + '\n' + (at < text.length ? indent : ''),
    };
  }
  const first = props[0].keyNode;
  const indent = text.slice(lineStartOf(text, first.start), first.start);
  const last = props[props.length - 1];
  let end = Math.max(last.value.end, last.keyNode.end);
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
  const multiLine = text.slice(object.start, object.end).includes('\n');
  if (multiLine && text.slice(lineStartOf(text, last.keyNode.start), last.keyNode.start).trim() === '') {
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
  return eol === '\n'
    ? edits.slice()
    : edits.map((e) => (e.newText.includes('\n') ? { ...e, newText: e.newText.replace(/\r?\n/g, eol) } : e));
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
