// `node scripts/stryker/survivors.mjs [report.json] [path prefix]`: the mutants no test detected
// (survived or not covered), one line each: `file:line:column mutator: original -> replacement`,
// grouped by file in line order. The list to work through after a run (docs/testing.md).
import { readFileSync } from 'fs';

const args = process.argv.slice(2);
const reportPath = args.find((a) => a.endsWith('.json')) ?? 'reports/mutation/mutation.json';
const prefix = args.find((a) => !a.endsWith('.json')) ?? '';
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

const oneLine = (text) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 100 ? `${flat.slice(0, 97)}...` : flat;
};

let count = 0;
for (const [file, { source, mutants }] of Object.entries(report.files).sort(([a], [b]) => a.localeCompare(b))) {
  if (!file.startsWith(prefix)) continue;
  const lines = source.split('\n');
  const undetected = mutants
    .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
    .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
  for (const m of undetected) {
    const { start, end } = m.location;
    const original =
      start.line === end.line
        ? lines[start.line - 1].slice(start.column - 1, end.column - 1)
        : `${lines[start.line - 1].slice(start.column - 1)} ...`;
    const how = m.status === 'NoCoverage' ? ' (no test reaches it)' : '';
    console.log(
      `${file}:${start.line}:${start.column} ${m.mutatorName}${how}: ${oneLine(original)} -> ${oneLine(m.replacement ?? '')}`,
    );
    count++;
  }
}
console.log(`${count} undetected mutant(s)`);
