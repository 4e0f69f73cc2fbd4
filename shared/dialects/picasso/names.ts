/** The name a Picasso role registers under: its `name`, else its file name (docs/runtimes/picasso.md). */
import type { DialectNames } from '../module';
import { topLevelName } from '../common';
import { quickFrontmatterName, quickYamlName } from '../../text/quick-name';

export const picassoNames: DialectNames = {
  of: (file, stem) => [topLevelName(file, stem)],
  // A `.md` role written without frontmatter is left to the parser (the frontmatter reader finds none).
  quick: (text, path) => (path.endsWith('.md') ? quickFrontmatterName(text) : quickYamlName(text)),
  // Two role files of one project with one name: picasso/duplicate-role.
  clash: true,
};
