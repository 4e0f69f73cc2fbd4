// Writes test/fixtures/rules/<group>/<rule>/fixed/ for every invalid fixture that "Fix all"
// changes: each changed file as the fixes leave it, with markers for what still fires.
// Review the diff before committing: the twins are expectations, not snapshots.
// Usage: npx tsc -p . && node out/scripts/fix-twins.js
import * as fs from 'fs';
import * as path from 'path';
import { RULES } from '../shared/rules/registry';
import { fixFixtureFolder, withMarkers } from '../test/support/fix-twins';

const fixtures = path.resolve(__dirname, '../../test/fixtures/rules');
for (const rule of RULES) {
  const dir = path.join(fixtures, rule.id);
  const fixedDir = path.join(dir, 'fixed');
  fs.rmSync(fixedDir, { recursive: true, force: true });
  const changed = fixFixtureFolder(path.join(dir, 'invalid')).filter((f) => f.result.text !== f.before);
  for (const file of changed) {
    const dest = path.join(fixedDir, file.rel);
    fs.mkdirSync(path.dirname(dest), { recursive: true });
    fs.writeFileSync(dest, withMarkers(file));
  }
  if (changed.length) console.log(`${rule.id}: ${changed.length} file(s) fixed`);
}
