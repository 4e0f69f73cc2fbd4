/**
 * `subagents init` (a commented `.subagents.yaml` in the current folder) and `subagents new
 * RUNTIME NAME` (a definition from its runtime's module, where and as the runtime names it). A
 * file is only ever created, never replaced (safe-write.ts `createFileExclusively`), and a new
 * definition is checked before it is written: one that any rule faults is not written.
 */
import * as fs from 'fs';
import { posix } from 'path';
import { DiagnosticSeverity, type Diagnostic } from 'vscode-languageserver-types';
import {
  dialectModule,
  dialectModules,
  nestedDefinitionEdits,
  printable,
  subagentSkeleton,
  toPosix,
  type Dialect,
} from '../shared';
import { readRegularFile, describeError } from '../shared/node';
import { didYouMean, parseArgs, UsageError } from './args';
import { createFileExclusively, writeFileSafely } from './batch/safe-write';
import { checkUnsaved } from './check';
import { absolutePath, configOptions, isFolder, relativePath, type Io } from './common';
import { HELP } from './help';

const CONFIG_FILE = '.subagents.yaml';

/** The commented configuration `init` writes: every key optional and commented out, the runtimes from the registry. */
export function initialConfig(): string {
  const modules = [...dialectModules()].sort((a, b) => a.displayOrder - b.displayOrder);
  const pad = (id: string) => `${id}:`.padEnd(modules.reduce((widest, m) => Math.max(widest, m.id.length), 0) + 2);
  return [
    '# Configuration of the subagents checker and editor tooling (`subagents check`, the editor extension).',
    '# Every key is optional: uncomment what you need. An invalid part is reported on this file',
    '# (config/invalid) and ignored; the rest still applies.',
    '',
    '# Extra globs per runtime, added to the default file patterns: a file outside them is not checked.',
    '# files:',
    ...modules.map((m) => `#   ${pad(m.id)} []   # default: ${m.files.defaultGlobs.join(', ')}`),
    '',
    '# Files never checked.',
    '# ignore: ["test/fixtures/**"]',
    '',
    '# Tools each runtime has beyond its built-ins: a name, or { name, description, tags }.',
    '# A tool not listed here is reported as unknown (a misspelling, or a tool the runtime lacks).',
    '# tools:',
    ...modules.map((m) => `#   ${pad(m.id)} []`),
    '',
    '# MCP servers and their tools, granted as mcp__<server>__<tool>.',
    '# mcp:',
    '#   github: [create_issue, list_issues]',
    '',
    '# Severity per rule: off | error | warning | information | hint (`subagents rules` lists them).',
    '# rules:',
    `#   ${modules[0]?.id ?? 'runtime'}/unknown-tool: warning`,
    '',
  ].join('\n');
}

/** `subagents init`: exit 2 when the folder already has a configuration. */
export function commandInit(args: string[], io: Io): number {
  // Stryker disable next-line ArrayDeclaration: an option named by the mutant (no leading --) is not one a user would give
  const parsed = parseArgs(args, { values: [], flags: [] }, 'init');
  if (parsed.help) {
    io.out(HELP.init);
    return 0;
  }
  if (parsed.positionals.length) throw new UsageError('init takes no argument: it writes ./.subagents.yaml');
  const cwd = toPosix(io.cwd);
  const outcome = createFileExclusively(posix.join(cwd, CONFIG_FILE), initialConfig(), { roots: [realOf(cwd)] });
  if (outcome.status !== 'written') throw new UsageError(`cannot create ${CONFIG_FILE}: ${outcome.reason}`);
  io.out(`created ${CONFIG_FILE}\n`);
  return 0;
}

function realOf(dir: string): string {
  try {
    return toPosix(fs.realpathSync.native(dir));
  } catch {
    return dir;
  }
}

/** A name that can be a file name on every system: the runtime's own rules judge the rest. */
const FILE_SAFE_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$/;

