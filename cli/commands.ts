import * as fs from 'fs';
import { posix } from 'path';
import { resolveAnalysis } from '../shared/engine';
import { toPosix } from '../shared/files';
import { checkPaths, MissingPathError, type CheckOptions, type CheckRun } from '../shared/node/check';
import type { ConfigOptions } from '../shared/node/config-loader';
import { isRegularFile } from '../shared/node/read';
import { describeError } from '../shared/node/walk';
import { RULES, ruleDocsUrl } from '../shared/rules/registry';
import type { Resolution } from '../shared/types';
import { formatOption, maxWarningsOption, parseArgs, UsageError, type ParsedArgs } from './args';
import { HELP } from './help';
import { buildReport, formatJson, formatText } from './report';
import { formatSarif } from './sarif';

export interface Io {
  cwd: string;
  env: NodeJS.ProcessEnv;
  out(text: string): void;
  err(text: string): void;
  version: string;
}

/** Paths in every output: relative to the current folder, `/` separators. */
export function relativePath(cwd: string, abs: string): string {
  const rel = posix.relative(toPosix(cwd), toPosix(abs));
  return rel === '' ? '.' : rel;
}

function configOptions(parsed: ParsedArgs, io: Io): ConfigOptions {
  const options: ConfigOptions = { env: io.env, noGlobal: parsed.flags.has('--no-global') };
  const config = parsed.values['--config'];
  if (config !== undefined) {
    const abs = posix.resolve(toPosix(io.cwd), toPosix(config));
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch (e) {
      throw new UsageError(`--config ${config}: ${describeError(e)}`);
    }
    if (!stat.isFile()) throw new UsageError(`--config ${config}: not a file`);
    try {
      fs.accessSync(abs, fs.constants.R_OK);
    } catch (e) {
      throw new UsageError(`--config ${config}: ${describeError(e)}`);
    }
    options.configFile = abs;
  }
  return options;
}

function runCheckPaths(paths: string[], options: ConfigOptions, io: Io, keepAnalysis: CheckOptions['keepAnalysis'] = false): CheckRun {
  try {
    return checkPaths(paths, {
      ...options,
      cwd: io.cwd,
      keepAnalysis,
      onRuleError: (rule, error) => io.err(`subagents: internal error in rule ${rule}: ${String((error as Error)?.message ?? error).split('\n')[0]}\n`),
    });
  } catch (e) {
    if (e instanceof MissingPathError) throw new UsageError(e.message);
    throw e;
  }
}

/** `subagents check [PATH…]`. */
export function commandCheck(args: string[], io: Io): number {
  const parsed = parseArgs(args, { values: ['--format', '--config', '--max-warnings'], flags: ['--no-global'] }, 'check');
  if (parsed.help) {
    io.out(HELP.check);
    return 0;
  }
  const format = formatOption(parsed, ['text', 'json', 'sarif'] as const, 'text');
  const maxWarnings = maxWarningsOption(parsed);
  const options = configOptions(parsed, io);
  const run = runCheckPaths(parsed.positionals, options, io);
  const rel = run.files.map((f) => ({ path: relativePath(io.cwd, f.path), kind: f.kind, diagnostics: f.diagnostics }));
  rel.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const report = buildReport(rel);
  const ioErrors = run.ioErrors.map((e) => ({ path: relativePath(io.cwd, e.path), message: e.message }));
  for (const e of ioErrors) io.err(`subagents: ${e.path}: ${e.message}\n`);
  if (format === 'json') io.out(formatJson(report));
  else if (format === 'sarif') io.out(formatSarif(report, { version: io.version, cwd: toPosix(io.cwd), ioErrors }));
  else {
    let text = formatText(report);
    if (maxWarnings !== undefined && report.summary.warnings > maxWarnings) {
      text += `Too many warnings: ${report.summary.warnings}, the maximum is ${maxWarnings} (--max-warnings).\n`;
    }
    io.out(text);
  }
  if (ioErrors.length) return 2;
  if (report.summary.errors > 0) return 1;
  if (maxWarnings !== undefined && report.summary.warnings > maxWarnings) return 1;
  return 0;
}

