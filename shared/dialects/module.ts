/**
 * The one plug-in: everything a runtime means reaches the rest of the product through its
 * `DialectModule` (one per folder, `shared/dialects/<id>/index.ts`), and the registry
 * (`shared/dialects/index.ts`) lists them. Features, the workspace index, the node helpers and
 * the CLI ask the module; none of them names a dialect.
 */
import type { LoadedConfig } from '../config/config';
import type { BuiltinTool } from '../catalog/catalog';
import type { SourceText } from '../text/source';
import type { ParsedFile } from '../text/document';
import type { ResolvedDefinition } from '../results';
import type { Outcome, Rule, RuleContext } from '../types';

/** How the paths of a dialect's files are recognized. */
export interface DialectFiles {
  /** Globs of its definition files, relative to a workspace folder (or anywhere below it). */
  readonly defaultGlobs: readonly string[];
  /**
   * Folders (absolute, posix) whose files belong to the dialect wherever they are, for this
   * configuration: Polytoken's global folder (read for names, never reported) and `subagentDirs`.
   */
  discoveryFolders?(loaded: LoadedConfig): readonly string[];
  /** Which file names of a discovery folder are definitions (default: none). */
  isDiscoveryFile?(name: string): boolean;
  /** The file name without its extension, as the runtime reads it; undefined: up to the last dot. */
  stem?(base: string): string | undefined;
}

export interface DialectModule<M = any, Id extends string = string> {
  /** The rule-id prefix, the `.subagents.yaml` section and `files.<id>` / `tools.<id>` key, the docs folder. */
  readonly id: Id;
  /** The runtime's name as text shows it ("Polytoken"). */
  readonly title: string;
  readonly files: DialectFiles;
  /** The syntax rule of its format (`syntax/yaml` or `syntax/json`): a file too large or binary to parse is reported under it. */
  readonly syntaxRule: 'syntax/yaml' | 'syntax/json';
  /** The tools the runtime provides itself: the catalog starts from these. */
  readonly tools: readonly BuiltinTool[];
  parse(source: SourceText, path: string): ParsedFile;
  /** The dialect's reading of the file (definitions, tool entries and their meanings): built once per analysis. */
  model(ctx: RuleContext<undefined>): M;
  /** The checks, each with its quick fixes beside it (read at every analysis: tests may swap them). */
  rules: readonly Rule<M>[];
  /** The definitions in the file and what the runtime grants each. */
  resolve(ctx: RuleContext<M>, outcome: Outcome): ResolvedDefinition[];
}
