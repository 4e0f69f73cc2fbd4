/**
 * The one plug-in: everything a runtime means reaches the rest of the product through its
 * `DialectModule` (one per folder, `shared/dialects/<id>/index.ts`), and the registry
 * (`shared/dialects/index.ts`) lists them. Features, the workspace index, the node helpers and
 * the CLI ask the module; none of them names a dialect.
 */
import type { Skeleton } from '../features/kit/new-definition';
import type { CompletionItem, Hover } from 'vscode-languageserver-types';
import type { Dialect } from '../basics';
import type { LoadedConfig } from '../config/types';
import type { KeyDoc } from '../docs/key-doc';
import type { Candidate, CompletionOptions } from '../features/kit/completion-items';
import type { YamlCursor } from '../features/kit/yaml-context';
import type { AstNode } from '../text/tree';
import type { BuiltinTool } from '../catalog/catalog';
import type { SourceText } from '../text/source';
import type { ParsedFile } from '../text/document';
import type { ResolvedDefinition } from '../results';
import type { RuleMeta } from '../rules/ids';
import type { QuickName } from '../text/quick-name';
import type { FixPlan, IndexedName, Outcome, Rule, RuleContext } from '../types';

/** How the paths of a dialect's files are recognized. */
export interface DialectFiles {
  /** Globs of its definition files, relative to a workspace folder (or anywhere below it). */
  readonly defaultGlobs: readonly string[];
  /**
   * Where a project keeps its definitions, relative to the project's folder (`.polytoken/subagents`): watched in each
   * workspace folder.
   */
  readonly projectFolder?: string;
  /**
   * The glob, relative to a discovery folder, of the definition files in it (`*.md`); without it, no discovery folders.
   */
  readonly discoveryPattern?: string;
  /**
   * The configuration's discovery folders (absolute, posix), in discovery order: folders whose
   * files of `discoveryPattern` belong to the dialect wherever they are (Polytoken's `subagentDirs`).
   */
  discoveryFolders?(loaded: LoadedConfig): readonly string[];
  /**
   * The dialect owns the global folder (`LoadedConfig.globalDir`, a discovery folder outside
   * the projects, read for names and never reported): where the configuration puts it, and
   * its place under `$XDG_CONFIG_HOME` by default. At most one dialect owns it.
   */
  readonly globalFolder?: {
    configured(loaded: Pick<LoadedConfig, 'config'>): string | undefined;
    readonly underConfigHome: string;
  };
  /** The file name without its extension, as the runtime reads it; undefined: up to the last dot. */
  stem?(base: string): string | undefined;
  /**
   * The folders (absolute, posix) whose definitions can clash with the one at `path` besides the
   * discovery folders (which are always read): a file, glob or unsaved text checked on its own is
   * checked with them around it, so that it gets what `check .` reports for it (Polytoken: the
   * project's `.polytoken/subagents/`, which shadows `subagentDirs`; Picasso: the project's two
   * role folders). Only their names are read.
   */
  neighbourFolders?(path: string, loaded: LoadedConfig): readonly string[];
  /**
   * Globs (matched against the whole path) of files an author most likely meant as definitions
   * of this dialect but that its runtime never reads (`**\/.polytoken/agents/*.md`): a check that
   * finds no definition names the first such file and where the runtime looks instead.
   */
  readonly nearMisses?: readonly string[];
}

/**
 * The names a file registers: the one fact the workspace index, the CLI, symbols, shadowing
 * and the workspace view read.
 */
export interface DialectNames {
  /**
   * Every definition the file declares, the file's own first: one for a file that holds one
   * definition (its `name`, else the file's stem), the Expert and then each named subagent for Profy.
   */
  of(file: ParsedFile, stem: string): IndexedName[];
  /**
   * The file's own name read off the text without a parse (`text` without a BOM), when the
   * text is plain enough to be sure; undefined: the caller parses. Must agree with `of` on
   * every file that parses cleanly.
   */
  quick?(text: string, path: string): QuickName | undefined;
  /**
   * The names clash across files (Polytoken: a later definition shadows; Picasso: duplicate
   * roles): the workspace index groups the files by name and the CLI names them first.
   */
  readonly clash: boolean;
}

/** A dialect's own section of `.subagents.yaml` (`polytoken:`, `profy:`), read as its settings `S`. */
export interface DialectSection<S = unknown> {
  /**
   * The section's JSON Schema (draft-07), composed into the configuration schema by
   * shared/config/schema.ts; it may refer to the configuration schema's own definitions
   * (`#/definitions/names`, `globs`, `tools`, `severity`).
   */
  readonly schema: Readonly<Record<string, unknown>>;
  /** The settings from the section's plain value (valid against `schema`); `read(undefined)` gives the defaults. */
  read(raw: unknown): S;
  /**
   * Its keys that list tool names of the dialect's catalog (`facetTools`): completion and hover in `.subagents.yaml`
   * offer them.
   */
  readonly toolLists?: readonly string[];
}