/** `subagents resolve FILE`: the effective tool set of each definition in the file. */
export function commandResolve(args: string[], io: Io): number {
  const parsed = parseArgs(args, { values: ['--format', '--config'], flags: ['--no-global'] }, 'resolve');
  if (parsed.help) {
    io.out(HELP.resolve);
    return 0;
  }
  const format = formatOption(parsed, ['text', 'json'] as const, 'text');
  if (parsed.positionals.length !== 1) throw new UsageError(parsed.positionals.length ? 'resolve takes exactly one FILE' : 'resolve needs a FILE; run `subagents resolve --help`');
  const file = parsed.positionals[0];
  const abs = posix.resolve(toPosix(io.cwd), toPosix(file));
  let stat: fs.Stats;
  try {
    stat = fs.statSync(abs);
  } catch (e) {
    throw new UsageError(`${file}: ${describeError(e)}`);
  }
  if (!stat.isFile()) throw new UsageError(`${file}: is a folder, not a definition file`);
  const options = configOptions(parsed, io);
  // Siblings of a Polytoken definition share its discovery folder: they are indexed for shadowing.
  const inputs = [abs];
  if (abs.endsWith('.md')) {
    try {
      for (const n of fs.readdirSync(posix.dirname(abs))) if (n.endsWith('.md') && posix.join(posix.dirname(abs), n) !== abs && isRegularFile(posix.join(posix.dirname(abs), n))) inputs.push(posix.join(posix.dirname(abs), n));
    } catch {
      // The file itself is readable; siblings are only for shadowing.
    }
  }
  const run = runCheckPaths(inputs, options, io, (p) => p === abs);
  const own = run.ioErrors.find((e) => e.path === abs);
  if (own) throw new UsageError(`${file}: ${own.message}`);
  const report = run.files.find((f) => f.path === abs);
  if (!report) throw new UsageError(`${file}: not a recognized definition file (see the file patterns in \`subagents --help\`)`);
  if (report.kind === 'config') throw new UsageError(`${file}: is the project configuration, not a definition file`);
  const resolution = report.analysis ? resolveAnalysis(report.analysis, relativePath(io.cwd, abs)) : undefined;
  if (!resolution) throw new UsageError(`${file}: cannot be resolved (it does not parse as a ${report.kind} definition)`);
  io.out(format === 'json' ? JSON.stringify(resolution, null, 2) + '\n' : formatResolution(resolution));
  return 0;
}

const list = (items: readonly string[] | undefined) => (items && items.length ? items.join(', ') : '(none)');

export function formatResolution(r: Resolution): string {
  const lines = [`${r.file} (${r.dialect}): ${r.definitions.length} definition${r.definitions.length === 1 ? '' : 's'}`];
  for (const d of r.definitions) {
    lines.push('', `${d.name || '(unnamed)'}: ${d.status}${d.reasons?.length ? ` (${d.reasons.join(', ')})` : ''}`);
    lines.push(`  tools:      ${list(d.tools)}`);
    if (d.undeferred) lines.push(`  undeferred: ${list(d.undeferred)}`);
    lines.push(`  removed:    ${list(d.removed.map((x) => `${x.tool} (by ${x.by})`))}`);
    if (d.dropped) lines.push(`  dropped:    ${list(d.dropped.map((x) => `${x.entry} (${x.reason})`))}`);
    if (d.unexpanded) lines.push(`  unexpanded: ${list(d.unexpanded)}`);
  }
  return lines.join('\n') + '\n';
}

/** `subagents rules`: every rule with its default severity, summary and docs page. */
export function commandRules(args: string[], io: Io): number {
  const parsed = parseArgs(args, { values: ['--format'], flags: [] }, 'rules');
  if (parsed.help) {
    io.out(HELP.rules);
    return 0;
  }
  if (parsed.positionals.length) throw new UsageError(`rules takes no arguments (got "${parsed.positionals[0]}")`);
  const format = formatOption(parsed, ['text', 'json', 'markdown'] as const, 'text');
  const rules = RULES.map((r) => ({ id: r.id, severity: r.defaultSeverity, summary: r.summary, docs: ruleDocsUrl(r.id) }));
  if (format === 'json') {
    io.out(JSON.stringify({ rules }, null, 2) + '\n');
  } else if (format === 'markdown') {
    const rows = RULES.map((r) => `| [\`${r.id}\`](docs/rules/${r.id}.md) | ${r.defaultSeverity}${r.deprecated ? ' (deprecated usage)' : ''} | ${r.summary.replace(/\|/g, '\\|')} |`);
    io.out(['| rule | default severity | what it reports |', '| --- | --- | --- |', ...rows].join('\n') + '\n');
  } else {
    const idWidth = rules.reduce((width, r) => Math.max(width, r.id.length), 0);
    io.out(rules.map((r) => `${r.id.padEnd(idWidth)}  ${r.severity.padEnd(11)}  ${r.summary}  ${r.docs}`).join('\n') + '\n');
  }
  return 0;
}
