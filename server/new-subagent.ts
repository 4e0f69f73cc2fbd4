/**
 * `subagents/newSubagent`: a new definition file for the editor's *New Subagent…* command, from
 * its runtime's skeleton (`subagentSkeleton`, the one the MCP server's prompt gives), placed in
 * the workspace folder as the runtime requires. A name is refused when the file would not pass
 * every rule there (the analysis of the skeleton under the folder's configuration and the
 * workspace index: a name the runtime cannot take, one another definition already has) or when
 * the file exists. The client creates the file (exclusively) and opens it.
 *
 * A runtime whose files hold several definitions (its module's `editor.nestedDefinitions`, a Profy
 * Expert's subagents) may take the new one into an existing file instead: asked with a runtime
 * and no name, the answer lists the folder's files of that runtime; with `containerUri`, it holds
 * the edits (`nestedDefinitionEdits`, the same as `subagents new --expert`), refused when the file
 * would gain an error or a warning it did not have.
 */
import { posix } from 'path';
import type { Connection, Diagnostic, Range } from 'vscode-languageserver';
import {
  analyze,
  dialectModule,
  nestedDefinitionEdits,
  readIfRegular,
  SourceText,
  subagentSkeleton,
  workspaceRuntimes,
  type Dialect,
} from '../shared';
import { NEW_SUBAGENT_REQUEST, type NewSubagentParams, type NewSubagentResult, type WorkspaceHost } from '../shared';
import type { Configuration } from './configuration';
import type { DefinitionIndex } from './workspace-index';
import { uriToPath } from './uri';

export interface NewSubagentHost {
  connection: Connection;
  configuration: Configuration;
  index: DefinitionIndex;
  files: WorkspaceHost & { toUri(path: string): string };
  /** An open document's text (unsaved edits included): an existing file is edited from it. */
  openText(path: string): string | undefined;
}

