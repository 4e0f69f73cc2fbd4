/**
 * Inlay hints (tool counts after shorthands and globs) and renaming a definition, answered from
 * the document's cached analysis by shared/features/inlay-hints.ts and rename.ts. A refused
 * rename answers a `ResponseError` with the reason, which editors show; what the author should
 * know about a rename (definitions of the new name that shadow it or that it shadows, a file the
 * editor could not rename) comes as a `window/showMessage` notification.
 */
import {
  LSPErrorCodes,
  MessageType,
  ResponseError,
  ShowMessageNotification,
  type ClientCapabilities,
  type Connection,
  type ServerCapabilities,
} from 'vscode-languageserver';
import { inlayHints, type WorkspaceHost } from '../shared';
import { isRefusal, prepareRename, renameDefinition } from '../shared';
import type { Configuration } from './configuration';
import type { OpenDocuments } from './documents';
import { requestGuard } from './features';
import type { DefinitionIndex } from './workspace-index';
import { pathToUri, uriToPath } from './uri';

/** The capabilities to announce, by what the client supports. */
export function hintAndRenameCapabilities(
  client: ClientCapabilities,
): Pick<ServerCapabilities, 'inlayHintProvider' | 'renameProvider'> {
  return {
    ...(client.textDocument?.inlayHint ? { inlayHintProvider: true } : {}),
    renameProvider: client.textDocument?.rename?.prepareSupport ? { prepareProvider: true } : true,
  };
}

export interface HintsAndRenameHost {
  connection: Connection;
  documents: OpenDocuments;
  index: DefinitionIndex;
  configuration: Configuration;
  /** Whether a rename's target exists (the disk, or the client's files). */
  files: WorkspaceHost;
  capabilities: () => ClientCapabilities;
}

export function registerHintsAndRename(host: HintsAndRenameHost): void {
  const { connection, documents, index, configuration, capabilities } = host;
  const safe = requestGuard(connection);

  connection.languages.inlayHint.on(
    safe([], (params) => {
      if (!configuration.settings.inlayHints) return [];
      const a = documents.analysisFor(params.textDocument.uri);
      return a ? inlayHints(a.analysis, params.range) : [];
    }),
  );

  connection.onPrepareRename(
    safe(null, (params) => {
      const result = prepareRename(documents.analysisFor(params.textDocument.uri)?.analysis, params.position);
      if (!result) return null;
      return isRefusal(result) ? new ResponseError(LSPErrorCodes.RequestFailed, result.error) : result;
    }),
  );

  connection.onRenameRequest(
    safe(null, (params) => {
      const uri = params.textDocument.uri;
      const a = documents.analysisFor(uri);
      const path = uriToPath(uri);
      if (!a || !path) return null;
      const workspaceEdit = capabilities().workspace?.workspaceEdit;
      const result = renameDefinition(a.analysis, uri, params.position, params.newName, {
        // A file rename is a resource operation, and those only travel in `documentChanges`.
        renameFiles: !!workspaceEdit?.documentChanges && (workspaceEdit.resourceOperations ?? []).includes('rename'),
        documentChanges: !!workspaceEdit?.documentChanges,
        version: documents.versionOf(uri),
        pathToUri,
        exists: (p) => host.files.stat(p) !== undefined,
        definitions: index.names.all(),
        scope: configuration.folderOf(path),
      });
      if (!result) return null;
      if (isRefusal(result)) return new ResponseError(LSPErrorCodes.RequestFailed, result.error);
      for (const message of result.notes)
        void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message });
      return result.edit;
    }),
  );
}

/** Asks the client to fetch inlay hints again (configuration or settings changed what they say). */
export function refreshInlayHints(connection: Connection, capabilities: ClientCapabilities): void {
  if (capabilities.workspace?.inlayHint?.refreshSupport)
    void connection.languages.inlayHint.refresh().catch(() => undefined);
}
