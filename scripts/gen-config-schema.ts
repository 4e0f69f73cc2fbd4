// Writes schemas/subagents-config.schema.json, the configuration schema composed from its generic
// part and the built-in dialect modules (shared/config/schema.ts); `--check` only verifies it is up
// to date (test/schema-validators.test.ts does too). Regenerate the validators after it.
// Usage: npx tsc -p . && node out/scripts/gen-config-schema.js [--check] && node scripts/gen-validators.mjs
import * as fs from 'fs';
import * as path from 'path';
import { shippedConfigSchemaText } from '../shared/config/schema';

const file = path.resolve(__dirname, '../../schemas/subagents-config.schema.json');
const text = shippedConfigSchemaText();
if (process.argv.includes('--check')) {
  const current = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  if (current !== text) {
    console.error('gen-config-schema: schemas/subagents-config.schema.json is out of date; run it without --check');
    process.exit(1);
  }
} else {
  fs.writeFileSync(file, text);
  console.log(`wrote ${path.relative(path.resolve(__dirname, '../..'), file)}`);
}
