// Writes snippets/<language>.json, the editor snippets of new definitions, from each dialect
// module's skeleton (shared/features/snippets.ts); package.json contributes them, and
// test/snippets.test.ts fails when they are stale.
// Usage: npm run gen:snippets
import * as fs from 'fs';
import * as path from 'path';
import { definitionSnippets, snippetFileText } from '../shared/features/snippets';

const root = path.resolve(__dirname, '../..');
fs.mkdirSync(path.join(root, 'snippets'), { recursive: true });
for (const file of definitionSnippets()) {
  const target = path.join(root, 'snippets', `${file.language}.json`);
  fs.writeFileSync(target, snippetFileText(file));
  console.log(`wrote ${path.relative(root, target)}`);
}
