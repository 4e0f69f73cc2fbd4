/**
 * The one plug-in: everything a runtime means reaches the rest of the product through its
 * `DialectModule` (one per folder, `shared/dialects/<id>/index.ts`), and the registry
 * (`shared/dialects/index.ts`) lists them. Features, the workspace index, the node helpers and
 * the CLI ask the module; none of them names a dialect.
 */
import type { LoadedConfig } from '../config/types';
import type { BuiltinTool } from '../catalog/catalog';
import type { SourceText } from '../text/source';
import type { ParsedFile } from '../text/document';
import type { ResolvedDefinition } from '../results';
import type { RuleMeta } from '../rules/ids';
import type { QuickName } from '../text/quick-name';
import type { IndexedName, Outcome, Rule, RuleContext } from '../types';

/** How the paths of a dialect's files are recognized. */
export interface DialectFiles {
  /** Globs of its definition files, relative to a workspace folder (or anywhere below it). */
  readonly defaultGlobs: readonly string[];
  /** Where a project keeps its definitions, relative to the project's folder (`.polytoken/subagents`): watched in each workspace folder. */
  readonly projectFolder?: string;
  /** The glob, relative to a discovery folder, of the definition files in it (`*.md`); without it, no discovery folders. */
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
  /** Its keys that list tool names of the dialect's catalog (`facetTools`): completion and hover in `.subagents.yaml` offer them. */
  readonly toolLists?: readonly string[];
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
  /** Where it is listed for people, lower first: the workspace view's runtimes, the configuration schema's `files` and `tools`. */
  readonly displayOrder: number;
  /** Its `.subagents.yaml` section, when it has settings of its own. */
  readonly section?: DialectSection;
  readonly files: DialectFiles;
  /** The syntax rule of its format (`syntax/yaml` or `syntax/json`): a file too large or binary to parse is reported under it. */
  readonly syntaxRule: 'syntax/yaml' | 'syntax/json';
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
  /** The definitions in the file and what the runtime grants each. */
  resolve(ctx: RuleContext<M>, outcome: Outcome): ResolvedDefinition[];
}
