/**
 * Quick fixes of `config/invalid`, read from the finding's data: rename an unknown key or rule id
 * to the one it is closest to, correct a misspelled severity, or remove a setting that has no
 * effect. Registered for the rule id like every rule's fixes (shared/fixes/registry.ts).
 */
import type { Diagnostic } from 'vscode-languageserver-types';
import type { FixPlan } from '../types';
import type { ConfigDocument } from './config';
import { nodeForRange, removePropertyEdit, replaceValueEdit } from '../fixes/edits';
import { getProperty } from '../text/tree';

export function configFixPlans(doc: ConfigDocument, diagnostic: Diagnostic): FixPlan[] {
  const data = (diagnostic.data ?? {}) as Record<string, unknown>;
  const source = doc.file.source;
  const start = source.offset(diagnostic.range.start);
  const end = source.offset(diagnostic.range.end);
  const node = nodeForRange(doc.file.root, start, end);
  // Only a finding on a node of its own, and never through an alias (the edit would rewrite `*ref`).
  if (!node || node.start !== start || node.end !== end || node.viaAlias) return [];
  const target = { file: doc.file };
  const out: FixPlan[] = [];
  const replacement = typeof data.replacement === 'string' ? data.replacement : undefined;
  if (replacement !== undefined && node.keyOf) {
    // Onto a key the mapping already has, a rename would make a duplicate key: merging is the author's call.
    if (!getProperty(node.keyOf.parent, replacement)) out.push({ title: `Rename to \`${replacement}\``, edits: [replaceValueEdit(target, start, end, replacement)], preferred: true });
  } else if (replacement !== undefined && (node.kind === 'string' || node.kind === 'number')) {
    // A severity is plain text to this YAML 1.2 reader (`off` included): written as it reads, unless quoted already.
    const quoted = /^["']/.test(source.text.slice(start, end));
    const edit = quoted ? replaceValueEdit(target, start, end, replacement) : { range: diagnostic.range, newText: replacement };
    out.push({ title: `Change to \`${replacement}\``, edits: [edit], preferred: true });
  }
  if (data.removable && node.keyOf) out.push({ title: `Remove \`${node.keyOf.key}\``, edits: [removePropertyEdit(target, node)] });
  return out;
}
