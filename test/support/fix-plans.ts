/**
 * The quick fixes a fixture folder gets: every diagnostic of every definition file with the
 * fix plans the registry offers for it (titles, preferred, edits, rename), as the editor asks.
 */
import * as path from 'path';
import type { FixPlan } from '../../shared/types';
import { fixPlansFor } from '../../shared/fixes/registry';
import { checkPaths } from '../../cli/batch/check-paths';
import { prepareFixture, removeWorkspace } from './fixtures';

export interface DiagnosticFixes {
  /** Relative to the folder, `/` separators. */
  rel: string;
  rule: string;
  /** 0-based. */
  line: number;
  message: string;
  plans: FixPlan[];
}

/** Every diagnostic of the folder (markers stripped) with its fix plans. */
export function fixPlansInFolder(dir: string): DiagnosticFixes[] {
  const { workspace } = prepareFixture(dir);
  try {
    const env = { HOME: workspace, XDG_CONFIG_HOME: path.join(workspace, '.no-xdg') };
    const run = checkPaths(['.'], { cwd: workspace, stopAt: workspace, env, keepAnalysis: true });
    const out: DiagnosticFixes[] = [];
    for (const report of run.files) {
      const analysis = report.analysis;
      if (!analysis) continue;
      const rel = path.posix.relative(workspace.replace(/\\/g, '/'), report.path);
      for (const d of analysis.diagnostics) {
        const message = typeof d.message === 'string' ? d.message : d.message.value;
        out.push({ rel, rule: String(d.code), line: d.range.start.line, message, plans: fixPlansFor(analysis, d) });
      }
    }
    return out;
  } finally {
    removeWorkspace(workspace);
  }
}
