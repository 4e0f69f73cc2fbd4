import type { DialectModule } from '../../engine';
import { parseJsonFile } from '../../text/document';

export const profy: DialectModule = {
  dialect: 'profy',
  parse: (source) => parseJsonFile(source),
  rules: [],
  resolve: () => [],
};