/** The analysed definition file an editor feature works on, with its dialect's module and model. */
export interface FeatureFile<M = any> {
  dialect: Dialect;
  module: DialectModule<M>;
  ctx: RuleContext<M>;
  model: M;
  text: string;
  root?: AstNode;
  /**
   * Hover text of a tool name of this dialect: the catalog's facts and which runtimes have it built in; `near`, the
   * nearest name the catalog knows.
   */
  describeTool(name: string, near?: string): string;
}

/** A dialect's key documentation: hover, completion and docs/keys/<id>.md read it. */
export interface DialectKeys {
  /** By path pattern: `name`, `polytoken.tools`, `subagents.[].name` (`[]` for any list index). */
  readonly table: Readonly<Record<string, KeyDoc>>;
  /**
   * The documentation of a key the table cannot list (Polytoken: JSON Schema keywords inside `exit_tool_schema`), asked
   * when the table has none.
   */
  docAt?(path: readonly (string | number)[]): KeyDoc | undefined;
  /** The keys a mapping at this path may hold, when the table does not say (Polytoken: inside `exit_tool_schema`). */
  under?(parentPath: readonly (string | number)[]): KeyDoc[] | undefined;
}

/** A definition the workspace index knows, as a rename sees it. */
export interface KnownDefinition {
  path: string;
  kind: Dialect;
  names: readonly { name: string }[];
}

export interface RenameOptions {
  /** The client can rename files in a WorkspaceEdit. */
  renameFiles?: boolean;
  /** Whether a file exists (a rename must not overwrite one). */
  exists(path: string): boolean;
  /** Every definition of the workspace (and of the discovery folders). */
  definitions: Iterable<KnownDefinition>;
  /** The workspace folder of the file: names that must be unique in a project are looked for in it. */
  scope?: string;
}

/** Why a rename is refused, for the editor to show. */
export interface Refusal {
  error: string;
}

/**
 * What F2 renames: the node the cursor is on and the definition's current name (`entry`: the dialect's own handle on
 * it).
 */
export interface RenameTarget {
  node: AstNode;
  name: string;
  entry?: unknown;
}

/** A rename as the dialect plans it: the edits (and file rename), and what to tell the author. */
export type RenamePlan = { plan: FixPlan; notes: string[] } | Refusal;

/** What an inlay hint hook reports: after `node`, a label and (made on demand) the tooltip's paragraphs. */
export type AddHint = (node: AstNode, label: () => string, tooltip: () => string[]) => void;

/**
 * A dialect's editor features. The shared features (features/*) place the cursor, build the
 * generic answers from `keys` and `toolLists`, and call these hooks for what only the dialect knows.
 */
export interface DialectEditor<M = any> {
  readonly keys: DialectKeys;
  /** The lists whose entries are tool names, as path patterns (`polytoken.tools`, `subagents.[].tools`). */
  readonly toolLists: readonly string[];
  /**
   * The rule reporting a tool the catalog does not know: its diagnostics also offer declaring the tool in
   * `.subagents.yaml`.
   */
  readonly unknownToolRule?: string;
  /**
   * A list whose items are definitions of their own (Profy's `subagents`): document symbols name each (`label` without
   * a name).
   */
  readonly nestedDefinitions?: { readonly key: string; readonly label: string };
  /** Completion, whole: for a format the shared YAML completion does not read (Profy's JSON). */
  complete?(file: FeatureFile<M>, offset: number, options: CompletionOptions): CompletionItem[];
  /** Completion candidates at a YAML cursor (default: key docs, their values, and catalog names in tool lists). */
  yamlCandidates?(file: FeatureFile<M>, cursor: YamlCursor): Candidate[];
  /** Completion outside the YAML region (a Markdown body, a file without frontmatter). */
  completeOutsideYaml?(file: FeatureFile<M>, offset: number, options: CompletionOptions): CompletionItem[] | undefined;
  /** Hover outside the YAML region. */
  hoverOutsideYaml?(file: FeatureFile<M>, offset: number): Hover | undefined;
  /**
   * Hover text of a list entry (`node` undefined for text that does not parse); default: a tool name in a tool list.
   */
  entryHover?(file: FeatureFile<M>, listPath: (string | number)[], value: string, node?: AstNode): string | undefined;
  /** Hover text of a string value, given the key's own documentation (Picasso: what a memory scope refuses). */
  scalarHover?(file: FeatureFile<M>, path: (string | number)[], value: string, keyDoc: string): string;
  /** Inlay hints: after each entry that stands for several tools, how many it grants now. */
  inlayHints?(file: FeatureFile<M>, add: AddHint): void;
  /** The literal tool entries the definition grants and then takes away again (shown faded), and what removes each. */
  removedTools?(file: FeatureFile<M>): { node: AstNode; tool: string; by: string }[];
  /** Rename (F2): the name under the cursor, and the plan for a new name. */
  readonly rename?: {
    target(file: FeatureFile<M>, offset: number): RenameTarget | Refusal;
    plan(file: FeatureFile<M>, target: RenameTarget, newName: string, options: RenameOptions): RenamePlan;
  };
}

