import * as fs from 'fs';
import { resolveAnalysis } from '../shared';
import { describeError } from '../shared/node';
import { RULES, ruleDocsUrl } from '../shared';
import type { Resolution } from '../shared';
import { printable, printableJson } from '../shared';
import type { ConfigOptions } from '../shared/node';
import type { CheckOptions } from './batch/check-types';
import { nearMissAdvice, unmatchedFile } from './batch/check-paths';
import { formatOption, parseArgs, UsageError } from './args';
import { absolutePath, configOptions, relativePath, runCheckPaths, type Io } from './common';
import { HELP } from './help';
import { linkRefusal, readRoots } from './roots';

/** `subagents resolve FILE`: the effective tool set of each definition in the file. */
export function commandResolve(args: string[], io: Io): number {
  const parsed = parseArgs(
    args,
    { values: ['--format', '--config'], flags: ['--no-global'], aliases: { '-f': '--format' } },
    'resolve',
  );
  if (parsed.help) {
    io.out(HELP.resolve);
    return 0;
  }
  const format = formatOption(parsed, ['text', 'json'] as const, 'text');
  if (parsed.positionals.length !== 1)
    throw new UsageError(
      parsed.positionals.length
        ? 'resolve takes exactly one FILE'
        : 'resolve needs a FILE; run `subagents resolve --help`',
    );
  const file = parsed.positionals[0];
  const options = configOptions(parsed, io);
  // A file (or a sibling read for shadowing) that is a link out of its folder is not read (cli/roots.ts).
  options.refuse = linkRefusal(readRoots([file], io.cwd, options.configFile));
  const resolution = resolveFile(absolutePath(io.cwd, file), file, options, io);
  io.out(format === 'json' ? printableJson(resolution) + '\n' : formatResolution(resolution));
  return 0;
}

/**
 * The resolution of every definition in one file (`resolve`; the MCP server's `resolve`), `shown`
 * naming it in errors. With `contents`, the file's text is taken from there (it need not exist).
 * Paths in it are relative to `io.cwd`. Throws UsageError when the file cannot be resolved.
 */
export function resolveFile(
  abs: string,
  shown: string,
  options: ConfigOptions & Partial<CheckOptions>,
  io: Io,
): Resolution {
  if (!options.contents?.has(abs)) {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(abs);
    } catch (e) {
      throw new UsageError(`${shown}: ${describeError(e)}`);
    }
    if (!stat.isFile()) throw new UsageError(`${shown}: is a folder, not a definition file`);
  }
  // Stryker disable next-line ConditionalExpression,EqualityOperator: the other files (read for their names) analyzed too change the time, not this resolution
  const isFile = (p: string) => p === abs;
  const run = runCheckPaths([abs], { ...options, keepAnalysis: isFile, analyze: isFile }, io);
  const own = run.ioErrors.find((e) => e.path === abs);
  if (own) throw new UsageError(`${shown}: ${own.message}`);
  const report = run.files.find((f) => f.path === abs);
  if (!report) {
    const { nearMiss } = unmatchedFile(shown, abs, io.cwd);
    throw new UsageError(
      `${shown}: not a recognized definition file${nearMiss ? `: ${nearMissAdvice(nearMiss)}` : ' (see the file patterns in `subagents --help`)'}`,
    );
  }
  if (report.kind === 'config') throw new UsageError(`${shown}: is the project configuration, not a definition file`);
  const resolution = report.analysis ? resolveAnalysis(report.analysis, relativePath(io.cwd, abs)) : undefined;
  if (!resolution)
    throw new UsageError(`${shown}: cannot be resolved (it does not parse as a ${report.kind} definition)`);
  // Paths in every output are relative to the current folder.
  for (const d of resolution.definitions) if (d.shadowedBy) d.shadowedBy = relativePath(io.cwd, d.shadowedBy);
  return resolution;
}

const list = (items: readonly string[] | undefined) => (items && items.length ? items.join(', ') : '(none)');

/**
 * The resolution as text; control characters in names, tools and paths are escaped (`printable`), one item per line.
 */
export function formatResolution(r: Resolution): string {
  const lines = [
    `${r.file} (${r.dialect}): ${r.definitions.length} definition${r.definitions.length === 1 ? '' : 's'}`,
  ];
  for (const d of r.definitions) {
    lines.push('', `${d.name || '(unnamed)'}: ${d.status}${d.reasons?.length ? ` (${d.reasons.join(', ')})` : ''}`);
    if (d.silenced?.length)
      lines.push(
        `  silenced:   ${list(d.silenced)} (hidden or downgraded by your settings; the runtime still applies them)`,
      );
    if (d.shadowedBy) lines.push(`  shadowed:   never runs, ${d.shadowedBy} replaces it`);
    const unknown = new Set(d.unknown ?? []);
    lines.push(`  tools:      ${list(d.tools.map((t) => (unknown.has(t) ? `${t} (unknown)` : t)))}`);
    if (unknown.size)
      lines.push(
        `  unknown:    ${list([...unknown])} (not in the catalog, so the runtime likely has no such tool; if it exists, declare it under \`tools.${r.dialect}\` or \`mcp\` in .subagents.yaml)`,
      );
    if (d.undeferred) lines.push(`  undeferred: ${list(d.undeferred)}`);
    lines.push(`  removed:    ${list(d.removed.map((x) => `${x.tool} (by ${x.by})`))}`);
    if (d.dropped) lines.push(`  dropped:    ${list(d.dropped.map((x) => `${x.entry} (${x.reason})`))}`);
    if (d.unexpanded) lines.push(`  unexpanded: ${list(d.unexpanded)}`);
  }
  return lines.map(printable).join('\n') + '\n';
}

/** `subagents rules`: every rule with its default severity, summary and docs page. */
export function commandRules(args: string[], io: Io): number {
  const parsed = parseArgs(args, { values: ['--format'], flags: [], aliases: { '-f': '--format' } }, 'rules');
  if (parsed.help) {
    io.out(HELP.rules);
    return 0;
  }
  if (parsed.positionals.length) throw new UsageError(`rules takes no arguments (got "${parsed.positionals[0]}")`);
  // Stryker disable next-line StringLiteral: any default other than json or markdown takes the text branch below
  const format = formatOption(parsed, ['text', 'json', 'markdown'] as const, 'text');
  const rules = RULES.map((r) => ({
    id: r.id,
    severity: r.defaultSeverity,
    summary: r.summary,
    docs: ruleDocsUrl(r.id),
  }));
  if (format === 'json') {
    io.out(JSON.stringify({ rules }, null, 2) + '\n');
  } else if (format === 'markdown') {
    const rows = RULES.map(
      (r) =>
        `| [\`${r.id}\`](docs/rules/${r.id}.md) | ${r.defaultSeverity}${r.deprecated ? ' (deprecated usage)' : ''} | ${r.summary.replace(/\|/g, '\\|')} |`,
    );
    io.out(['| rule | default severity | what it reports |', '| --- | --- | --- |', ...rows].join('\n') + '\n');
  } else {
    const idWidth = rules.reduce((width, r) => Math.max(width, r.id.length), 0);
    io.out(
      rules.map((r) => `${r.id.padEnd(idWidth)}  ${r.severity.padEnd(11)}  ${r.summary}  ${r.docs}`).join('\n') + '\n',
    );
  }
  return 0;
}
