/**
 * Building blocks of quick fixes, shared by every dialect's rules. A rule registers its fixes
 * beside its check (`Rule.fixes`, keyed by full rule id); these helpers only turn a decision
 * ("replace this node with X", "remove this entry") into well-formed edits.
 */
import type { TextEdit } from 'vscode-languageserver-types';
import type { FixPlan, FixRequest, FixTarget } from '../types';
import { isString, type AstNode } from '../text/tree';
import { rangeOf, removeItemEdit, removePropertyEdit, replaceValueEdit, writtenNull, type EditTarget } from './edits';
import { snippetText } from '../features/kit/completion-items';

export const dataString = (req: FixTarget, key: string): string | undefined =>
  typeof req.data[key] === 'string' ? (req.data[key] as string) : undefined;

/** Replaces the diagnostic's range (a string node keeps its quoting). */
export function replaceEdit(req: FixTarget, value: string): TextEdit {
  const node = req.node;
  if (node && node.start === req.start && node.end === req.end && node.kind === 'string')
    return replaceValueEdit(req.ctx, req.start, req.end, value);
  return { range: rangeOf(req.ctx, req.start, req.end), newText: value };
}

/** "Rename to X" on a key, "Change to X" elsewhere. */
export function replaceFix(req: FixTarget, value: string, preferred = true): FixPlan {
  const title = req.node?.keyOf ? `Rename to \`${unquoteJson(value)}\`` : `Change to \`${unquoteJson(value)}\``;
  return { title, edits: [replaceEdit(req, value)], preferred };
}

/** Removes a key with its value, a list entry, or the property a value belongs to. */
export function removeFix(
  req: FixTarget,
  node: AstNode | undefined = req.node,
  preferred = false,
): FixPlan | undefined {
  // A value copied through an alias has the alias's span: deleting it would delete `*name` itself.
  if (!node || node.viaAlias) return undefined;
  if (node.keyOf)
    return { title: `Remove \`${node.keyOf.key}\``, edits: [removePropertyEdit(req.ctx, node)], preferred };
  if (node.parent?.kind === 'array') {
    // A blank string is named as written (`""`): an empty label would read "Remove `` from `skip`".
    const label =
      isString(node) && node.value.trim() ? node.value : req.ctx.file.source.text.slice(node.start, node.end);
    const list = node.parent.property?.key;
    return {
      title: `Remove \`${label}\`${list ? ` from \`${list}\`` : ''}`,
      edits: [removeItemEdit(req.ctx, node)],
      preferred,
    };
  }
  if (node.property)
    return {
      title: `Remove \`${node.property.key}\``,
      edits: [removePropertyEdit(req.ctx, node.property.keyNode)],
      preferred,
    };
  return undefined;
}

/**
 * The fixes most rules need, read from the finding's data: `suggestions` (each a change, the
 * first preferred), else `replacement` (preferred), and `removable` (a removal, preferred only
 * when nothing else is offered and `removePreferred` says so).
 */
export function standardFixes(req: FixTarget, options: { removePreferred?: boolean } = {}): FixPlan[] {
  const out: FixPlan[] = [];
  const suggestions = Array.isArray(req.data.suggestions)
    ? req.data.suggestions.filter((s): s is string => typeof s === 'string')
    : [];
  const replacement = dataString(req, 'replacement');
  if (suggestions.length) suggestions.forEach((s, i) => out.push({ ...replaceFix(req, s, i === 0) }));
  else if (replacement !== undefined) out.push(replaceFix(req, replacement));
  if (req.data.removable) {
    const remove = removeFix(req, req.node, !!options.removePreferred && !out.length);
    if (remove) out.push(remove);
  }
  return out;
}

/** `"x"` → `x` for titles (JSON replacements carry their quotes). */
function unquoteJson(value: string): string {
  if (/^".*"$/s.test(value)) {
    try {
      const v = JSON.parse(value);
      // Stryker disable next-line ConditionalExpression: JSON text that starts and ends with `"` is a string
      if (typeof v === 'string') return v;
    } catch {
      // not JSON text: shown as it is
    }
  }
  return value;
}

