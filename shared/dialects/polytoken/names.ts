/** The name a Polytoken definition registers under: its `name`, else its file name (docs/runtimes/polytoken.md). */
import type { DialectNames } from '../module';
import { topLevelName } from '../common';
import { quickFrontmatterName } from '../../text/quick-name';

export const polytokenNames: DialectNames = {
  of: (file, stem) => [topLevelName(file, stem)],
  quick: (text) => quickFrontmatterName(text),
  // A later discovery folder's definition of the same name replaces this one (polytoken/shadowed).
  clash: true,
};
