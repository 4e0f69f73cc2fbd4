/** A new definition of a dialect, as text: its module's skeleton without the snippet placeholders. */
import type { Dialect } from '../basics';
import { dialectModule, dialectModules } from '../dialects';
import { snippetText } from './kit/completion-items';

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
