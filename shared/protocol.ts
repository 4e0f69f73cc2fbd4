/**
 * The server's requests and commands beyond standard LSP, defined once for the server, the
 * VS Code client and other editors (docs/editors.md). Dependency-free: the client imports it.
 */
import type { Range, TextEdit } from 'vscode-languageserver-types';
import type { Resolution } from './results';

export type { Resolution, ResolvedDefinition, ResolveStatus } from './results';
/** How every view counts a tool set (the unknown entries apart): the client words its view with it too. */
export { toolCount } from './results';

/** `subagents/resolve`: the resolution of an open definition from the editor's current text. */
export const RESOLVE_REQUEST = 'subagents/resolve';
export interface ResolveParams {
  uri: string;
}
export type ResolveResult = Resolution | null;

/**
 * `subagents/preview`: the resolve preview of an open definition as Markdown (`label` names the
 * file in its heading), and the status bar's summary of it. Rendered by the server, so that the
 * client holds no engine code.
 */
export const PREVIEW_REQUEST = 'subagents/preview';
export interface PreviewParams {
  uri: string;
  label: string;
}
export interface StatusSummary {
  text: string;
  tooltip: string;
}
export interface PreviewResult {
  markdown: string;
  status: StatusSummary;
}

/** The VS Code extension's own command (a live preview); lenses carry it when the client says it implements it. */
export const CLIENT_RESOLVE_COMMAND = 'subagents.resolve';
/** The server's command for every other editor (`workspace/executeCommand`). */
export const SERVER_RESOLVE_COMMAND = 'subagents.server.resolve';

/**
 * A client command (argument: the page's URL) that opens a rule's documentation page; the quick
 * fix menu offers *Show documentation for rule* when the client lists it in `clientCommands`.
 */
export const SHOW_RULE_DOCS_COMMAND = 'subagents.showRuleDocumentation';

/**
 * Request `subagents/newSubagent` (client → server): a new definition file, from its runtime's
 * skeleton (the same one the MCP server's prompt gives). Without `runtime` and `name`, only the
 * runtimes are answered (the first quick pick); with them, `problem` says why the name cannot be
 * used (the input box validates as the name is typed), else `file` is what to create.
 */
export const NEW_SUBAGENT_REQUEST = 'subagents/newSubagent';

export interface NewSubagentParams {
  runtime?: string;
  name?: string;
  /** The workspace folder the file goes into (its project folder). */
  folderUri?: string;
  /**
   * For a runtime whose files hold several definitions (`nested` below): the existing file to add
   * this one to, instead of a new file.
   */
  containerUri?: string;
}

export interface NewSubagentResult {
  /** `nested`: what one entry of a file holding several is called ("subagent"); such a runtime lists `containers`. */
  runtimes: { id: string; title: string; definition: string; nested?: string }[];
  /** Asked with a runtime and a folder but no name: the folder's files of that runtime that hold several definitions. */
  containers?: { uri: string; label: string }[];
  /** Why the name cannot be used (it would not load, break a rule, or the file exists). */
  problem?: string;
  /** The file to create (created exclusively by the client), and the description's value to select in it. */
  file?: { uri: string; text: string; selection: Range };
  /** The edits that add it to `containerUri` (applied by the client as a WorkspaceEdit), and the new description's range after them. */
  edit?: { uri: string; edits: TextEdit[]; selection: Range };
}

/** What the client may send in `initializationOptions`. */
export interface InitializationOptions {
  /** The `subagents` settings section, for clients without `workspace/configuration`. */
  settings?: unknown;
  /** Commands the client implements itself (the VS Code extension: `subagents.resolve`). */
  clientCommands?: string[];
  /** The client wants `subagents/documentPatterns` (it hands the server only the files it selects). */
  documentPatterns?: boolean;
  /**
   * The client answers `subagents/readDirectory`, `subagents/readFile` and `subagents/stat` (the VS
   * Code extension, with `vscode.workspace.fs`): the server then reads the workspace folders of
   * other schemes than `file:` through it, and in a browser every file.
   */
  fileSystem?: boolean;
}

/**
 * Server → client file system requests, for what the server cannot read itself (a virtual
 * workspace; in a Web Worker, everything). Each takes a batch of URIs and answers one result per
 * URI, in order, so that a folder of a hundred files is one round trip, not a hundred.
 */
export const READ_DIRECTORY_REQUEST = 'subagents/readDirectory';
export const READ_FILE_REQUEST = 'subagents/readFile';
export const STAT_REQUEST = 'subagents/stat';
export type FsEntryKind = 'file' | 'folder';
export interface FsBatchParams {
  uris: string[];
}
/**
 * Per folder: its regular files and folders (links to folders are left out: never followed), or null when it cannot be
 * listed.
 */
