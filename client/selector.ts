/**
 * Which files the extension hands to the language server: the default definition globs of
 * docs/runtimes/ and the project configuration. Kept as plain data so the extension never touches
 * other Markdown, YAML or JSON files (the server decides the dialect by path; see shared/files.ts).
 */
import { DEFAULT_GLOBS } from '../shared/globs';

export const CONFIG_GLOB = '**/.subagents.yaml';

export const ALL_GLOBS: readonly string[] = [...Object.values(DEFAULT_GLOBS).flat(), CONFIG_GLOB];

/** One glob for file watchers: VS Code's brace syntax. */
export const WATCH_GLOB = `{${ALL_GLOBS.join(',')}}`;

/** Document filters for the language client (file scheme only: dialects are decided by path). */
export const DOCUMENT_SELECTOR = ALL_GLOBS.map((pattern) => ({ scheme: 'file', pattern }));
