/**
 * The configuration's shapes (`.subagents.yaml` as the engine holds it), apart from the code that
 * reads it (config.ts), so that the dialects can name them.
 */
import type { Dialect, SeveritySetting } from '../basics';
import type { Finding } from '../results';
import type { ParsedFile } from '../text/document';

export const CONFIG_FILE_NAME = '.subagents.yaml';

export interface ToolEntry {
  name: string;
  description?: string;
  tags: string[];
}

export interface SubagentsConfig {
  /** Extra globs of each dialect's files (`files.<dialect>`). */
  files: Partial<Record<Dialect, string[]>>;
  ignore: string[];
  /** Tools each dialect's runtime knows besides its built-in ones (`tools.<dialect>`). */
  tools: Partial<Record<Dialect, ToolEntry[]>>;
  mcp: Record<string, string[]>;
  rules: Record<string, SeveritySetting>;
  /**
   * Each dialect's own section (`polytoken:`, `profy:`), as its module read it: a dialect reads its own through
   * `sectionOf`.
   */
  sections: Partial<Record<Dialect, unknown>>;
  /**
   * Only while the file has errors: every name it mentions, in its valid and invalid parts. A
   * did-you-mean fix does not rewrite a tool among them (it may be declared in a dropped part).
   */
  mentioned?: ReadonlySet<string>;
}

/** A dialect's section of the configuration; its defaults (`read(undefined)`) when the configuration holds none. */
export function sectionOf<S>(config: SubagentsConfig, dialect: Dialect, read: (raw: unknown) => S): S {
  const section = config.sections[dialect];
  return section === undefined ? read(undefined) : (section as S);
}

/** The configuration in force for a file, and where it came from. */
export interface LoadedConfig {
  config: SubagentsConfig;
  /** The `.subagents.yaml` it was read from; undefined for the defaults. */
  path?: string;
  /** The folder relative paths and globs in it resolve against (posix). */
  dir: string;
  /** `config/invalid` findings, reported on the configuration file. */
  findings: Finding[];
  /**
   * The global folder in force (absolute, posix; Polytoken's: read for names, never reported); undefined when turned
   * off.
   */
  globalDir?: string;
}

/** The configuration file as the editor features read it: its parsed text and the settings it gives. */
export interface ConfigDocument {
  file: ParsedFile;
  /** What the file configures (its valid parts; the defaults while it is not a YAML mapping). */
  config: SubagentsConfig;
}
