// Writes docs/keys/<dialect>.md from the key documentation hover shows (shared/docs/keys.ts).
// Usage: npx tsc -p . && node out/scripts/gen-key-docs.js
import * as fs from 'fs';
import * as path from 'path';
import { keyReferenceMarkdown } from '../shared/docs/keys';
import { DIALECTS } from '../shared/dialects';

const root = path.resolve(__dirname, '../..');
fs.mkdirSync(path.join(root, 'docs/keys'), { recursive: true });
for (const dialect of DIALECTS) {
  const file = path.join(root, 'docs/keys', `${dialect}.md`);
  fs.writeFileSync(file, keyReferenceMarkdown(dialect));
  console.log(`wrote ${path.relative(root, file)}`);
}
