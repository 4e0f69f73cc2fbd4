/**
 * Which files the extension hands to the language server: the definition globs the extension
 * declares in its package.json (`workspaceContains:` activation events, which a test holds equal to
 * the engine's default globs and the configuration file). Plain data, so the extension never
 * touches other Markdown, YAML or JSON files and holds no engine code (the server decides the
 * dialect by path).
 */

const ACTIVATION_PREFIX = 'workspaceContains:';

/** The globs of the `workspaceContains:` activation events of the extension's package.json. */
export function definitionGlobs(packageJSON: unknown): string[] {
  const events = (packageJSON as { activationEvents?: unknown } | undefined)?.activationEvents;
  if (!Array.isArray(events)) return [];
  return events
    .filter((e): e is string => typeof e === 'string' && e.startsWith(ACTIVATION_PREFIX))
    .map((e) => e.slice(ACTIVATION_PREFIX.length));
}

/** One glob for file watchers: VS Code's brace syntax. */
export const watchGlob = (globs: readonly string[]): string => `{${globs.join(',')}}`;

/**
 * Document filters for the language client: any scheme (`file:`, and a virtual workspace's
 * `vscode-vfs:` or `memfs:`), since dialects are decided by path; the server analyses a document
 * of a scheme it cannot read (`git:`) from its own text alone.
 */
export const documentSelector = (globs: readonly string[]) => globs.map((pattern) => ({ pattern }));
