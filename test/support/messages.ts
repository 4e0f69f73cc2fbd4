import * as assert from 'assert';
import * as fs from 'fs';
import * as path from 'path';
import type { FileReport } from '../../cli/batch/check-paths';
import type { Range } from 'vscode-languageserver-types';
import { offeredFixes } from '../../shared/fixes/round';

/** The snapshot beside a fixture (a corner case holds it in its folder: the checker reads no `.txt`). */
export const MESSAGES_FILE = 'messages.txt';

/**
 * What a fixture's diagnostics say, one line each: file, range (1-based lines and columns),
 * severity, rule id and message, then the quick fixes offered (the preferred one marked) and any
 * related location. The markers pin which rule fires
 * on which line; this pins what the author reads and where the squiggle goes. Written by
 * `UPDATE_GOLDEN=1` and reviewed like any change; compared otherwise.
 */
export function messageLines(reports: readonly FileReport[], workspace: string): string[] {
  const root = workspace.replace(/\\/g, '/');
  const relative = (p: string) => path.posix.relative(root, p.replace(/\\/g, '/'));
  const hide = (text: string) => text.split(root).join('<workspace>');
  const lines: string[] = [];
  const sorted = [...reports].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const report of sorted) {
    const file = relative(report.path);
    for (const d of report.diagnostics) {
      const where = `${file}:${span(d.range)}`;
      lines.push(hide(`${where} ${severityName(d.severity)} ${String(d.code)}: ${d.message}`));
      // The quick fixes offered for it, as an editor with file renames lists them.
      for (const plan of report.analysis ? offeredFixes(report.analysis, d, { renames: true }) : []) {
        lines.push(hide(`  fix: ${plan.title}${plan.preferred ? ' (preferred)' : ''}`));
        for (const e of plan.edits) lines.push(hide(`    ${span(e.range)} ${JSON.stringify(e.newText)}`));
        if (plan.rename) lines.push(hide(`    rename to ${relative(plan.rename.newPath)}`));
      }
      for (const related of d.relatedInformation ?? []) {
        const r = related.location.range.start;
        const at = hide(decodeURIComponent(related.location.uri).replace(/^file:\/\//, ''));
        lines.push(hide(`  related ${at}:${r.line + 1}:${r.character + 1}: ${related.message}`));
      }
    }
  }
  return lines;
}

const span = ({ start, end }: Range) => `${start.line + 1}:${start.character + 1}-${end.line + 1}:${end.character + 1}`;

function severityName(severity: number | undefined): string {
  return ['?', 'error', 'warning', 'info', 'hint'][severity ?? 0] ?? '?';
}

/**
 * Compares `lines` with the snapshot at `file` (none: no diagnostics), or writes it when
 * UPDATE_GOLDEN is set. Throws with both texts on a difference.
 */
export function assertSnapshot(file: string, lines: string[]): void {
  const text = lines.map((l) => `${l}\n`).join('');
  if (process.env.UPDATE_GOLDEN) {
    if (text) fs.writeFileSync(file, text);
    else fs.rmSync(file, { force: true });
  }
  const expected = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  assert.strictEqual(
    text,
    expected,
    `${path.basename(path.dirname(file))}/${path.basename(file)} differs (UPDATE_GOLDEN=1 writes it)`,
  );
}
