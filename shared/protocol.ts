/**
 * The server's requests and commands beyond standard LSP, defined once for the server, the
 * VS Code client and other editors (docs/editors.md). Dependency-free: the client imports it.
 */
import type { Resolution } from './results';

/** `subagents/resolve`: the resolution of an open definition from the editor's current text. */
export const RESOLVE_REQUEST = 'subagents/resolve';
export interface ResolveParams {
  uri: string;
}
export type ResolveResult = Resolution | null;

/** The VS Code extension's own command (a live preview); lenses carry it when the client says it implements it. */
export const CLIENT_RESOLVE_COMMAND = 'subagents.resolve';
/** The server's command for every other editor (`workspace/executeCommand`). */
export const SERVER_RESOLVE_COMMAND = 'subagents.server.resolve';

/** What the client may send in `initializationOptions`. */
export interface InitializationOptions {
  /** The `subagents` settings section, for clients without `workspace/configuration`. */
  settings?: unknown;
  /** Commands the client implements itself (the VS Code extension: `subagents.resolve`). */
  clientCommands?: string[];
}
