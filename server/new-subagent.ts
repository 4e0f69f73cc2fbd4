/**
 * `subagents/newSubagent`: a new definition file for the editor's *New Subagent…* command, from
 * its runtime's skeleton (`subagentSkeleton`, the one the MCP server's prompt gives), placed in
 * the workspace folder as the runtime requires. A name is refused when the file would not pass
 * every rule there (the analysis of the skeleton under the folder's configuration and the
 * workspace index: a name the runtime cannot take, one another definition already has) or when
 * the file exists. The client creates the file (exclusively) and opens it.
 */
import { posix } from 'path';
import type { Connection, Diagnostic, Range } from 'vscode-languageserver';
import { analyze, subagentSkeleton, workspaceRuntimes, dialectModule, SourceText } from '../shared';
import { NEW_SUBAGENT_REQUEST, type NewSubagentParams, type NewSubagentResult, type WorkspaceHost } from '../shared';
import type { Configuration } from './configuration';
import type { DefinitionIndex } from './workspace-index';
import { uriToPath } from './uri';

export interface NewSubagentHost {
  connection: Connection;
  configuration: Configuration;
  index: DefinitionIndex;
  files: WorkspaceHost & { toUri(path: string): string };
}

/** Characters no file name takes on some system, control characters, and path separators. */
const UNSAFE_NAME = /[\\/:*?"<>|\u0000-\u001f\u007f]/;

export function registerNewSubagent(host: NewSubagentHost): void {
  host.connection.onRequest(NEW_SUBAGENT_REQUEST, (params: NewSubagentParams | undefined) =>
    newSubagent(host, params ?? {}),
  );
}

export function newSubagent(host: NewSubagentHost, params: NewSubagentParams): NewSubagentResult {
  const runtimes = workspaceRuntimes().map((r) => ({
    id: r.id,
    title: r.title,
    definition: dialectModule(r.id)?.labels.definition ?? r.title,
  }));
  const { runtime, name, folderUri } = params;
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

const blockingMessage = (d: Diagnostic): string => `${d.message}${typeof d.code === 'string' ? ` (${d.code})` : ''}`;

/**
 * The description's value in a new file (quotes left out), for the cursor; the start of the file when there is none.
 */
function descriptionRange(text: string): Range {
  const source = new SourceText(text);
  const match = /"?description"?\s*:\s*("?)([^"\n]*)/.exec(text);
  if (!match) return { start: source.position(0), end: source.position(0) };
  const start = match.index + match[0].length - match[2].length;
  return { start: source.position(start), end: source.position(start + match[2].length) };
}
