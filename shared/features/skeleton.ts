/** A new definition of a dialect, as text: its module's skeleton without the snippet placeholders. */
import { applyEdits, modify, parse as parseJsonc, type ParseError } from 'jsonc-parser';
import type { TextEdit } from 'vscode-languageserver-types';
import type { Dialect } from '../basics';
import { SourceText } from '../text/source';
import { dialectModule, dialectModules } from '../dialects';
import { snippetText } from './kit/completion-items';
import type { Skeleton } from './kit/new-definition';

export type { Skeleton } from './kit/new-definition';

/** The text of a new definition named `name`; undefined for a kind no dialect has. */
export function skeletonText(dialect: Dialect, name: string): string | undefined {
  const module = dialectModule(dialect);
  return module && snippetText(module.skeleton(name));
}

/**
 * What the server analyses once per dialect at start-up: the module's warm-up sample (else its
 * skeleton), under a file name its first default glob takes (`warm.md`, `warm.expert.json`).
 */
export function warmUpSamples(): { dialect: Dialect; fileName: string; text: string }[] {
  const name = 'warm';
  return dialectModules().map((m) => ({
    dialect: m.id,
    fileName: (m.files.defaultGlobs[0]?.split('/').pop() ?? '*').replace(/\*/g, name),
    text: m.warmUpSample ?? snippetText(m.skeleton(name)),
  }));
}

/**
 * The skeleton of a new subagent `name` in `dialect`, its description taken from `purpose`; undefined for a kind no
 * dialect has.
 */
export function subagentSkeleton(dialect: Dialect, name: string, purpose: string): Skeleton | undefined {
  const module = dialectModule(dialect);
  if (!module) return undefined;
  if (module.newDefinition) return module.newDefinition(name, purpose);
  // The first default glob, made a path: `**/.tool/agents/*.yaml` → `.tool/agents/<name>.yaml`.
  const path = (module.files.defaultGlobs[0] ?? '*').replace(/^(\*\*\/)+/, '').replace(/\*/g, name);
  const language = path.endsWith('.json') ? 'json' : path.endsWith('.md') ? 'markdown' : 'yaml';
  return { path, language, text: snippetText(module.skeleton(name)), note: `A ${module.labels.definition}.` };
}

/** Where a new definition goes in a file that holds several (a Profy Expert's `subagents`), and the edits. */
export type NestedInsertion =
  { ok: true; edits: TextEdit[]; after: string; name: string } | { ok: false; problem: string };

/**
 * The edits that add a new definition `name` to `text`, a file of `dialect` that holds several
 * (its module's `editor.nestedDefinitions`): the skeleton's first entry appended to the file's
 * list (made when missing), laid out like the file (its line ending, two-space indent). The CLI
 * (`subagents new --expert`) writes the result; the editor applies the edits as a WorkspaceEdit.
 * Refused when the runtime keeps one definition per file or the file is not a JSON object.
 */
export function nestedDefinitionEdits(dialect: Dialect, text: string, name: string, purpose = ''): NestedInsertion {
  const module = dialectModule(dialect);
  const nested = module?.editor.nestedDefinitions;
  const skeleton = module && subagentSkeleton(dialect, name, purpose);
  if (!module || !nested || !skeleton)
    return { ok: false, problem: `${module?.title ?? dialect} keeps one definition per file` };
  const { key } = nested;
  const entry = (parseJsonc(skeleton.text) as Record<string, unknown[]> | undefined)?.[key]?.[0];
  const errors: ParseError[] = [];
  const container = parseJsonc(text, errors) as Record<string, unknown> | undefined;
  if (errors.length || !container || typeof container !== 'object' || Array.isArray(container))
    return { ok: false, problem: 'not a JSON object; fix its syntax first' };
  const list = container[key];
  if (list !== undefined && !Array.isArray(list)) return { ok: false, problem: `\`${key}\` is not a list` };
  // The line ending: jsonc-parser takes the text's own (its first line break), LF in a one-line file.
  const formattingOptions = { insertSpaces: true, tabSize: 2 };
  const jsonEdits = list
    ? modify(text, [key, list.length], entry, { formattingOptions, isArrayInsertion: true })
    : modify(text, [key], [entry], { formattingOptions });
  const source = new SourceText(text);
  const edits = jsonEdits.map((e) => ({
    range: { start: source.position(e.offset), end: source.position(e.offset + e.length) },
    newText: e.content,
  }));
  return { ok: true, edits, after: applyEdits(text, jsonEdits), name };
}
