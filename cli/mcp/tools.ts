/**
 * What the MCP server's tools do, over the CLI's own pieces: `check` is `check --format json`
 * (unsaved files as `--stdin`), `resolve` is `resolve --format json`, `fix` is `--fix` on one
 * file, `list_definitions` is the Subagents view's list (`summarizeFile`). Each reads only inside
 * the workspace: the configuration search stops at the root, Polytoken's global folder is not
 * read, and files that lead out through a link are refused.
 */
import { pathToFileURL } from 'url';
import { summarizeFile, ruleDocsUrl, toolCount, type Analysis, type WorkspaceDefinition } from '../../shared';
import { readRegularFile, describeError, type ConfigOptions } from '../../shared/node';
import { describeUnmatched, unmatchedFile } from '../batch/check-paths';
import type { CheckOptions } from '../batch/check-types';
import { checkUnsaved, reportOf } from '../check';
import { formatResolution, resolveFile } from '../commands';
import { runCheckPaths, type Io } from '../common';
import { fixInTwoPasses, unifiedDiff } from '../fix';
import { writeFileSafely } from '../batch/safe-write';
import { formatText, summaryLine, type JsonReport } from '../report';
import type { CheckRun } from '../batch/check-paths';
import { findRule, rulePage } from './docs';
import { DEFINITION_STATUSES } from './schemas';
import { ToolError, type Workspace } from './workspace';

/** A tool's answer: a short text for the model, and the data (the tool's output schema). */
export interface Answer<T> {
  text: string;
  data: T;
}

/** Diagnostics (or definitions) listed in a text answer; the data holds them all. */
const TEXT_LINES = 50;

export class Tools {
  constructor(
    readonly workspace: Workspace,
    private readonly io: Io,
  ) {}

  /** The options of every check below `root`. */
  private options(root: string): ConfigOptions & Partial<CheckOptions> {
    return { env: this.io.env, noGlobal: true, stopAt: root, refuse: this.workspace.refuse };
  }

  check(args: { paths?: string[]; files?: { path: string; text: string }[] }): Answer<JsonReport & Unreadable> {
    const ws = this.workspace;
    const byRoot = new Map<string, { inputs: string[]; explicit: boolean; unsaved: Map<string, string> }>();
    const group = (root: string) => {
      let g = byRoot.get(root);
      if (!g) byRoot.set(root, (g = { inputs: [], explicit: false, unsaved: new Map() }));
      return g;
    };
    const shownInput = new Map<string, string>();
    for (const file of args.files ?? []) {
      const { path, root } = ws.locate(file.path);
      group(root).unsaved.set(path, file.text);
      shownInput.set(path, file.path);
    }
    if (args.paths?.length) {
      for (const given of args.paths) {
        const { input, root } = ws.locateInput(given);
        const g = group(root);
        g.inputs.push(input);
        g.explicit = true;
        shownInput.set(input, given);
      }
    } else if (!args.files?.length) for (const root of ws.roots.folders) group(root).inputs.push(root);

    const runs: CheckRun[] = [];
    for (const [root, g] of byRoot) {
      const options = this.options(root);
      let run: CheckRun;
      if (g.inputs.length) {
        const inputs = new Set(g.inputs);
        for (const path of g.unsaved.keys()) inputs.add(path);
        run = runCheckPaths(
          [...inputs],
          { ...options, contents: g.unsaved, keepAnalysis: g.unsaved.size ? (p) => g.unsaved.has(p) : false },
          this.io,
        );
        const unmatched = run.unmatched.filter((u) => g.explicit && shownInput.has(u.input));
        if (unmatched.length)
          throw new ToolError(describeUnmatched({ ...unmatched[0], input: shownInput.get(unmatched[0].input)! }));
      } else run = checkUnsaved(g.unsaved, options, this.io);
      for (const path of g.unsaved.keys())
        if (!run.files.some((f) => f.path === path) && !run.ioErrors.some((e) => e.path === path))
          throw new ToolError(describeUnmatched(unmatchedFile(shownInput.get(path)!, path, ws.base)));
      runs.push(run);
    }
    const report = reportOf({ files: runs.flatMap((r) => r.files), ioErrors: [], unmatched: [] }, this.workspace.base);
    const unreadable = runs.flatMap((r) => r.ioErrors).map((e) => ({ path: ws.shown(e.path), message: e.message }));
    const data = unreadable.length ? { ...report, unreadable } : report;
    return { text: checkText(report, unreadable), data };
  }

  resolve(args: { path: string; text?: string }): Answer<object> {
    const { path, root } = this.workspace.locate(args.path);
    const contents = args.text === undefined ? undefined : new Map([[path, args.text]]);
    const resolution = resolveFile(path, args.path, { ...this.options(root), contents }, this.io);
    return { text: formatResolution(resolution), data: resolution };
  }

