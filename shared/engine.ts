import { DiagnosticSeverity, DiagnosticTag, type Diagnostic } from 'vscode-languageserver-types';
import { posix } from 'path';
import { catalogFor, type Catalog } from './catalog/catalog';
import { defaultConfig, parseConfig, type LoadedConfig, type SubagentsConfig } from './config/config';
import { dialectOf, toPosix } from './files';
import { ruleDocsUrl, ruleMeta } from './rules/registry';
import type { ParsedFile } from './text/document';
import { SourceText } from './text/source';
import { findSuppressions, isSuppressed } from './text/suppress';
import { unreadableReason } from './text/limits';
import { capPerRule } from './diagnostics-cap';
import type { Dialect, FileKind, Finding, Resolution, ResolvedDefinition, SeverityName } from './types';
import { polytoken } from './dialects/polytoken';
import { profy } from './dialects/profy';
import { picasso } from './dialects/picasso';

/** What the engine knows of other files: Polytoken definitions, for shadowing. */
export interface WorkspaceIndex {
  polytoken: readonly { path: string; name: string }[];
  /** Optional: the same entries grouped by name, in the same order (checkPaths builds it; rules fall back to `polytoken`). */
  polytokenByName?: ReadonlyMap<string, readonly { path: string; name: string }[]>;
}

export interface DocumentInput {
  text: string;
  /** Absolute filesystem path (either separator). */
  path: string;
  config: LoadedConfig;
  /** The workspace folder the default globs are relative to. */
  root?: string;
  /** Skip path-based recognition. */
  kind?: FileKind;
  workspace?: WorkspaceIndex;
  /** A parse of this very text made earlier (the CLI parses Polytoken files once for the index). */
  parsed?: ParsedFile;
  /** Told when a rule throws; the other rules still report. */
  onRuleError?: (rule: string, error: unknown) => void;
}

export interface RuleContext {
  file: ParsedFile;
  /** Absolute, posix separators. */
  path: string;
  /** The file name without its extension. */
  fileStem: string;
  config: SubagentsConfig;
  loaded: LoadedConfig;
  catalog: Catalog;
  workspace?: WorkspaceIndex;
}

export interface Rule {
  /** The rule ids this check reports (one rule per file or a small group). */
  ids: readonly string[];
  check(ctx: RuleContext): Finding[];
}

export interface DialectModule {
  dialect: Dialect;
  parse(source: SourceText, path: string): ParsedFile;
  rules: readonly Rule[];
  /** The definitions in the file and what the runtime grants each; `diagnostics` are the file's final ones. */
  resolve(ctx: RuleContext, diagnostics: readonly Diagnostic[]): ResolvedDefinition[];
}

export const DIALECT_MODULES: Record<Dialect, DialectModule> = { polytoken, profy, picasso };

/** One file analysed: its parse, context and final diagnostics. Cache it per document version. */
export interface Analysis {
  kind: FileKind | undefined;
  diagnostics: Diagnostic[];
  context?: RuleContext;
}

const SEVERITY: Record<SeverityName, DiagnosticSeverity> = {
  error: DiagnosticSeverity.Error,
  warning: DiagnosticSeverity.Warning,
  information: DiagnosticSeverity.Information,
  hint: DiagnosticSeverity.Hint,
};

export function severityName(s: DiagnosticSeverity | undefined): SeverityName {
  return s === DiagnosticSeverity.Warning ? 'warning' : s === DiagnosticSeverity.Information ? 'information' : s === DiagnosticSeverity.Hint ? 'hint' : 'error';
}

export function fileStem(path: string): string {
  const base = posix.basename(toPosix(path));
  if (base.endsWith('.expert.json')) return base.slice(0, -'.expert.json'.length);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(0, dot) : base;
}

export function kindOf(input: Pick<DocumentInput, 'path' | 'config' | 'root' | 'kind'>): FileKind | undefined {
  if (input.kind) return input.kind;
  if (posix.basename(toPosix(input.path)) === '.subagents.yaml') return 'config';
  return dialectOf(input.path, input.config, input.root);
}

/** Parses a file, runs its dialect's rules in isolation and applies overrides and suppressions. */
export function analyze(input: DocumentInput): Analysis {
  const kind = kindOf(input);
  if (!kind) return { kind, diagnostics: [] };
  const source = new SourceText(input.text);
  if (kind === 'config') {
    const loaded = parseConfig(input.text, input.path, input.config.dir);
    const suppressions = findSuppressions(source, [{ start: 0, end: source.text.length }]);
    return { kind, diagnostics: finalize(loaded.findings, input.config.config, (f) => isSuppressed(suppressions, f.rule, f.range.start.line)) };
  }
  const unreadable = unreadableReason(input.text);
  if (unreadable) {
    const rule = kind === 'profy' ? 'syntax/json' : 'syntax/yaml';
    const finding: Finding = { rule, range: source.firstLine(), message: unreadable };
    return { kind, diagnostics: finalize([finding], input.config.config, () => false) };
  }
  const module = DIALECT_MODULES[kind];
  const path = toPosix(input.path);
  const file = input.parsed ?? module.parse(source, path);
  const context: RuleContext = {
    file,
    path,
    fileStem: fileStem(path),
    config: input.config.config,
    loaded: input.config,
    catalog: catalogFor(kind, input.config.config),
    workspace: input.workspace,
  };
  const findings: Finding[] = [...file.syntax];
  for (const rule of module.rules) {
    try {
      for (const finding of rule.check(context)) findings.push(finding);
    } catch (error) {
      input.onRuleError?.(rule.ids.join(', '), error);
    }
  }
  const suppressions = findSuppressions(source, file.yamlRegions);
  const diagnostics = finalize(findings, input.config.config, (f) => isSuppressed(suppressions, f.rule, f.range.start.line));
  return { kind, diagnostics, context };
}

/**
 * Diagnostics for findings made outside `analyze`, with the default severities: a
 * configuration file that cannot be read (its own `rules:` are unknown then).
 */
export function findingsToDiagnostics(findings: Finding[]): Diagnostic[] {
  return finalize(findings, defaultConfig(), () => false);
}

export { MAX_FILE_CHARS, unreadableReason } from './text/limits';

function finalize(findings: Finding[], config: SubagentsConfig, suppressed: (f: Finding) => boolean): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const f of findings) {
    const override = config.rules[f.rule];
    if (override === 'off' || suppressed(f)) continue;
    const meta = ruleMeta(f.rule);
    const severity = override ?? f.severity ?? meta?.defaultSeverity ?? 'error';
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
  return capPerRule(out.sort((a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character));
}

/** The resolution of SPEC §9 for a definition file; undefined for files that are not definitions. */
export function resolveAnalysis(analysis: Analysis, file: string): Resolution | undefined {
  if (!analysis.context || !analysis.kind || analysis.kind === 'config') return undefined;
  const module = DIALECT_MODULES[analysis.kind];
  return { file, dialect: module.dialect, definitions: module.resolve(analysis.context, analysis.diagnostics) };
}
