import type { DialectModule } from '../../engine';
import { parseMarkdownFile, parseYamlFile } from '../../text/document';

export const picasso: DialectModule = {
  dialect: 'picasso',
  parse: (source, path) => (path.endsWith('.md') ? parseMarkdownFile(source, { yamlWithoutFrontmatter: true }) : parseYamlFile(source)),
  rules: [],
  resolve: () => [],
};
