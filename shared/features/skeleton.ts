/** A new definition of a dialect, as text: its module's skeleton without the snippet placeholders. */
import type { Dialect } from '../basics';
import { dialectModule, dialectModules } from '../dialects';
import { snippetText } from './kit/completion-items';
import type { Skeleton } from './kit/new-definition';

export type { Skeleton } from './kit/new-definition';

/** The text of a new definition named `name`; undefined for a kind no dialect has. */
export function skeletonText(dialect: Dialect, name: string): string | undefined {
  const module = dialectModule(dialect);
  return module && snippetText(module.skeleton(name));
}

/**
 * What the server analyses once per dialect at start-up: the module's warm-up sample (else its
 * skeleton), under a file name its first default glob takes (`warm.md`, `warm.expert.json`).
 */
export function warmUpSamples(): { dialect: Dialect; fileName: string; text: string }[] {
  const name = 'warm';
  return dialectModules().map((m) => ({
    dialect: m.id,
    fileName: (m.files.defaultGlobs[0]?.split('/').pop() ?? '*').replace(/\*/g, name),
    text: m.warmUpSample ?? snippetText(m.skeleton(name)),
  }));
}

/**
 * The skeleton of a new subagent `name` in `dialect`, its description taken from `purpose`; undefined for a kind no
 * dialect has.
 */
export function subagentSkeleton(dialect: Dialect, name: string, purpose: string): Skeleton | undefined {
  const module = dialectModule(dialect);
  if (!module) return undefined;
  if (module.newDefinition) return module.newDefinition(name, purpose);
  // The first default glob, made a path: `**/.tool/agents/*.yaml` → `.tool/agents/<name>.yaml`.
  const path = (module.files.defaultGlobs[0] ?? '*').replace(/^(\*\*\/)+/, '').replace(/\*/g, name);
  const language = path.endsWith('.json') ? 'json' : path.endsWith('.md') ? 'markdown' : 'yaml';
  return { path, language, text: snippetText(module.skeleton(name)), note: `A ${module.labels.definition}.` };
}
