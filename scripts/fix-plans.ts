// Prints the quick fixes each rule's invalid fixture gets (or those of any folder): every
// diagnostic with its fix titles, which one is preferred and whether "Fix all" / `--fix`
// applies it (a preferred fix with in-file edits) or it only renames the file.
// Use it to check the "Quick fix" part of docs/rules/<group>/<name>.md.
// Usage: npx tsc -p . && node out/scripts/fix-plans.js [rule-id-prefix | folder]
import * as fs from 'fs';
import * as path from 'path';
import { isAppliedByFixAll, rulesWithFixes } from '../shared/fixes/registry';
import { RULES } from '../shared/rules/registry';
import { fixPlansInFolder, type DiagnosticFixes } from '../test/support/fix-plans';

function print(found: DiagnosticFixes[]): void {
  for (const d of found) {
    console.log(`  ${d.rel}:${d.line + 1} [${d.rule}] ${d.message.split('\n')[0]}`);
    for (const plan of d.plans) {
      const how = isAppliedByFixAll(plan)
        ? 'preferred, Fix all applies it'
        : plan.preferred
          ? 'preferred, rename only'
          : 'offered';
      console.log(
        `    - [${how}] ${plan.title}${plan.rename ? `  (renames to ${path.basename(plan.rename.newPath)})` : ''}`,
      );
    }
  }
}

const arg = process.argv[2] ?? '';
if (arg && fs.existsSync(arg) && fs.statSync(arg).isDirectory()) {
  print(fixPlansInFolder(path.resolve(arg)));
} else {
  const fixtures = path.resolve(__dirname, '../../test/fixtures/rules');
  const withFixes = new Set<string>(rulesWithFixes());
  for (const rule of RULES.filter((r) => r.id.startsWith(arg))) {
    console.log(`\n## ${rule.id}${withFixes.has(rule.id) ? '' : '  (no fix provider)'}`);
    print(fixPlansInFolder(path.join(fixtures, rule.id, 'invalid')).filter((d) => d.rule === rule.id));
  }
}