export interface DialectModule<M = any, Id extends string = string> {
  /** The rule-id prefix, the `.subagents.yaml` section and `files.<id>` / `tools.<id>` key, the docs folder. */
  readonly id: Id;
  /** The runtime's name as text shows it ("Polytoken"). */
  readonly title: string;
  readonly labels: {
    /** What one definition is called ("Polytoken subagent", "Picasso role", "Profy Expert"): symbols, the view. */
    readonly definition: string;
    /** What its files are ("Picasso role files"): the configuration schema's `files.<id>`. */
    readonly files: string;
  };
  /**
   * Where it is listed for people, lower first: the workspace view's runtimes, the configuration schema's `files` and
   * `tools`.
   */
  readonly displayOrder: number;
  /** Its `.subagents.yaml` section, when it has settings of its own. */
  readonly section?: DialectSection;
  readonly files: DialectFiles;
  /**
   * The syntax rule of its format (`syntax/yaml` or `syntax/json`): a file too large or binary to parse is reported
   * under it.
   */
  readonly syntaxRule: 'syntax/yaml' | 'syntax/json';
  /**
   * Syntax messages in the runtime's terms, by the parser's error code (`MULTIPLE_DOCS`): they replace the generic
   * wording.
   */
  readonly syntaxMessages?: Readonly<Record<string, string>>;
  /** The tools the runtime provides itself: the catalog starts from these. */
  readonly tools: readonly BuiltinTool[];
  readonly names: DialectNames;
  parse(source: SourceText, path: string): ParsedFile;
  /** The dialect's reading of the file (definitions, tool entries and their meanings): built once per analysis. */
  model(ctx: RuleContext<undefined>): M;
  /** The checks, each with its quick fixes beside it (read at every analysis: tests may swap them). */
  rules: readonly Rule<M>[];
  /** The metadata of its rules (id `<id>/<name>`, default severity, summary), in the order its docs describe them. */
  readonly ruleMeta: readonly RuleMeta[];
  /**
   * The definitions in the file and what the runtime grants each (a file that parses: the engine answers for one that
   * does not).
   */
  resolve(ctx: RuleContext<M>, outcome: Outcome): ResolvedDefinition[];
  /**
   * What the runtime does with a file it cannot parse (default `rejected`; Profy: the Expert
   * cannot load, so its subagents are `dropped`): the one definition such a file resolves to.
   */
  readonly unparsableStatus?: 'rejected' | 'dropped';
  /** A file holds one definition, or several (Profy: the Expert's subagents, each resolved and shown on its own). */
  readonly definitionsPerFile: 'one' | 'many';
  readonly editor: DialectEditor<M>;
  /** How the workspace view lists its definitions: the icon, a tooltip, and how they are grouped. */
  readonly view: {
    readonly icon: string;
    readonly tooltip: string;
    /**
     * `project`: by the project holding `files.projectFolder` (else the file's folder);
     * `folder`: by the file's folder; `definition`: by the file's own definition (a Profy Expert).
     */
    readonly groupKind: 'project' | 'folder' | 'definition';
  };
  /**
   * The text of a new definition file named `name`, as an LSP snippet (`${1:…}` placeholders):
   * completion in an empty file, the server's warm-up, a future "New Subagent…".
   */
  skeleton(name: string): string;
  /**
   * A new definition file named `name` for `purpose`, whole: where it goes, its text, what is
   * particular (the MCP server's prompt). Default: the skeleton, at its first default glob.
   */
  newDefinition?(name: string, purpose: string): Skeleton;
  /**
   * A small definition that goes through the dialect's costlier checks (JIT, schema compiling):
   * the server analyses it once at start-up so that the first keystroke does not pay for them.
   * Default: the skeleton.
   */
  readonly warmUpSample?: string;
}
