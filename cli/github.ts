import type { SeverityName } from '../shared';
import { printable } from '../shared';
import type { JsonReport } from './report';

const COMMAND: Record<SeverityName, string> = {
  error: 'error',
  warning: 'warning',
  information: 'notice',
  hint: 'notice',
};

/**
 * A workflow command's message: `%`, CR and LF escaped, as GitHub's toolkit does (the runner
 * turns them back). Other control characters, which GitHub has no escape for and whose ESC
 * sequences its log would play, are shown as `printable` shows them (`\x1b`).
 */
export function escapeData(text: string): string {
  return printable(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** A workflow command's property value: also `:` and `,`, which end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * GitHub Actions workflow commands, one per diagnostic: they become annotations on the
 * lines of the pull request. Positions are 1-based; information and hints are notices.
 */
export function formatGithub(report: JsonReport): string {
  const lines: string[] = [];
  for (const f of report.files) {
    for (const d of f.diagnostics) {
      const { start, end } = d.range;
      const properties = [
        `file=${escapeProperty(f.path)}`,
        `line=${start.line + 1}`,
        `col=${start.character + 1}`,
        `endLine=${end.line + 1}`,
        `endColumn=${end.character + 1}`,
        `title=${escapeProperty(d.rule)}`,
      ];
      lines.push(`::${COMMAND[d.severity]} ${properties.join(',')}::${escapeData(d.message)}`);
    }
  }
  return lines.length ? lines.join('\n') + '\n' : '';
}
