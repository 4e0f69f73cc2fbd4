import type { DialectModule } from '../../engine';
import { parseMarkdownFile } from '../../text/document';

export const polytoken: DialectModule = {
  dialect: 'polytoken',
  parse: (source) => parseMarkdownFile(source),
  rules: [],
  resolve: () => [],
};
