/**
 * `workspace/executeCommand`: the code lens's "resolve" for editors other than VS Code.
 *
 * The VS Code extension implements `subagents.resolve` itself (a live Markdown preview) and says
 * so with `initializationOptions.clientCommands`; its lenses keep that command. Every other
 * client gets lenses with the server's own command, `subagents.server.resolve`, which the server
 * advertises in `executeCommandProvider`. The ids differ because vscode-languageclient registers
 * each advertised command as a VS Code command, and `subagents.resolve` is the extension's.
 *
 * The command answers the `subagents/resolve` object and shows it: the Markdown rendering is
 * written to a file in a private temporary folder and opened with `window/showDocument` where
 * the client supports it (Neovim 0.8+, VS Code); otherwise (Neovim 0.7) a `window/showMessage`
 * gives each definition's status and tools and the rendering's path.
 */
import { posix } from 'path';
import {
  MessageType,
  ShowMessageNotification,
  type ClientCapabilities,
  type Connection,
  type ExecuteCommandParams,
} from 'vscode-languageserver';
import { renderResolution, toolCount } from '../shared';
import { CLIENT_RESOLVE_COMMAND as RESOLVE_COMMAND, SERVER_RESOLVE_COMMAND, SHOW_RULE_DOCS_COMMAND } from '../shared';
import type { Resolution, ResolvedDefinition } from '../shared';
import type { RenderingStore } from './platform';
import { pathToUri, uriToPath } from './uri';

export { SERVER_RESOLVE_COMMAND };
export const SERVER_COMMANDS: readonly string[] = [SERVER_RESOLVE_COMMAND];

/**
 * The command the code lenses carry: the client's `subagents.resolve` when it says it implements it, else the server's.
 */
export function lensCommandFor(initializationOptions: unknown): string {
  const declared = (initializationOptions as { clientCommands?: unknown } | null | undefined)?.clientCommands;
  return Array.isArray(declared) && declared.includes(RESOLVE_COMMAND) ? RESOLVE_COMMAND : SERVER_RESOLVE_COMMAND;
}

/** The client's command that opens a rule's documentation, when `clientCommands` lists it. */
export function ruleDocsCommandFor(initializationOptions: unknown): string | undefined {
  const declared = (initializationOptions as { clientCommands?: unknown } | null | undefined)?.clientCommands;
  return Array.isArray(declared) && declared.includes(SHOW_RULE_DOCS_COMMAND) ? SHOW_RULE_DOCS_COMMAND : undefined;
}

export interface CommandsHost {
  connection: Connection;
  capabilities: () => ClientCapabilities;
  /** The resolution of an open definition; undefined for anything else. */
  resolve: (uri: string) => Resolution | undefined;
  /** The workspace folder holding a path, to name the file relative to it. */
  folderOf: (path: string) => string | undefined;
  /** Where renderings are written (Node: a private temporary folder); undefined: a message only. */
  renderings?: () => RenderingStore;
}

/** At most this many tool names per definition in the message; the file has them all. */
const TOOLS_IN_MESSAGE = 12;

function summaryLine(d: ResolvedDefinition): string {
  const unknown = new Set(d.unknown ?? []);
  const shown = d.tools
    .slice(0, TOOLS_IN_MESSAGE)
    .map((t) => (unknown.has(t) ? `${t} (unknown)` : t))
    .join(', ');
  const more = d.tools.length > TOOLS_IN_MESSAGE ? `, +${d.tools.length - TOOLS_IN_MESSAGE} more` : '';
  const why = d.reasons?.length ? ` (${[...new Set(d.reasons)].join(', ')})` : '';
  const tools = `${toolCount(d.tools.length, unknown.size)}${d.tools.length ? `: ${shown}${more}` : ''}`;
  return `  ${d.name || '(unnamed)'}: ${d.status}${why} · ${tools}`;
}

/** The uri argument: `[uri]` (the lens) or `[{ uri }]`. */
function uriArgument(args: unknown[] | undefined): string | undefined {
  const first = args?.[0];
  if (typeof first === 'string') return first;
  const uri = (first as { uri?: unknown } | null | undefined)?.uri;
  return typeof uri === 'string' ? uri : undefined;
}

export class ServerCommands {
  /** Made on first use, disposed of at shutdown. */
  private store: RenderingStore | undefined;

  constructor(private readonly host: CommandsHost) {}

  register(): void {
    this.host.connection.onExecuteCommand((params) => this.execute(params));
  }

  async execute(params: ExecuteCommandParams): Promise<Resolution | null> {
    const { connection } = this.host;
    if (params.command !== SERVER_RESOLVE_COMMAND) {
      connection.console.warn(`subagents: unknown command ${params.command}`);
      return null;
    }
    const uri = uriArgument(params.arguments);
    const resolution = uri ? this.host.resolve(uri) : undefined;
    if (!uri || !resolution) {
      this.show(
        MessageType.Warning,
        uri
          ? `subagents: ${uri} is not an open subagent definition.`
          : `subagents: ${SERVER_RESOLVE_COMMAND} needs the URI of an open definition.`,
      );
      return null;
    }
    const path = uriToPath(uri) ?? uri;
    const folder = this.host.folderOf(path);
    const label = folder ? posix.relative(folder, path) : path;
    let rendered: string | undefined;
    try {
      if (this.host.renderings) this.store ??= this.host.renderings();
      rendered = this.store?.write(uri, posix.basename(path), renderResolution(resolution, label, { live: false }));
    } catch (error) {
      connection.console.error(
        `subagents: could not write the resolution: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
    let shown = false;
    if (rendered && this.host.capabilities().window?.showDocument?.support) {
      shown = await connection.window.showDocument({ uri: pathToUri(rendered), takeFocus: true }).then(
        (r) => r.success,
        () => false,
      );
    }
    if (!shown) {
      const lines = [`subagents: ${label} (${resolution.dialect})`, ...resolution.definitions.map(summaryLine)];
      if (!resolution.definitions.length) lines.push('  no definitions in this file');
      if (rendered) lines.push(`Full resolution: ${rendered}`);
      this.show(MessageType.Info, lines.join('\n'));
    }
    return resolution;
  }

  /**
   * A `window/showMessage` notification. Not `connection.window.show*Message`: those send
   * `window/showMessageRequest`, which Neovim 0.7 answers with a blocking prompt.
   */
  private show(type: MessageType, message: string): void {
    void this.host.connection.sendNotification(ShowMessageNotification.type, { type, message });
  }

  /** Removes the renderings. */
  dispose = (): void => {
    this.store?.dispose();
    this.store = undefined;
  };
}