/** `subagents new RUNTIME NAME [--dir FOLDER] [--expert FILE] [--description TEXT]`. */
export function commandNew(args: string[], io: Io): number {
  const parsed = parseArgs(
    args,
    { values: ['--dir', '--expert', '--description', '--config'], flags: ['--no-global'] },
    'new',
  );
  if (parsed.help) {
    io.out(HELP.new);
    return 0;
  }
  if (parsed.positionals.length !== 2) throw new UsageError('new needs RUNTIME and NAME; run `subagents new --help`');
  const [runtime, name] = parsed.positionals;
  const ids = dialectModules().map((m) => m.id);
  const module = dialectModule(runtime.toLowerCase() as Dialect);
  if (!module)
    throw new UsageError(`unknown runtime "${runtime}"${didYouMean(runtime, ids)}; use one of ${ids.join(', ')}`);
  if (!FILE_SAFE_NAME.test(name) || name.endsWith('.'))
    throw new UsageError(
      `"${name}" cannot be a definition's name here: use letters, digits, "_", "-" and "." (not first), at most 100`,
    );
  // Stryker disable next-line StringLiteral: '' resolves to the current folder as '.' does
  const dir = absolutePath(io.cwd, parsed.values['--dir'] ?? '.');
  const skeleton = subagentSkeleton(module.id, name, parsed.values['--description'] ?? '');
  if (!skeleton) throw new UsageError(`${module.title} has no skeleton for a new definition`);
  const expert = parsed.values['--expert'];
  const options = configOptions(parsed, io);
  if (expert !== undefined) {
    if (!module.editor.nestedDefinitions)
      throw new UsageError(`--expert is for runtimes whose files hold several definitions, not ${module.id}`);
    const purpose = parsed.values['--description'] ?? '';
    return addToFile(absolutePath(io.cwd, expert), expert, module.id, name, purpose, options, io);
  }
  const target = posix.join(dir, skeleton.path);
  refuseIfFaulted(target, skeleton.text, dir, options, io);
  const outcome = createFileExclusively(target, skeleton.text, { roots: [realOf(dir)] }, { makeFolders: true });
  if (outcome.status !== 'written')
    throw new UsageError(`cannot create ${relativePath(io.cwd, target)}: ${outcome.reason}`);
  io.out(`created ${relativePath(io.cwd, target)} (${module.labels.definition})\n`);
  return 0;
}

/**
 * Problems worth refusing a new file for: errors and warnings, with the definitions of `project`
 * indexed (a Picasso role or Polytoken subagent of the same name elsewhere in it).
 */
function faults(
  text: string,
  path: string,
  options: ReturnType<typeof configOptions>,
  io: Io,
  project?: string,
): Diagnostic[] {
  const around = project !== undefined && isFolder(project) ? [project] : [];
  const run = checkUnsaved(new Map([[path, text]]), options, io, around);
  return run.files.flatMap((f) =>
    f.diagnostics.filter((d) => (d.severity ?? DiagnosticSeverity.Error) <= DiagnosticSeverity.Warning),
  );
}

const describe = (d: Diagnostic) => `${d.message} [${String(d.code)}]`;

/** A new file that some rule faults is not written: the first problem says why (an invalid name, a clash). */
function refuseIfFaulted(
  path: string,
  text: string,
  project: string,
  options: ReturnType<typeof configOptions>,
  io: Io,
): void {
  const found = faults(text, path, options, io, project);
  if (found.length)
    throw new UsageError(`not created: ${relativePath(io.cwd, path)} would have a problem: ${describe(found[0])}`);
}

/**
 * `--expert FILE`: the new definition added to that file (nestedDefinitionEdits, as the editor's
 * *New Subagent…* does); refused when the file gains a problem it did not have.
 */
function addToFile(
  abs: string,
  shown: string,
  dialect: Dialect,
  name: string,
  purpose: string,
  options: ReturnType<typeof configOptions>,
  io: Io,
): number {
  let before: string;
  try {
    before = readRegularFile(abs);
  } catch (e) {
    throw new UsageError(`--expert ${shown}: ${describeError(e)}`);
  }
  const insertion = nestedDefinitionEdits(dialect, before, name, purpose);
  if (!insertion.ok) throw new UsageError(`--expert ${shown}: ${insertion.problem}`);
  const { after } = insertion;
  const was = new Set(faults(before, abs, options, io).map(describe));
  const added = faults(after, abs, options, io).filter((d) => !was.has(describe(d)));
  if (added.length) throw new UsageError(`not added to ${shown}: it would have a problem: ${describe(added[0])}`);
  const outcome = writeBack(abs, before, after);
  if (outcome) throw new UsageError(`cannot write ${shown}: ${outcome}`);
  io.out(`added ${printable(name)} to ${shown}\n`);
  return 0;
}

/**
 * The edited file written over the one read (kept mode; skipped when it changed meanwhile); the reason when not
 * written.
 */
function writeBack(abs: string, before: string, after: string): string | undefined {
  const outcome = writeFileSafely(abs, after, { roots: [realOf(posix.dirname(abs))] }, { expected: before });
  return outcome.status === 'written' ? undefined : outcome.reason;
}
