import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { checkPaths, type FileReport } from '../../cli/batch/check-paths';
import { removeTree } from './tree';

/**
 * Golden fixtures: a folder is a small workspace. A line may end with a marker
 * `#! rule/id, other/id*2` (YAML, Markdown) or `//! rule/id` (JSON) naming the rules
 * that must fire on that line (`*N`: N times). Markers are stripped before checking,
 * and the diagnostics must match the markers exactly: nothing missing, nothing extra.
 */
const MARKER = /[ \t]*(?:#|\/\/)!\s*([\w/-]+(?:\*\d+)?(?:\s*,\s*[\w/-]+(?:\*\d+)?)*)\s*$/;

export interface Expectation {
  file: string;
  line: number;
  rule: string;
}

export interface FixtureResult {
  expected: string[];
  actual: string[];
  reports: FileReport[];
  /** Where the stripped copy lives. */
  workspace: string;
}

const key = (e: Expectation) => `${e.file}:${e.line + 1} ${e.rule}`;

/** A fixture file's text without its markers, and the rules each marker names (0-based lines). */
export function stripMarkers(text: string): { text: string; markers: { line: number; rule: string }[] } {
  const markers: { line: number; rule: string }[] = [];
  const lines = text.split(/(?<=\n)/);
  const out = lines.map((line, index) => {
    const eol = /\r?\n$/.exec(line)?.[0] ?? '';
    const body = line.slice(0, line.length - eol.length);
    const m = MARKER.exec(body);
    if (!m) return line;
    for (const item of m[1].split(',').map((s) => s.trim())) {
      const [rule, times] = item.split('*');
      for (let i = 0; i < Number(times ?? 1); i++) markers.push({ line: index, rule });
    }
    return body.slice(0, m.index) + eol;
  });
  return { text: out.join(''), markers };
}

/** Copies a fixture folder with markers stripped; returns the copy and the expectations. */
export function prepareFixture(dir: string): { workspace: string; expectations: Expectation[] } {
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-fixture-'));
  const expectations: Expectation[] = [];
  const copy = (from: string, rel: string) => {
    for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
      const src = path.join(from, entry.name);
      const relPath = rel ? `${rel}/${entry.name}` : entry.name;
      const dest = path.join(workspace, relPath);
      if (entry.isDirectory()) {
        fs.mkdirSync(dest, { recursive: true });
        copy(src, relPath);
        continue;
      }
      const raw = fs.readFileSync(src);
      if (raw.includes(0)) {
        fs.writeFileSync(dest, raw);
        continue;
      }
      const stripped = stripMarkers(raw.toString('utf8'));
      for (const e of stripped.markers) expectations.push({ file: relPath, ...e });
      fs.writeFileSync(dest, stripped.text);
    }
  };
  copy(dir, '');
  return { workspace, expectations };
}

export function runFixture(dir: string): FixtureResult {
  const { workspace, expectations } = prepareFixture(dir);
  const run = checkPaths(['.'], {
    cwd: workspace,
    stopAt: workspace,
    // No real global folder leaks into fixtures; a fixture may configure its own.
    env: { HOME: workspace, XDG_CONFIG_HOME: path.join(workspace, '.no-xdg') },
  });
  const actual: string[] = [];
  for (const report of run.files) {
    const rel = path.posix.relative(workspace.replace(/\\/g, '/'), report.path);
    for (const d of report.diagnostics) actual.push(key({ file: rel, line: d.range.start.line, rule: String(d.code) }));
  }
  return { expected: expectations.map(key).sort(), actual: actual.sort(), reports: run.files, workspace };
}

export function removeWorkspace(workspace: string): void {
  removeTree(workspace);
}

/** Runs a fixture folder, hands the result to `use`, and always removes the stripped copy. */
export function withFixture<T>(dir: string, use: (result: FixtureResult) => T): T {
  const result = runFixture(dir);
  try {
    return use(result);
  } finally {
    removeWorkspace(result.workspace);
  }
}
