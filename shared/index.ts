/**
 * The engine's public surface: what the language server, the CLI and tests use. Everything
 * here is pure (text, a path and the configuration in; plain LSP types out) except the
 * `node/` helpers, which read the file system (configuration discovery, the workspace check).
 */
export type * from './types';
export {
  analyze,
  defaultSeverity,
  fileStem,
  findingsToDiagnostics,
  kindOf,
  resolveAnalysis,
  severityName,
  unreadableReason,
  DIALECT_MODULES,
  MAX_FILE_CHARS,
} from './engine';
export { RULES, ruleDocsUrl, ruleMeta, isRuleId, type RuleMeta } from './rules/registry';
export {
  CONFIG_FILE_NAME,
  defaultConfig,
  defaultLoadedConfig,
  parseConfig,
  type LoadedConfig,
  type SubagentsConfig,
} from './config/config';
export { catalogFor, type Catalog } from './catalog/catalog';
export { DEFAULT_GLOBS, dialectOf, toPosix } from './files';
export * from './protocol';

// Editor features: pure functions over an analysis.
export { completions, type CompletionOptions } from './features/completion';
export { hover } from './features/hover';
export { codeActions, FIX_ALL_KIND, type CodeActionOptions } from './features/code-actions';
export { codeLenses } from './features/code-lens';
export { definition, type DefinitionHost } from './features/definition';
export {
  documentSymbols,
  foldingRanges,
  workspaceSymbols,
  definitionNames,
  type IndexedFile,
  type IndexedName,
} from './features/symbols';
export { resolveWithProvenance } from './features/resolve';
export { renderResolution, renderError, summarize } from './docs/resolution';

// Fixes: every preferred fix at once ("Fix all", `--fix`).
export { fixAll, applyFixes, preferredFixes, type FixAllOptions, type FixAllResult } from './fixes/apply';
export { fixPlansFor, rulesWithFixes } from './fixes/registry';

// Node-only helpers.
export { checkPaths, MissingPathError, type CheckRun } from './node/check';
export type { CheckOptions, FileReport } from './node/check-types';
export { ConfigResolver, type ConfigOptions } from './node/config-loader';