  listDefinitions(args: { dialect?: string; status?: string }): Answer<{
    definitions: Listed[];
    counts: Record<string, number>;
  }> {
    const ws = this.workspace;
    const multiRoot = ws.roots.folders.length > 1;
    const definitions: Listed[] = [];
    for (const root of ws.roots.folders) {
      // Each file's summary as its analysis is made: the analyses are not all held at once.
      const summaries = new Map<string, WorkspaceDefinition[]>();
      // A file that is no definition (the configuration) summarizes to nothing.
      const onAnalysis = (path: string, analysis: Analysis) => {
        if (!args.dialect || analysis.kind === args.dialect)
          summaries.set(path, summarizeFile(analysis, pathToFileURL(path).href, { folder: root, multiRoot }));
      };
      const run = runCheckPaths([root], { ...this.options(root), keepAnalysis: false, onAnalysis }, this.io);
      for (const report of run.files)
        for (const d of summaries.get(report.path) ?? [])
          if (!args.status || d.status === args.status) definitions.push(listed(ws.shown(report.path), d));
    }
    const counts = Object.fromEntries(DEFINITION_STATUSES.map((s) => [s, 0]));
    for (const d of definitions) counts[d.status]++;
    const lines = definitions.slice(0, TEXT_LINES).map((d) => {
      const p = d.problems;
      return `${d.status.padEnd(8)} ${d.dialect.padEnd(9)} ${d.name || '(unnamed)'}  ${d.path}:${d.line + 1}  ${toolCount(d.tools, d.unknown)}, ${p.errors} errors, ${p.warnings} warnings`;
    });
    if (definitions.length > TEXT_LINES) lines.push(`… and ${definitions.length - TEXT_LINES} more`);
    const tally = DEFINITION_STATUSES.map((s) => `${counts[s]} ${s}`).join(', ');
    lines.push(`${definitions.length} definition${definitions.length === 1 ? '' : 's'}: ${tally}.`);
    return { text: lines.join('\n'), data: { definitions, counts } };
  }

  explainRule(args: { rule: string }): Answer<object> {
    const rule = findRule(args.rule);
    const markdown = rulePage(rule);
    return {
      text: markdown,
      data: {
        rule: rule.id,
        severity: rule.defaultSeverity,
        summary: rule.summary,
        docs: ruleDocsUrl(rule.id),
        markdown,
      },
    };
  }

  fix(args: { path: string; text?: string; write?: boolean }): Answer<FixData> {
    const ws = this.workspace;
    const { path, root } = ws.locate(args.path);
    const options = this.options(root);
    const contents = new Map(args.text === undefined ? [] : [[path, args.text]]);
    const checkOwn = (texts: ReadonlyMap<string, string>) => {
      const run = runCheckPaths(
        [path],
        { ...options, contents: texts, keepAnalysis: (p) => p === path, analyze: (p) => p === path },
        this.io,
      );
      const own = run.files.filter((f) => f.path === path);
      const problem = run.ioErrors.find((e) => e.path === path);
      if (problem) throw new ToolError(`${args.path}: ${problem.message}`);
      if (!own.length) throw new ToolError(describeUnmatched(unmatchedFile(args.path, path, ws.base)));
      return own;
    };
    const read = (p: string) => contents.get(p) ?? readRegularFile(p);
    // Only this file: a broken configuration above it is fixed when it is the one asked for.
    const { fixed, problems } = fixInTwoPasses(() => checkOwn(contents), read);
    if (problems.length) throw new ToolError(`${args.path}: ${problems[0].message}`);
    const change = fixed.find((f) => f.path === path);
    const text = change?.after ?? read(path);
    let written = false;
    if (args.write) {
      const onDisk = diskText(path);
      if (text !== onDisk) {
        // Inside the workspace only, never through a link out of it; a file changed on disk since it was read is left
        // alone.
        const outcome = writeFileSafely(
          path,
          text,
          { roots: ws.roots.folders },
          { expected: onDisk, makeFolders: true },
        );
        if (outcome.status !== 'written') throw new ToolError(`${args.path}: not written: ${outcome.reason}`);
        written = true;
      }
    }
    const remaining = reportOf({ files: checkOwn(new Map([[path, text]])), ioErrors: [], unmatched: [] }, ws.base);
    const diff = change ? unifiedDiff([change], (p) => ws.shown(p)) : '';
    const applied = change?.rules ?? [];
    const head = applied.length
      ? `${applied.length} fix${applied.length === 1 ? '' : 'es'} (${[...new Set(applied)].join(', ')})${written ? ', written' : args.write ? '' : ', not written (write: true writes them)'}.`
      : `No safe fix applies${written ? '; the text was written' : ''}.`;
    return {
      text: [head, diff, `After the fixes: ${summaryLine(remaining.summary)}`].filter(Boolean).join('\n'),
      data: { path: ws.shown(path), applied, diff, text, written, remaining },
    };
  }
}

interface Unreadable {
  unreadable?: { path: string; message: string }[];
}

interface FixData {
  path: string;
  applied: string[];
  diff: string;
  text: string;
  written: boolean;
  remaining: JsonReport;
}

type Listed = Omit<WorkspaceDefinition, 'uri' | 'range'> & { path: string; line: number };

function listed(path: string, d: WorkspaceDefinition): Listed {
  const { uri: _uri, range, ...rest } = d;
  return { path, ...rest, line: range.start.line };
}

/** The file's text on disk, or undefined when there is none yet. */
function diskText(path: string): string | undefined {
  try {
    return readRegularFile(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ToolError(`${path}: ${describeError(e)}`);
  }
}

/** The text report, its diagnostic lines cut at TEXT_LINES, then the summary. */
function checkText(report: JsonReport, unreadable: { path: string; message: string }[]): string {
  const lines = formatText(report).trimEnd().split('\n');
  const summary = lines.pop()!;
  const out = lines.slice(0, TEXT_LINES);
  if (lines.length > TEXT_LINES)
    out.push(`… and ${lines.length - TEXT_LINES} more (all of them in the structured result)`);
  for (const u of unreadable.slice(0, TEXT_LINES)) out.push(`${u.path}: cannot be read: ${u.message}`);
  out.push(summary);
  return out.join('\n');
}
