/**
 * Code actions: each diagnostic's quick fixes (registered beside its rule, keyed by full rule
 * id), "disable for this line / file" comments, *Show documentation for rule X* (clients with
 * the command), and "Fix all" (`source.fixAll.subagents`).
 * Only diagnostics inside the requested range are answered, and only the kinds the request's
 * `only` asks for. No rule logic here.
 */
import {
  CodeActionKind,
  type CodeAction,
  type Diagnostic,
  type Range,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver-types';
import type { Analysis, FixPlan } from '../types';
import { indentOf, inLineEndingOf, lineStartOf, nodeForRange, rangeOf } from '../fixes/edits';
import { ownDiagnostic } from '../fixes/registry';
import { offeredFixes } from '../fixes/round';
import { posix } from 'path';
import { declareToolEdit, newConfigText, toolDeclaration } from '../config/add-tool';
import { CONFIG_FILE_NAME } from '../config/types';
import { isString } from '../text/tree';
import type { FeatureFile } from '../dialects/module';
import { featureFile } from './common';
import { ruleDocsUrl, ruleMeta } from '../rules/registry';

export const FIX_ALL_KIND = `${CodeActionKind.SourceFixAll}.subagents`;

export interface CodeActionOptions {
  /** The client can rename files in a WorkspaceEdit (`resourceOperations` holds `rename`). */
  renameFiles?: boolean;
  /** The client takes `documentChanges` in a WorkspaceEdit. */
  documentChanges?: boolean;
  version?: number;
  /** The edits of "Fix all" for this document (the server computes them on demand). */
  fixAll?: () => TextEdit[] | undefined;
  /** Turns a path into the URI of a renamed file. */
  pathToUri?: (path: string) => string;
  /** A file's text, open or on disk: the configuration that "declare the tool" edits. */
  readText?: (path: string) => string | undefined;
  /** The client can create files in a WorkspaceEdit (`resourceOperations` holds `create`). */
  createFiles?: boolean;
  /** The client's command that opens a rule's page (argument: its URL): *Show documentation for rule X* last. */
  ruleDocsCommand?: string;
}

export interface CodeActionContextLike {
  diagnostics: Diagnostic[];
  only?: string[];
}

/** `kind` is requested by `only` (kinds are hierarchical: `source` asks for `source.fixAll.subagents`). */
function wanted(only: string[] | undefined, kind: string): boolean {
  return !only || only.some((k) => k === '' || kind === k || kind.startsWith(`${k}.`));
}

const intersects = (a: Range, b: Range) =>
  !(
    a.end.line < b.start.line ||
    (a.end.line === b.start.line && a.end.character < b.start.character) ||
    b.end.line < a.start.line ||
    (b.end.line === a.start.line && b.end.character < a.start.character)
  );

export function codeActions(
  analysis: Analysis | undefined,
  uri: string,
  range: Range,
  context: CodeActionContextLike,
  options: CodeActionOptions = {},
): CodeAction[] {
  const file = featureFile(analysis);
  // A `.subagents.yaml` has quick fixes too, but no suppression comments to offer.
  if (!analysis || (!file && analysis.kind !== 'config')) return [];
  const actions: CodeAction[] = [];
  if (wanted(context.only, CodeActionKind.QuickFix)) {
    for (const given of context.diagnostics) {
      if (given.source !== undefined && given.source !== 'subagents') continue;
      if (!intersects(given.range, range)) continue;
      const rule = typeof given.code === 'string' ? given.code : (given.data as { rule?: string } | undefined)?.rule;
      if (!rule) continue;
      const own = ownDiagnostic(analysis, given, rule);
      // Preferred only when it holds the property, as "Fix all" finds (shared/fixes/round.ts).
      const plans = own
        ? offeredFixes(analysis, own, { renames: !!options.renameFiles }).filter(
            (p) => options.renameFiles || p.edits.length,
          )
        : [];
      let preferredGiven = false;
      for (const plan of plans) {
        const action: CodeAction = {
          title: plan.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [given],
          edit: workspaceEdit(uri, plan, options),
        };
        if (plan.preferred && !preferredGiven) {
          action.isPreferred = true;
          preferredGiven = true;
        }
        actions.push(action);
      }
      // After the fixes: the tool may well exist, only not in the catalog yet; "disable" comes last.
      const declare = file && own && declareToolAction(file, own, given, options);
      if (declare) actions.push(declare);
      const disable = file && disableFix(file, rule, own ?? given);
      if (disable)
        actions.push({
          title: disable.title,
          kind: CodeActionKind.QuickFix,
          diagnostics: [given],
          edit: workspaceEdit(uri, disable, options),
        });
    }
  }
  if (options.ruleDocsCommand && wanted(context.only, CodeActionKind.QuickFix))
    for (const a of ruleDocsActions(context.diagnostics, range, options.ruleDocsCommand)) actions.push(a);
  if (context.only && wanted(context.only, FIX_ALL_KIND) && options.fixAll) {
    const edits = options.fixAll();
    if (edits?.length)
      actions.push({
        title: 'Fix all subagent problems',
        kind: FIX_ALL_KIND,
        edit: workspaceEdit(uri, { title: '', edits }, options),
      });
  }
  return actions;
}

/** *Show documentation for rule X*, once per rule among the diagnostics in range (as ESLint offers). */
function ruleDocsActions(diagnostics: readonly Diagnostic[], range: Range, command: string): CodeAction[] {
  const rules = new Map<string, Diagnostic[]>();
  for (const given of diagnostics) {
    if (given.source !== undefined && given.source !== 'subagents') continue;
    if (typeof given.code !== 'string' || !ruleMeta(given.code) || !intersects(given.range, range)) continue;
    const list = rules.get(given.code);
    if (list) list.push(given);
    else rules.set(given.code, [given]);
  }
  return [...rules].map(([rule, given]) => {
    const title = `Show documentation for ${rule}`;
    return {
      title,
      kind: CodeActionKind.QuickFix,
      diagnostics: given,
      command: { title, command, arguments: [ruleDocsUrl(rule)] },
    };
  });
}

/**
 * A plan as a WorkspaceEdit: plain `changes`, or `documentChanges` when the client takes them
 * (needed for a rename, which only clients with `resourceOperations: rename` are offered).
 */
export function workspaceEdit(uri: string, plan: FixPlan, options: CodeActionOptions): WorkspaceEdit {
  const rename =
    plan.rename && options.renameFiles && options.pathToUri
      ? { kind: 'rename' as const, oldUri: uri, newUri: options.pathToUri(plan.rename.newPath) }
      : undefined;
  if (!rename && !(options.documentChanges && options.version !== undefined)) return { changes: { [uri]: plan.edits } };
  const changes: NonNullable<WorkspaceEdit['documentChanges']> = [];
  if (plan.edits.length) changes.push({ textDocument: { uri, version: options.version ?? null }, edits: plan.edits });
  if (rename) changes.push(rename);
  return { documentChanges: changes };
}

/**
 * `# subagents-disable-next-line rule` above the diagnostic's line (YAML and Markdown only), in the file's line ending.
 */
function disableFix(file: FeatureFile, rule: string, d: Diagnostic): FixPlan | undefined {
  const plan = disableComment(file, rule, d);
  return plan && { ...plan, edits: inLineEndingOf(file.text, plan.edits) };
}

function disableComment(file: FeatureFile, rule: string, d: Diagnostic): FixPlan | undefined {
  // Directives do not silence the directive rules.
  if (file.ctx.file.format !== 'yaml' || rule.startsWith('directive/')) return undefined;
  const text = file.text;
  const source = file.ctx.file.source;
  const lineStart = source.offset({ line: d.range.start.line, character: 0 });
  const regions = file.ctx.file.yamlRegions;
  const inRegion = regions.some((r) => lineStart >= r.start && lineStart < Math.max(r.end, r.start + 1));
  if (!inRegion || d.range.start.line === 0) {
    // File-level problems sit on the first line (the `---` line, or the first YAML line, where a
    // comment above would move the problem onto the comment): disable for the whole file.
    const r = regions[0];
    if (!r || rule.startsWith('syntax/')) return undefined;
    return {
      title: `Disable ${rule} for this file`,
      edits: [{ range: rangeOf(file.ctx, r.start, r.start), newText: `# subagents-disable ${rule}\n` }],
    };
  }
  const indent = indentOf(text, lineStart);
  // Extend a directive that is already on the line above.
  if (lineStart > 0) {
    const prevStart = lineStartOf(text, lineStart - 1);
    // Stryker disable next-line Regex: the line's only line feed is its last character (prevStart follows the one before)
    const prev = text.slice(prevStart, lineStart).replace(/\r?\n$/, '');
    const m = /#\s*subagents-disable-next-line\s+([^#]*?)\s*$/.exec(prev);
    if (m && m[1]) {
      const at = prevStart + prev.length;
      return {
        title: `Disable ${rule} for this line`,
        edits: [{ range: rangeOf(file.ctx, at, at), newText: `, ${rule}` }],
      };
    }
  }
  return {
    title: `Disable ${rule} for this line`,
    edits: [
      { range: rangeOf(file.ctx, lineStart, lineStart), newText: `${indent}# subagents-disable-next-line ${rule}\n` },
    ],
  };
}

/**
 * "Declare `x` as a … tool in .subagents.yaml": an unknown tool that does exist (a private tool,
 * an MCP server's) becomes known to the catalog. Edits the configuration in force, or creates
 * one in the workspace folder when there is none and the client can create files. Never
 * preferred: only the author knows whether the tool exists.
 */
function declareToolAction(
  file: FeatureFile,
  own: Diagnostic,
  given: Diagnostic,
  options: CodeActionOptions,
): CodeAction | undefined {
  const rule = file.module.editor.unknownToolRule;
  if (rule === undefined || own.code !== rule || !options.readText || !options.pathToUri) return undefined;
  const { source, root } = file.ctx.file;
  const node = nodeForRange(root, source.offset(own.range.start), source.offset(own.range.end));
  const declaration =
    node && isString(node) && !node.viaAlias
      ? toolDeclaration(file.dialect, node.value, Object.keys(file.ctx.config.mcp))
      : undefined;
  if (!declaration) return undefined;
  const loaded = file.ctx.loaded;
  // A configuration with errors is ignored altogether: a tool declared there would stay unknown.
  if (loaded.findings.some((f) => (f.severity ?? 'error') === 'error')) return undefined;
  const where =
    declaration.section === 'mcp' ? `a tool of MCP server \`${declaration.key}\`` : `a ${file.module.title} tool`;
  const title = `Declare \`${declaration.value}\` as ${where} in .subagents.yaml`;
  let edit: WorkspaceEdit | undefined;
  if (loaded.path) {
    const text = options.readText(loaded.path);
    const change = text === undefined ? undefined : declareToolEdit(text, declaration);
    if (change) edit = { changes: { [options.pathToUri(loaded.path)]: [change] } };
  } else if (options.createFiles) {
    const uri = options.pathToUri(posix.join(loaded.dir, CONFIG_FILE_NAME));
    edit = {
      documentChanges: [
        { kind: 'create', uri, options: { ignoreIfExists: true } },
        {
          textDocument: { uri, version: null },
          edits: [
            {
              range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
              newText: newConfigText(declaration),
            },
          ],
        },
      ],
    };
  }
  return (
    edit && {
      title: loaded.path ? title : `${title} (creates it)`,
      kind: CodeActionKind.QuickFix,
      diagnostics: [given],
      edit,
    }
  );
}