/** Characters no file name takes on some system, control characters, and path separators. */
const UNSAFE_NAME = /[\\/:*?"<>|\u0000-\u001f\u007f]/;

export function registerNewSubagent(host: NewSubagentHost): void {
  host.connection.onRequest(NEW_SUBAGENT_REQUEST, (params: NewSubagentParams | undefined) =>
    newSubagent(host, params ?? {}),
  );
}

export function newSubagent(host: NewSubagentHost, params: NewSubagentParams): NewSubagentResult {
  const runtimes = workspaceRuntimes().map((r) => {
    const module = dialectModule(r.id);
    return {
      id: r.id,
      title: r.title,
      definition: module?.labels.definition ?? r.title,
      ...(module?.editor.nestedDefinitions ? { nested: module.editor.nestedDefinitions.label } : {}),
    };
  });
  const { runtime, name, folderUri, containerUri } = params;
  if (typeof runtime === 'string' && name === undefined && typeof folderUri === 'string')
    return { runtimes, containers: containersIn(host, runtime, folderUri) };
  if (typeof runtime !== 'string' || typeof name !== 'string' || typeof folderUri !== 'string') return { runtimes };
  const problem = (text: string): NewSubagentResult => ({ runtimes, problem: text });
  const folder = uriToPath(folderUri);
  if (!folder) return problem('The workspace folder cannot be read.');
  if (!name.trim()) return problem('Give the subagent a name.');
  if (name !== name.trim()) return problem('A name does not start or end with a space.');
  if (UNSAFE_NAME.test(name) || name.startsWith('.'))
    return problem('A name is a file name: no `/`, `\\`, `:` or leading `.`.');
  const skeleton = subagentSkeleton(runtime, name, '');
  if (!skeleton) return problem(`No runtime is called ${runtime}.`);
  if (typeof containerUri === 'string') {
    const added = addToContainer(host, runtime, name, containerUri);
    return 'problem' in added ? problem(added.problem) : { runtimes, edit: added };
  }
  const path = posix.join(folder, skeleton.path);
  if (host.files.stat(path) !== undefined || host.index.checkedFiles.has(path))
    return problem(`${skeleton.path} exists already.`);
  const { configuration, index } = host;
  const analysis = analyze({
    text: skeleton.text,
    path,
    config: configuration.configFor(path),
    root: folder,
    workspace: index.names.workspaceIndex(),
  });
  const blocking = analysis.diagnostics.filter((d) => d.severity === 1 || d.severity === 2);
  if (blocking.length) return problem(blockingMessage(blocking[0]));
  if (analysis.kind !== runtime)
    return problem(
      `${skeleton.path} is not read as a ${runtimes.find((r) => r.id === runtime)?.definition} here (see files: in .subagents.yaml).`,
    );
  return {
    runtimes,
    file: { uri: host.files.toUri(path), text: skeleton.text, selection: descriptionRange(skeleton.text) },
  };
}

/** The folder's files of `runtime` that hold several definitions (a new one may go into any of them), by path. */
function containersIn(host: NewSubagentHost, runtime: string, folderUri: string): { uri: string; label: string }[] {
  const folder = uriToPath(folderUri);
  if (!folder || !dialectModule(runtime as Dialect)?.editor.nestedDefinitions) return [];
  const out: { uri: string; label: string }[] = [];
  for (const entry of host.index.names.all()) {
    const label = entry.kind === runtime ? posix.relative(folder, entry.path) : undefined;
    if (label && !label.startsWith('..')) out.push({ uri: entry.uri, label });
  }
  return out.sort((a, b) => a.label.localeCompare(b.label));
}

/** The edits that add `name` to an existing file, with the new description's range; or why not. */
function addToContainer(
  host: NewSubagentHost,
  runtime: string,
  name: string,
  containerUri: string,
): NonNullable<NewSubagentResult['edit']> | { problem: string } {
  const path = uriToPath(containerUri);
  const shown = path ? posix.basename(path) : containerUri;
  const entry = path ? host.index.names.get(path) : undefined;
  if (!path || !entry || entry.kind !== runtime)
    return { problem: `${shown} is not a ${dialectModule(runtime as Dialect)?.labels.definition ?? runtime} file.` };
  const before = host.openText(path) ?? readIfRegular(host.files, path);
  if (before === undefined) return { problem: `${shown} cannot be read.` };
  const insertion = nestedDefinitionEdits(runtime as Dialect, before, name);
  if (!insertion.ok) return { problem: `${shown}: ${insertion.problem}` };
  const { configuration, index } = host;
  const problemsOf = (text: string) =>
    analyze({
      text,
      path,
      config: configuration.configFor(path),
      root: configuration.folderOf(path),
      workspace: index.names.workspaceIndex(),
    })
      .diagnostics.filter((d) => d.severity === 1 || d.severity === 2)
      .map(blockingMessage);
  const had = new Set(problemsOf(before));
  const gained = problemsOf(insertion.after).filter((m) => !had.has(m));
  if (gained.length) return { problem: `Not added to ${shown}: ${gained[0]}` };
  const from = new SourceText(before).offset(insertion.edits[0].range.start);
  return { uri: entry.uri, edits: insertion.edits, selection: descriptionRange(insertion.after, from) };
}

const blockingMessage = (d: Diagnostic): string => `${d.message}${typeof d.code === 'string' ? ` (${d.code})` : ''}`;

/**
 * The description's value in a new file or entry (from `from` on; quotes left out), for the cursor; `from` when
 * there is none.
 */
function descriptionRange(text: string, from = 0): Range {
  const source = new SourceText(text);
  const pattern = /"?description"?\s*:\s*("?)([^"\n]*)/g;
  pattern.lastIndex = from;
  const match = pattern.exec(text);
  if (!match) return { start: source.position(from), end: source.position(from) };
  const start = match.index + match[0].length - match[2].length;
  return { start: source.position(start), end: source.position(start + match[2].length) };
}
