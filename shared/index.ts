/**
 * The engine's public surface (pure: text, a path and the configuration in; plain LSP types
 * out). `server/` and `cli/` import the engine through this module and `node/index.ts` only
 * (test/public-face.test.ts holds them to it); `client/` imports only `protocol.ts`.
 */
export type * from './types';
export { analyze, findingsToDiagnostics, resolveAnalysis } from './engine';
export {
  dialectOf,
  discoveryWatches,
  fileStem,
  folderDialects,
  kindOf,
  nearMissOf,
  recognitionKey,
} from './recognition';
export { severityName } from './severity';
export { MAX_FILE_CHARS, unreadableReason } from './text/limits';
export {
  DIALECTS,
  DIALECT_MODULES,
  dialectModule,
  dialectModules,
  dialectTitle,
  registerDialect,
  type BuiltinDialect,
} from './dialects';
export type { DialectModule } from './dialects/module';
export { RULES, defaultSeverity, ruleDocsUrl, ruleMeta, isRuleId, type RuleMeta } from './rules/registry';
export {
  CONFIG_FILE_NAME,
  defaultConfig,
  defaultLoadedConfig,
  parseConfig,
  type LoadedConfig,
  type SubagentsConfig,
} from './config/config';
export { unsafeGlobReason } from './config/glob-guard';
export { SEVERITY_SETTINGS } from './config/keys';
export type { Catalog } from './catalog/catalog';
export { catalogFor } from './catalog/by-dialect';
export { isInGlobalDir, relativeInside, toPosix } from './files';
export { SourceText } from './text/source';
export type { ParsedFile } from './text/document';
export { getValue } from './text/tree';
export { MAX_FILE_BYTES, sizeOverLimit, tooLargeReason } from './text/limits';
export { printable, printableBytes, printableJson } from './text/printable';
export { nearestName } from './text/nearest';
export * from './protocol';

// Editor features: pure functions over an analysis.
export { completions, type CompletionOptions } from './features/completion';
export { hover } from './features/hover';
export { codeActions, FIX_ALL_KIND, type CodeActionOptions } from './features/code-actions';
export { codeLenses, RESOLVE_COMMAND } from './features/code-lens';
export { definition, type DefinitionHost } from './features/definition';
export { ruleLinks } from './features/directives';
export { inlayHints } from './features/inlay-hints';
export { removedToolDiagnostics } from './features/removed-tools';
export { isRefusal, prepareRename, renameDefinition } from './features/rename';
export { documentSymbols, foldingRanges, workspaceSymbols } from './features/symbols';
export { summarizeFile, workspaceRuntimes, type SummaryPlace } from './features/workspace-summary';
export { resolveWithProvenance } from './features/resolve';
export {
  nestedDefinitionEdits,
  skeletonText,
  subagentSkeleton,
  warmUpSamples,
  type NestedInsertion,
  type Skeleton,
} from './features/skeleton';
export {
  definitionLanguage,
  definitionSnippets,
  snippetFileText,
  FILE_STEM_VARIABLE,
  type DefinitionSnippet,
  type SnippetFile,
} from './features/snippets';
export { renderResolution, renderError, summarize } from './docs/resolution';

// Fixes: every preferred fix at once ("Fix all", `--fix`).
export { fixAll, applyFixes, markFixable, preferredFixes, type FixAllOptions, type FixAllResult } from './fixes/apply';
export { offeredFixes } from './fixes/round';
export { fixPlansFor, rulesWithFixes } from './fixes/registry';
export { minimalEdit } from './fixes/edits';

// The workspace's definition names (the server's and the CLI's index).
export { DefinitionIndex } from './workspace/definitions';
export {
  definitionNames,
  discoveryFolders,
  isDiscoveryDefinition,
  neighbourFolders,
  nameIndex,
  nameKey,
  nameKeyOf,
  namesClash,
  namesFromText,
  quickName,
  readDiscoveryFolders,
  registeredName,
  type IndexedFile,
  type IndexEntry,
  type NameLists,
} from './workspace/names';
// How the engine reads a workspace (the disk's host is in node/, the editor's in server/mirror.ts).
export {
  describeError,
  inSkippedFolder,
  isSkippedFolder,
  readIfRegular,
  walkHost,
  type DirEntry,
  type EntryKind,
  type Homes,
  type WorkspaceHost,
} from './host';
export { ConfigResolver, globalDirFor, loadConfigFile, unreadableConfigFinding } from './config/resolver';
export { QUICK_NAMES } from './text/quick-name';
