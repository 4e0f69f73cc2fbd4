/**
 * Fix twins: `fixed/` beside a rule's `invalid/` fixture holds each file as "Fix all" leaves it
 * (every preferred fix, round after round, in-file edits only, as `subagents check --fix`),
 * with markers for what still fires. These helpers run the fixes over a fixture folder.
 */
import * as fs from 'fs';
import * as path from 'path';
import { fixAll, type FixAllResult } from '../../shared/fixes/apply';
import { checkPaths } from '../../cli/batch/check-paths';
import { parseConfig, type LoadedConfig } from '../../shared/config/config';
import { prepareFixture, removeWorkspace } from './fixtures';

export interface FixedFile {
  /** Relative to the fixture folder, `/` separators. */
  rel: string;
  before: string;
  /** The configuration the file was fixed with (a `.subagents.yaml` is read with its own settings, as the editor does). */
  config: LoadedConfig;
  result: FixAllResult;
}

/** Every definition and configuration file of a fixture folder (markers stripped) with what "Fix all" makes of it. */
export function fixFixtureFolder(dir: string, options: { renames?: boolean } = {}): FixedFile[] {
  const { workspace } = prepareFixture(dir);
  try {
    const run = checkPaths(['.'], {
      cwd: workspace,
      stopAt: workspace,
      env: { HOME: workspace, XDG_CONFIG_HOME: path.join(workspace, '.no-xdg') },
      keepAnalysis: true,
    });
    const out: FixedFile[] = [];
    for (const report of run.files) {
      const ctx = report.analysis?.context;
      if (!report.kind || (report.kind !== 'config' && !ctx)) continue;
      const before = fs.readFileSync(report.path, 'utf8');
      const config = ctx ? ctx.loaded : parseConfig(before, report.path, path.posix.dirname(report.path));
      const result = fixAll(
        { text: before, path: report.path, config, kind: report.kind, workspace: ctx?.workspace },
        options,
      );
      out.push({ rel: path.posix.relative(workspace.replace(/\\/g, '/'), report.path), before, config, result });
    }
    return out;
  } finally {
    removeWorkspace(workspace);
  }
}

/** The fixed text with a marker on every line where a diagnostic remains (`#!` in YAML and Markdown, `//!` in JSON). */
export function withMarkers(file: FixedFile): string {
  const byLine = new Map<number, string[]>();
  for (const d of file.result.analysis.diagnostics) {
    const list = byLine.get(d.range.start.line) ?? [];
    list.push(String(d.code));
    byLine.set(d.range.start.line, list);
  }
  const lines = file.result.text.split(/(?<=\n)/);
  const marker = file.rel.endsWith('.json') ? '//!' : '#!';
  return lines
    .map((line, i) => {
      const rules = byLine.get(i);
      if (!rules) return line;
      const eol = /\r?\n$/.exec(line)?.[0] ?? '';
      const counts = new Map<string, number>();
      for (const r of rules) counts.set(r, (counts.get(r) ?? 0) + 1);
      const list = [...counts].map(([r, n]) => (n > 1 ? `${r}*${n}` : r)).join(', ');
      return `${line.slice(0, line.length - eol.length)} ${marker} ${list}${eol}`;
    })
    .join('');
}
