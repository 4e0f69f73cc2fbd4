import type { Dialect } from './basics';

/**
 * The default globs per dialect, relative to a workspace folder (or anywhere below it).
 * Plain data, free of dependencies, so the extension client can import it too.
 */
export const DEFAULT_GLOBS: Record<Dialect, readonly string[]> = {
  polytoken: ['**/.polytoken/subagents/*.md'],
  picasso: ['**/.picasso/agents/*.md', '**/apps/cli/agents/*.yaml', '**/apps/cli/agents/*.yml'],
  profy: ['**/*.expert.json'],
};
