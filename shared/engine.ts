/**
 * `analyze`: recognizes a file, parses it, builds its dialect's model once, runs every rule
 * isolated in try/catch, then applies the author's display settings (`rules:` overrides and
 * suppression comments). `resolveAnalysis` gives the resolution, whose status reads the
 * findings with their default severities: the runtime reads no display setting.
 */
import { DiagnosticTag, type Diagnostic } from 'vscode-languageserver-types';
import { catalogFor } from './catalog/by-dialect';
import type { Catalog } from './catalog/catalog';
import { defaultConfig, parseConfigDocument, type SubagentsConfig } from './config/config';
import { dialectModule } from './dialects';
import type { DialectModule } from './dialects/module';
import { toPosix } from './files';
import { fileStem, kindOf } from './recognition';
import { defaultSeverity, ruleDocsUrl, ruleMeta } from './rules/registry';
import { SEVERITY } from './severity';
import { SourceText } from './text/source';
import { findSuppressions } from './text/suppress';
import { withSuggestionBudget } from './text/nearest';
import { DirectiveUse } from './rules/directives';
import { unreadableReason } from './text/limits';
import { capPerRule } from './diagnostics-cap';
import type { ParsedFile } from './text/document';
import { verdictOf } from './dialects/verdict';
import type { Analysis, DocumentInput, Finding, Outcome, Resolution, ResolvedDefinition, RuleContext } from './types';

/** Parses a file, runs its dialect's rules in isolation and applies overrides and suppressions. */
export function analyze(input: DocumentInput): Analysis {
  // One "did you mean" budget for the whole file: its rules, its configuration's and its directives'.
  const analysis = withSuggestionBudget(SUGGESTION_COMPARISONS, () => analyzeText(input));
  if (analysis.kind) {
    const { text: _text, parsed: _parsed, onRuleError: _onRuleError, ...rest } = input;
    // Recognized once: a fixed text is analysed as the same kind of file.
    analysis.input = { ...rest, kind: analysis.kind };
  }
  return analysis;
}

function analyzeText(input: DocumentInput): Analysis {
  const kind = kindOf(input);
  if (!kind) return { kind, diagnostics: [], findings: [] };
  const source = new SourceText(input.text);
  if (kind === 'config') {
    const { loaded, document } = parseConfigDocument(input.text, input.path, input.config.dir);
    // A file too large or binary to parse is not searched for directives either (nor can one hide that).
    if (!document)
      return {
        kind,
        findings: loaded.findings,
        diagnostics: finalize(loaded.findings, input.config.config, () => false),
      };
    return {
      kind,
      ...withDirectives(loaded.findings, input.config.config, source, document.file.yamlRegions),
      configDocument: document,
    };
  }
  // A kind no registered dialect has (one disposed of since): not a definition any more.
  const module = dialectModule(kind);
  if (!module) return { kind: undefined, diagnostics: [], findings: [] };
  const path = toPosix(input.path);
  const unreadable = unreadableReason(input.text);
  if (unreadable) {
    const finding: Finding = { rule: module.syntaxRule, range: source.firstLine(), message: unreadable };
    return { kind, path, findings: [finding], diagnostics: finalize([finding], input.config.config, () => false) };
  }
  const file = input.parsed ?? module.parse(source, path);
  const context: RuleContext<unknown> = {
    file,
    path,
    fileStem: fileStem(path, kind),
    config: input.config.config,
    loaded: input.config,
    catalog: catalogFor(kind, input.config.config),
    workspace: input.workspace,
    model: undefined,
  };
  const findings: Finding[] = file.syntax.map((f) => inRuntimeTerms(module, f));
  if (!parses(file)) {
    // The runtime cannot read the file: the syntax findings are the whole story (no rule runs on
    // a partial parse), and the model is built for the editor features only.
    buildModel(module, context, input.onRuleError);
    return { kind, path, findings, diagnostics: finalize(findings, input.config.config, () => false), context };
  }
  const ran = runRules(module, context, findings, input.onRuleError);
  if (!ran) return { kind, path, findings, diagnostics: finalize(findings, input.config.config, () => false) };
  return { kind, path, ...withDirectives(findings, input.config.config, source, file.yamlRegions), context };
}

/** Whether the runtime can read the file at all: its parse reported no syntax problem. */
const parses = (file: ParsedFile): boolean => file.syntax.length === 0;

/** The model of the file, or false when it cannot be built (reported through `onRuleError`). */
function buildModel(
  module: DialectModule,
  context: RuleContext<unknown>,
  onRuleError: DocumentInput['onRuleError'],
): boolean {
  try {
    context.model = module.model(context as RuleContext<undefined>);
    return true;
  } catch (error) {
    onRuleError?.('model', error);
    return false;
  }
}

/** Distance computations "did you mean" may spend on one file (about a tenth of a second). */
const SUGGESTION_COMPARISONS = 2_000_000;

/** Builds the model, then runs every rule isolated; false when the model cannot be built (no rule can run then). */
function runRules(
  module: DialectModule,
  context: RuleContext<unknown>,
  findings: Finding[],
  onRuleError: DocumentInput['onRuleError'],
): boolean {
  // Without a model no rule can run; the syntax findings still stand.
  if (!buildModel(module, context, onRuleError)) return false;
  for (const rule of module.rules) {
    try {
      for (const f of rule.check(context)) findings.push(f);
    } catch (error) {
      onRuleError?.(rule.ids.join(', '), error);
    }
  }
  return true;
}

