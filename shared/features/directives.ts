/**
 * Suppression comments in the editor: the directive names complete after `# subagents-`, rule
 * ids complete in a directive's list (the rules that can fire in this file), hover explains a
 * directive and each rule id it names, and each known rule id (also under `rules:` in
 * `.subagents.yaml`) links to its page. Which comments are directives is read by
 * text/suppress.ts, the same code that applies them.
 */
import {
  CompletionItemKind,
  MarkupKind,
  type CompletionItem,
  type DocumentLink,
  type Hover,
  type Range,
} from 'vscode-languageserver-types';
import type { FileKind } from '../basics';
import type { Analysis } from '../types';
import { RULES, ruleDocsUrl, ruleMeta } from '../rules/registry';
import { ruleIdMarkdown } from '../config/keys';
import { yamlCommentAt, type SuppressionDirective } from '../text/suppress';
import type { SourceText } from '../text/source';
import { getValue } from '../text/tree';
import { toItems, type Candidate, type CompletionOptions } from './kit/completion-items';

/** The YAML parts of a file where directives count, and the directives the analysis read there. */
export interface DirectiveFile {
  kind: FileKind;
  source: SourceText;
  regions: { start: number; end: number }[];
  directives: readonly SuppressionDirective[];
}

export function directiveFileOf(analysis: Analysis | undefined): DirectiveFile | undefined {
  if (!analysis?.kind) return undefined;
  const file = analysis.kind === 'config' ? analysis.configDocument?.file : analysis.context?.file;
  return file && file.format === 'yaml'
    ? { kind: analysis.kind, source: file.source, regions: file.yamlRegions, directives: analysis.directives ?? [] }
    : undefined;
}

const DIRECTIVES: Record<string, string> = {
  'subagents-disable-next-line':
    'Silences the rules it names (every rule when it names none) on the next line. The directive rules themselves are never silenced: an id no rule has, or a directive that silences nothing, is still reported.',
  'subagents-disable': 'Silences the rules it names (every rule when it names none) in the whole file.',
};

const DISPLAY_ONLY =
  'It changes what is shown, not what the runtime does: `resolve` and the preview still report a definition the runtime refuses, and name the silenced rule that decided it.';
const SILENCED_ONLY =
  'Silencing it changes what is shown, not what the runtime does: `resolve` and the preview still report a definition the runtime refuses.';

/** The rules a directive in this kind of file can silence. */
function silenceable(kind: FileKind): string[] {
  return RULES.filter((r) => r.group === kind || (r.group === 'syntax' && kind !== 'config')).map((r) => r.id);
}

/** Completion inside a YAML comment: undefined when the offset is not in one (other completion applies). */
export function directiveCompletions(
  file: DirectiveFile,
  offset: number,
  options: CompletionOptions,
): CompletionItem[] | undefined {
  const text = file.source.text;
  const region = file.regions.find((r) => offset >= r.start && offset <= r.end);
  const comment = region && yamlCommentAt(text, region, offset);
  if (!comment) return undefined;
  const before = text.slice(comment.start, offset);
  let end = offset;
  while (end < comment.start + comment.text.length && /[\w/-]/.test(text[end])) end++;
  const name = /^#\s*(s[\w-]*)$/.exec(before);
  if (name && 'subagents-'.startsWith(name[1].slice(0, 10))) {
    const candidates = Object.entries(DIRECTIVES).map(([label, doc], i): Candidate => ({
      label,
      kind: CompletionItemKind.Keyword,
      documentation: `${doc}\n\n${DISPLAY_ONLY}`,
      insert: `${label} `,
      sort: i,
    }));
    return toItems(file.source, candidates, offset - name[1].length, end, options);
  }
  const list = /^#\s*subagents-disable(?:-next-line)?[ \t]+([^#]*)$/.exec(before);
  if (!list) return [];
  const word = /[\w/-]*$/.exec(list[1])![0];
  const after = comment.text.slice(offset - comment.start).split('#')[0];
  const listed = new Set(
    `${list[1].slice(0, list[1].length - word.length)},${after.slice(end - offset)}`.split(',').map((s) => s.trim()),
  );
  const candidates = silenceable(file.kind)
    .filter((id) => !listed.has(id))
    .map((id, i): Candidate => ({
      label: id,
      kind: CompletionItemKind.Property,
      detail: `default: ${ruleMeta(id)!.defaultSeverity}`,
      documentation: ruleIdMarkdown(id, SILENCED_ONLY),
      sort: i,
    }));
  return toItems(file.source, candidates, offset - word.length, end, options);
}

const within = (source: SourceText, range: Range, offset: number) =>
  offset >= source.offset(range.start) && offset <= source.offset(range.end);

/** Hover on a directive's name or on a rule id it names. */
export function directiveHover(file: DirectiveFile, offset: number): Hover | undefined {
  const { source } = file;
  const line = source.position(offset).line;
  for (const directive of file.directives) {
    if (directive.range.start.line !== line || !within(source, directive.range, offset)) continue;
    for (const rule of directive.rules) {
      if (!within(source, rule.range, offset)) continue;
      const value =
        ruleIdMarkdown(rule.id, SILENCED_ONLY) ??
        `\`${rule.id}\` is not a rule id, so this directive silences nothing for it; \`subagents rules\` lists them.`;
      return { contents: { kind: MarkupKind.Markdown, value }, range: rule.range };
    }
    const name = directive.kind === 'line' ? 'subagents-disable-next-line' : 'subagents-disable';
    return {
      contents: { kind: MarkupKind.Markdown, value: `**${name}**: ${DIRECTIVES[name]}\n\n${DISPLAY_ONLY}` },
      range: directive.range,
    };
  }
  return undefined;
}

/** Links from every known rule id in a directive, and under `rules:` in `.subagents.yaml`, to the rule's page. */
export function ruleLinks(analysis: Analysis | undefined): DocumentLink[] {
  const file = directiveFileOf(analysis);
  if (!file) return [];
  const links: DocumentLink[] = [];
  const link = (id: string, range: Range) => {
    if (ruleMeta(id)) links.push({ range, target: ruleDocsUrl(id), tooltip: `The documentation of ${id}` });
  };
  for (const directive of file.directives) for (const rule of directive.rules) link(rule.id, rule.range);
  const rules = analysis?.kind === 'config' ? getValue(analysis.configDocument?.file.root, 'rules') : undefined;
  for (const p of rules?.kind === 'object' ? (rules.properties ?? []) : [])
    link(p.key, file.source.range(p.keyNode.start, p.keyNode.end));
  return links;
}
