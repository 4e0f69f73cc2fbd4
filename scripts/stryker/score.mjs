// `node scripts/stryker/score.mjs [report.json] [--without <test-name pattern>]`: the mutation
// score per folder from Stryker's JSON report (docs/testing.md). With --without, a mutant that
// only tests whose full name matches the pattern kill counts as survived: the score before those
// tests, from the same run (their suite runs last, so `killedBy` names them only when no earlier
// test kills the mutant).
import { readFileSync } from 'fs';
import * as path from 'path';

const args = process.argv.slice(2);
const withoutAt = args.indexOf('--without');
const without = withoutAt >= 0 ? new RegExp(args[withoutAt + 1]) : undefined;
// The report is the argument that is no option and no --without's pattern (withoutAt is -1 without one).
const reportPath =
  args.find((a, i) => !a.startsWith('--') && (withoutAt < 0 || i !== withoutAt + 1)) ??
  'reports/mutation/mutation.json';
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

const testNames = new Map();
for (const file of Object.values(report.testFiles ?? {}))
  for (const test of file.tests ?? []) testNames.set(test.id, test.name);

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const rows = new Map();
const add = (key, field) => {
  const row = rows.get(key) ?? { detected: 0, undetected: 0, ignored: 0 };
  row[field]++;
  rows.set(key, row);
};

for (const [file, { mutants }] of Object.entries(report.files)) {
  for (const mutant of mutants) {
    let status = mutant.status;
    if (without && status === 'Killed' && (mutant.killedBy ?? []).every((id) => without.test(testNames.get(id) ?? '')))
      status = 'Survived';
    const field = DETECTED.has(status) ? 'detected' : UNDETECTED.has(status) ? 'undetected' : 'ignored';
    for (const key of [path.posix.dirname(file) + '/', file, 'all']) add(key, field);
  }
}

const pct = ({ detected, undetected }) =>
  detected + undetected ? ((100 * detected) / (detected + undetected)).toFixed(1) + ' %' : 'n/a';
for (const [key, row] of [...rows].sort(([a], [b]) => (a === 'all' ? 1 : b === 'all' ? -1 : a.localeCompare(b))))
  console.log(
    `${key.padEnd(44)} ${pct(row).padStart(7)}  killed ${row.detected}, survived ${row.undetected}, not counted ${row.ignored}`,
  );
