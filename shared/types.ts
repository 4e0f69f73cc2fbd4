/**
 * The engine's shapes: what a rule sees, what a dialect module provides, what an analysis
 * holds. The leaf vocabularies (`basics.ts`, `results.ts`) are re-exported for convenience;
 * modules the types below refer to (text/, config/, catalog/) import those leaves directly,
 * so that no import cycle goes through this file.
 */
import type { Diagnostic, Range, SymbolKind, TextEdit } from 'vscode-languageserver-types';
import type { Dialect, FileKind, SeverityName } from './basics';
import type { Catalog } from './catalog/catalog';
import type { ConfigDocument, LoadedConfig, SubagentsConfig } from './config/types';
import type { Finding } from './results';
import type { ParsedFile } from './text/document';
import type { SuppressionDirective } from './text/suppress';
import type { AstNode } from './text/tree';

export * from './basics';
export * from './results';

/**
 * A rule id (`<group>/<name>`). Each dialect types its own (`PolytokenRuleId`…); the engine takes any registered one.
 */
export type RuleId = string;

/** A definition somewhere in the workspace, as a rule about names in other files sees it. */
export interface NamedDefinition {
  path: string;
  name: string;
}

/**
 * What the engine knows of other files: the definitions of each dialect whose names clash
 * across files (Polytoken shadowing, Picasso duplicate roles), by name.
 */
export interface WorkspaceIndex {
  /** The definitions of `dialect` registered under `name`, in the index's order; undefined: none. */
  byName(dialect: Dialect, name: string): readonly NamedDefinition[] | undefined;
}

/** A definition a file declares, by name, and where the name is (symbols, the workspace index). */
export interface IndexedName {
  name: string;
  range: Range;
  symbolKind: SymbolKind;
  /** For a definition inside another (a Profy subagent): the name of the one holding it. */
  container?: string;
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

/** What a rule, a fix and a resolver see of one file. `model` is the dialect's reading of it, built once. */
export interface RuleContext<M = unknown> {
  file: ParsedFile;
  /** Absolute, posix separators. */
  path: string;
  /** The file name without its extension. */
  fileStem: string;
  config: SubagentsConfig;
  loaded: LoadedConfig;
  catalog: Catalog;
  workspace?: WorkspaceIndex;
  model: M;
}

/** One quick fix as the engine plans it; features turn it into an LSP CodeAction. */
export interface FixPlan {
  title: string;
  /** Text edits in this file (offsets already turned into ranges). */
  edits: TextEdit[];
  /** A file rename, applied after the edits (editors only; `--fix` never renames). */
  rename?: { newPath: string };
  /** The fix most likely meant; "Fix all" and `--fix` apply preferred fixes. */
  preferred?: boolean;
}

/** The diagnostic a fix is asked for, in the file it is about (a definition or `.subagents.yaml`). */
export interface FixTarget {
  ctx: { file: ParsedFile };
  diagnostic: Diagnostic;
  /** The finding's `data` (from the engine's own diagnostic, also when the client dropped it). */
  data: Record<string, unknown>;
  /** The diagnostic's range as offsets. */
  start: number;
  end: number;
  /** The node whose span is the range (or the deepest one holding its start). */
  node?: AstNode;
  /** The file's suppression comments, as the analysis read them. */
  directives: readonly SuppressionDirective[];
}

/** The diagnostic a fix is asked for, with the engine's own facts about it. */
export interface FixRequest<M = unknown> extends FixTarget {
  ctx: RuleContext<M>;
}

export type FixProvider<M = unknown> = (request: FixRequest<M>) => FixPlan[];

/** A check of one rule or a small group of rules, with the fixes of each, registered beside it. */
export interface Rule<M = unknown, Id extends string = RuleId> {
  /** The rule ids this check reports. */
  ids: readonly Id[];
  check(ctx: RuleContext<M>): Finding<Id>[];
  /** Quick fixes by rule id (every id with a fix has one here). */
  fixes?: Partial<Record<Id, FixProvider<M>>>;
}

/** What the resolver is told besides the model: the findings (default severities) and what is shown. */
export interface Outcome {
  findings: readonly Finding[];
  diagnostics: readonly Diagnostic[];
  /**
   * A finding's severity before any display setting (its own, else its rule's default): the runtime's verdict reads it.
   */
  defaultSeverity(finding: Finding): SeverityName;
}

/** What a file was analysed with, besides its text: a fix is verified by analysing the fixed text the same way. */
export type AnalysisInput = Omit<DocumentInput, 'text' | 'parsed' | 'onRuleError'>;

/** One file analysed: its parse, context, model, findings and final diagnostics. Cache it per document version. */
export interface Analysis {
  kind: FileKind | undefined;
  /** A definition file's path (posix): a file that cannot be read or parsed is named from it. */
  path?: string;
  /** The input without its text (analyses made outside `analyze`, of files that cannot be read, have none). */
  input?: AnalysisInput;
  /** What the editor and the CLI show: after `rules:` overrides and suppression comments. */
  diagnostics: Diagnostic[];
  /** What the rules found, with their own severities: the runtime's verdict reads these. */
  findings: Finding[];
  context?: RuleContext<unknown>;
  /** A `.subagents.yaml`: its parsed text and settings, for the editor features and its fixes. */
  configDocument?: ConfigDocument;
  /** The suppression comments the diagnostics were filtered with (the editor features read them). */
  directives?: SuppressionDirective[];
}
