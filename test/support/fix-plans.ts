/**
 * The quick fixes a fixture folder gets: every diagnostic of every definition file with the
 * fix plans the editor offers for it (titles, preferred once verified, edits, rename).
 */
import * as path from 'path';
import type { FixPlan } from '../../shared/types';
import { offeredFixes } from '../../shared/fixes/round';
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
  /** As the editor offers them: preferred only when the fix holds the property (shared/fixes/property.ts). */
  plans: FixPlan[];
  /** As the rule proposes them, before that check. */
  proposed: FixPlan[];
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
        const plans = offeredFixes(analysis, d);
        out.push({
          rel,
          rule: String(d.code),
          line: d.range.start.line,
          message,
          plans,
          proposed: fixPlansFor(analysis, d),
        });
      }
    }
    return out;
  } finally {
    removeWorkspace(workspace);
  }
}