/** The same fixes, none preferred: offered in the editor, never applied by "Fix all" or `--fix`. */
export function offered(fixes: FixPlan[]): FixPlan[] {
  return fixes.map((f) => ({ ...f, preferred: false }));
}

/**
 * The standard fixes, preferred only unless the finding says the value is a different one, only near (`normalized:
 * false`).
 */
export function normalizingFixes(req: FixTarget): FixPlan[] {
  return req.data.normalized === false ? offered(standardFixes(req)) : standardFixes(req);
}

/**
 * A "did you mean" for a tool name: offered, never preferred (the entry may be a tool the
 * runtime has and the catalog does not list, and a preferred fix never grants a tool the
 * author did not write). When the suggested name is already in the same list, removing the
 * entry is offered first, since the rename would list it twice.
 */
export function toolSuggestionFixes(req: FixRequest<unknown>): FixPlan[] {
  // While the configuration has errors, a tool it mentions may be declared in the part that was dropped: no rewrite.
  const written = req.node?.kind === 'string' ? String(req.node.value) : undefined;
  const mentioned = written !== undefined && !!req.ctx.config?.mentioned?.has(written);
  const replacement = mentioned ? undefined : dataString(req, 'replacement');
  const siblings = req.node?.parent?.items ?? [];
  const unquoted = replacement && unquoteJson(replacement);
  // A string: only a string entry's value can equal it (a mapping's or list's is undefined).
  const listed = unquoted !== undefined && siblings.some((n) => n !== req.node && n.value === unquoted);
  const fixes = standardFixes(
    listed
      ? { ...req, data: { ...req.data, replacement: undefined, removable: true } }
      : mentioned
        ? { ...req, data: { ...req.data, replacement: undefined } }
        : req,
  );
  return offered(fixes);
}

/** An unknown key's rename, preferred unless the key it becomes grants tools (then offered only). */
export function keyRenameFixes(req: FixRequest<unknown>, grantingKeys: readonly string[]): FixPlan[] {
  const target = dataString(req, 'replacement');
  const fixes = standardFixes(req);
  return target !== undefined && grantingKeys.includes(unquoteJson(target)) ? offered(fixes) : fixes;
}

/**
 * The fix of a definition file with no definition in it yet (empty, comments only, or Markdown
 * without frontmatter): its module's skeleton, with the placeholders' defaults and the name the
 * runtime reads from the file (the file's stem). Markdown keeps its body below the inserted
 * frontmatter; comments stay above a skeleton without frontmatter. Offered, never preferred: the
 * skeleton holds text to fill in, and a definition that loads is granted tools that the file the
 * runtime rejects was not (docs/fixes.md).
 */
export function skeletonFixes(req: FixRequest<unknown>, skeleton: (name: string) => string): FixPlan[] {
  const name = req.ctx.fileStem;
  const edit = skeletonEdit(req.ctx, snippetText(skeleton(name)));
  return [{ title: `Insert a new definition named \`${name}\``, edits: [edit] }];
}

/** Where a skeleton goes: in place of a blank file or of YAML that reads as null, else into the YAML there is. */
function skeletonEdit(target: EditTarget, inserted: string): TextEdit {
  const text = target.file.source.text;
  const at = (start: number, end: number, newText: string): TextEdit => ({
    range: rangeOf(target, start, end),
    newText,
  });
  if (!text.trim()) return at(0, text.length, inserted);
  const region = target.file.yamlRegions[0];
  const lines = inserted.endsWith('\n') ? inserted : `${inserted}\n`;
  // Markdown without frontmatter (whose skeleton is a frontmatter): the skeleton becomes it, the text stays as the body.
  if (!region || inserted.startsWith('---\n')) return at(0, 0, lines);
  const written = writtenNull(target);
  if (written) return at(written.start, written.end, lines.slice(0, -1));
  // Comments only (a YAML file, or a frontmatter): the skeleton goes after them.
  return at(region.end, region.end, (region.end > 0 && text[region.end - 1] !== '\n' ? '\n' : '') + lines);
}
