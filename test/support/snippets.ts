/** A definition snippet as an editor inserts it into the file at `path`, every placeholder at its default. */
import { posix } from 'path';
import { FILE_STEM_VARIABLE, type DefinitionSnippet } from '../../shared';
import { snippetText } from '../../shared/features/kit/completion-items';

export function expandSnippet(snippet: DefinitionSnippet, path: string): string {
  const base = posix.basename(path);
  const stem = base.slice(0, base.lastIndexOf('.'));
  return snippetText(snippet.body.join('\n').split(FILE_STEM_VARIABLE).join(stem));
}

/** A file path a default glob matches, under `root`, named `stem`: `**\/.x/agents/*.md` → `/ws/.x/agents/<stem>.md`. */
export const pathOfGlob = (root: string, glob: string, stem: string): string =>
  `${root}/${glob.replace(/^(\*\*\/)+/, '').replace(/\*/g, stem)}`;