/**
 * The diagnostics after the author's display settings (`rules:` overrides, suppression
 * comments in the YAML regions), and the findings with the directive rules' own added.
 */
function withDirectives(
  found: Finding[],
  config: SubagentsConfig,
  source: SourceText,
  regions: { start: number; end: number }[],
): Pick<Analysis, 'findings' | 'diagnostics' | 'directives'> {
  const suppressions = findSuppressions(source, regions);
  const use = new DirectiveUse(suppressions);
  const shown = finalize(found, config, (f) => use.silences(f.rule, f.range.start.line));
  const directives = use.findings();
  if (!directives.length) return { findings: found, diagnostics: shown, directives: suppressions.directives };
  // Directive findings are not silenced by directives (as ESLint's unused-directive reports).
  const diagnostics = finalize(directives, config, () => false);
  for (const d of shown) diagnostics.push(d);
  diagnostics.sort(
    (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
  );
  const findings = found.slice();
  for (const f of directives) findings.push(f);
  return { findings, diagnostics, directives: suppressions.directives };
}

/**
 * Diagnostics for findings made outside `analyze`, with the default severities: a
 * configuration file that cannot be read (its own `rules:` are unknown then).
 */
export function findingsToDiagnostics(findings: Finding[]): Diagnostic[] {
  return finalize(findings, defaultConfig(), () => false);
}

/** Findings as the author chose to see them: `rules:` overrides, then suppression comments. */
function finalize(
  findings: readonly Finding[],
  config: SubagentsConfig,
  suppressed: (f: Finding) => boolean,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of findings) {
    const override = config.rules[f.rule];
    // Asked first, also for a rule turned off: a comment that covers a finding is in use, whatever the display
    // settings.
    const silenced = suppressed(f);
    if (override === 'off' || silenced) continue;
    const meta = ruleMeta(f.rule);
    const severity = override ?? defaultSeverity(f);
    const tags = [...(f.tags ?? []), ...(meta?.deprecated ? [DiagnosticTag.Deprecated] : [])];
    out.push({
      range: f.range,
      severity: SEVERITY[severity],
      source: 'subagents',
      code: f.rule,
      codeDescription: { href: ruleDocsUrl(f.rule) },
      message: f.message,
      ...(tags.length ? { tags: [...new Set(tags)] } : {}),
      data: { rule: f.rule, ...f.data },
    });
  }
  return capPerRule(
    out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character),
  );
}

/** The resolution of a definition file; undefined for files that are not definitions. */
export function resolveAnalysis(analysis: Analysis, file: string): Resolution | undefined {
  const module = analysis.kind && analysis.kind !== 'config' ? dialectModule(analysis.kind) : undefined;
  if (!module) return undefined;
  const outcome: Outcome = { findings: analysis.findings, diagnostics: analysis.diagnostics, defaultSeverity };
  const context = analysis.context;
  if (!context?.model || !parses(context.file))
    return { file, dialect: module.id, definitions: [unparsableDefinition(module, analysis, outcome)] };
  // Unknown means what the dialect's unknown-tool rule reports; a runtime without one (Profy: the Expert's own toolset
  // decides) has none.
  const catalog = module.editor.unknownToolRule ? context.catalog : undefined;
  const definitions = module.resolve(context, outcome).map((d) => withUnknown(d, catalog));
  return { file, dialect: module.id, definitions };
}

/** The definition with `unknown` after `tools`: what of its tool set the catalog does not know. */
function withUnknown(d: ResolvedDefinition, catalog: Catalog | undefined): ResolvedDefinition {
  const { name, status, tools, ...rest } = d;
  return { name, status, tools, unknown: catalog ? catalog.unknownAmong(tools) : [], ...rest };
}

/**
 * A file the runtime cannot read (it does not parse, is too large or binary) is one definition
 * with the runtime's verdict on such a file, named as the file names itself when a name can be
 * read from the partial parse, else from the file name. It grants nothing.
 */
function unparsableDefinition(module: DialectModule, analysis: Analysis, outcome: Outcome): ResolvedDefinition {
  const context = analysis.context;
  const path = context?.path ?? analysis.path ?? '';
  const stem = context?.fileStem ?? fileStem(path, module.id);
  const name = (context && module.names.of(context.file, stem)[0]?.name) || stem;
  const { reasons, silenced } = verdictOf(outcome, undefined, (rule) => rule.startsWith('syntax/'));
  return {
    name,
    status: module.unparsableStatus ?? 'rejected',
    tools: [],
    unknown: [],
    removed: [],
    reasons,
    ...(silenced.length ? { silenced } : {}),
    range: context?.file.source.firstLine() ?? { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
  };
}

/** A syntax finding in the runtime's own words, where its module has them for the parser's error code. */
function inRuntimeTerms(module: DialectModule, finding: Finding): Finding {
  const code = finding.data?.code;
  const message = typeof code === 'string' ? module.syntaxMessages?.[code] : undefined;
  return message ? { ...finding, message } : finding;
}