export interface ReadDirectoryResult {
  entries: ([name: string, kind: FsEntryKind][] | null)[];
}
export interface ReadFileParams extends FsBatchParams {
  /** A larger file is not read: its result says so. */
  maxBytes: number;
}
/** Per file: its text (UTF-8), or why it was not read. */
export interface ReadFileResult {
  files: ({ text: string } | { error: string })[];
}
export interface StatResult {
  kinds: (FsEntryKind | null)[];
}

/**
 * Server → client `subagents/documentPatterns`: the definition files beyond the default globs
 * (`files:` globs of each `.subagents.yaml`, `polytoken.subagentDirs` inside the workspace), as
 * patterns relative to a folder (LSP `RelativePattern`). Sent after each index build when they
 * changed, first after start-up, to clients that set `initializationOptions.documentPatterns`;
 * the VS Code extension adds them to its document selector.
 */
export const DOCUMENT_PATTERNS_NOTIFICATION = 'subagents/documentPatterns';
export interface DocumentPattern {
  /** A folder's URI (`file:`, or a virtual workspace's). */
  baseUri: string;
  /** A glob relative to it. */
  pattern: string;
}
export interface DocumentPatternsParams {
  patterns: DocumentPattern[];
}

/**
 * `subagents/workspace` (params `{}`): every definition of the workspace with the runtime's
 * verdict, for the Subagents view and any other editor. Computed in the background and cached
 * per file; `complete` is false while the first indexing is still running.
 */
export const WORKSPACE_REQUEST = 'subagents/workspace';
export interface WorkspaceParams {
  /**
   * Optional: only the definitions of these files (what a `subagents/workspaceChanged` named); a file without any
   * answers none.
   */
  uris?: string[];
}

/** The runtime's verdict, plus `shadowed`: a Polytoken definition a later one of the same name replaces. */
export type DefinitionStatus = 'loads' | 'rejected' | 'dropped' | 'shadowed';

export interface ProblemCounts {
  errors: number;
  warnings: number;
  information: number;
  hints: number;
}

export interface WorkspaceDefinition {
  /** The file's URI; a Profy Expert's subagents share it. */
  uri: string;
  name: string;
  /** The dialect's id. */
  dialect: string;
  /**
   * Where it belongs under its runtime (see `WorkspaceRuntime.groupKind`): the project or folder (workspace-relative),
   * or a Profy Expert's name.
   */
  group: string;
  status: DefinitionStatus;
  /** How many tools the runtime grants it (the unknown ones included). */
  tools: number;
  /**
   * Optional: how many of those the catalog does not know (`ResolvedDefinition.unknown`); absent from an older server.
   */
  unknown?: number;
  /**
   * The definition's problems as shown (after `rules:` and suppression comments): the file's; in a Profy Expert, its
   * entry's plus the Expert's own.
   */
  problems: ProblemCounts;
  /** The name's range, where a click opens the definition. */
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  /** Its index among the file's definitions (Profy: the `subagents` entry), to pick it from `subagents/resolve`. */
  index: number;
  /** Optional: the rules behind a status other than `loads` (rule ids, as in the resolution's `reasons`). */
  reasons?: string[];
  /** Optional: those of `reasons` the display settings hide or downgrade (the runtime applies them all the same). */
  silenced?: string[];
  /**
   * Optional, `shadowed` only: the definition that replaces it (workspace-relative path, or absolute outside the
   * folder).
   */
  shadowedBy?: string;
}

/** A runtime as the view shows it, so that a client needs no list of dialects of its own. */
export interface WorkspaceRuntime {
  /** The dialect id (`WorkspaceDefinition.dialect`). */
  id: string;
  /** Its name as people read it ("Polytoken"). */
  title: string;
  /** A product icon (codicon) name for it. */
  icon: string;
  /** What its list holds and how it is grouped ("Picasso roles, by folder"). */
  tooltip: string;
  /**
   * What its groups are (`WorkspaceDefinition.group`): a project (or discovery folder), a folder, or the file's own
   * definition (a Profy Expert).
   */
  groupKind: 'project' | 'folder' | 'definition';
}

export interface WorkspaceResult {
  definitions: WorkspaceDefinition[];
  /** Every registered runtime, in the order to show them. */
  runtimes: WorkspaceRuntime[];
  /** False while the first indexing still runs (the view shows what there is, and is told when more comes). */
  complete: boolean;
}

/**
 * Server → client: definitions changed (added, removed, re-checked); the client asks `subagents/workspace` again or for
 * the URIs it shows.
 */
export const WORKSPACE_CHANGED_NOTIFICATION = 'subagents/workspaceChanged';
export interface WorkspaceChangedParams {
  /** The files whose definitions changed; empty when everything may have (configuration change, rebuild). */
  uris: string[];
}
