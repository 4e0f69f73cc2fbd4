/**
 * Editor requests. Each is answered from the document's cached analysis by a pure function in
 * shared/features/; closed or unknown documents answer empty, and a handler that throws is
 * logged and answers empty too, never an error.
 */
import { posix } from 'path';
import type { ClientCapabilities, Connection, WorkspaceSymbol } from 'vscode-languageserver';
import { analyze } from '../shared';
import type { Resolution } from '../shared';
import { completions } from '../shared';
import { hover } from '../shared';
import { codeActions } from '../shared';
import { documentSymbols, foldingRanges, workspaceSymbols } from '../shared';
import { codeLenses, RESOLVE_COMMAND } from '../shared';
import { definition } from '../shared';
import { ruleLinks } from '../shared';
import { resolveWithProvenance, warmUpSamples } from '../shared';
import type { Configuration } from './configuration';
import type { OpenDocuments } from './documents';
import type { DefinitionIndex } from './workspace-index';
import { pathToUri } from './uri';

import { PREVIEW_REQUEST, RESOLVE_REQUEST, renderResolution, summarize, type PreviewResult } from '../shared';

/**
 * The `subagents/resolve` answer for an open document (under this URI or another spelling of it);
 * undefined for closed documents and files that are not definitions.
 */
export function resolveOpen(documents: OpenDocuments, uri: string): Resolution | undefined {
  const open = documents.openSpelling(uri);
  const a = open === undefined ? undefined : documents.analysisFor(open);
  return a ? resolveWithProvenance(a.analysis, uri) : undefined;
}

/** Wraps request handlers: one that throws is logged and answers `empty`, never an error. */
export function requestGuard(connection: Connection) {
  return <P, R>(empty: R, handler: (params: P) => R) =>
    (params: P): R => {
      try {
        return handler(params);
      } catch (error) {
        connection.console.error(`subagents: request failed: ${error instanceof Error ? error.stack : String(error)}`);
        return empty;
      }
    };
}

/**
 * `lensCommand`: the command id the code lenses carry (see commands.ts). `resolveClosed`: the
 * resolution of a definition that is not open (the workspace view expands any definition).
 * `ruleDocsCommand`: the client's command that opens a rule's page, when it has one.
 */
export function registerFeatures(
  connection: Connection,
  documents: OpenDocuments,
  index: DefinitionIndex,
  capabilities: () => ClientCapabilities,
  lensCommand: () => string = () => RESOLVE_COMMAND,
  resolveClosed: (uri: string) => Resolution | undefined = () => undefined,
  ruleDocsCommand: () => string | undefined = () => undefined,
): void {
  registerEditing(connection, documents, capabilities, ruleDocsCommand);
  registerNavigation(connection, documents, index);
  registerResolution(connection, documents, lensCommand, resolveClosed);
}

/** Completion, hover and quick fixes: what helps while typing. */
function registerEditing(
  connection: Connection,
  documents: OpenDocuments,
  capabilities: () => ClientCapabilities,
  ruleDocsCommand: () => string | undefined,
): void {
  const safe = requestGuard(connection);

  connection.onCompletion(
    safe(null, (params) => {
      const a = documents.analysisFor(params.textDocument.uri);
      if (!a) return null;
      const snippets = capabilities().textDocument?.completion?.completionItem?.snippetSupport === true;
      return { isIncomplete: false, items: completions(a.analysis, params.position, { snippets }) };
    }),
  );

  connection.onHover(
    safe(null, (params) => {
      const a = documents.analysisFor(params.textDocument.uri);
      return a ? (hover(a.analysis, params.position) ?? null) : null;
    }),
  );

  connection.onCodeAction(
    safe([], (params) => {
      const a = documents.analysisFor(params.textDocument.uri);
      if (!a) return [];
      const workspaceEdit = capabilities().workspace?.workspaceEdit;
      const resourceOps = workspaceEdit?.resourceOperations ?? [];
      // A document that is not a file on disk (`git:`) gets edits of its own text only.
      const files = a.onDisk && !!workspaceEdit?.documentChanges;
      return codeActions(a.analysis, params.textDocument.uri, params.range, params.context, {
        // A rename is a resource operation, and those only travel in `documentChanges`.
        renameFiles: files && resourceOps.includes('rename'),
        documentChanges: !!workspaceEdit?.documentChanges,
        version: documents.versionOf(params.textDocument.uri),
        pathToUri: a.onDisk ? pathToUri : undefined,
        readText: a.onDisk ? documents.readText : undefined,
        createFiles: files && resourceOps.includes('create'),
        fixAll: () => documents.fixAllEdits(params.textDocument.uri),
        ruleDocsCommand: ruleDocsCommand(),
      });
    }),
  );
}

/** Links to rule docs, symbols, folding and go to definition: moving around. */
function registerNavigation(connection: Connection, documents: OpenDocuments, index: DefinitionIndex): void {
  const safe = requestGuard(connection);

  connection.onDocumentLinks(
    safe([], (params) => {
      const a = documents.analysisFor(params.textDocument.uri);
      return a ? ruleLinks(a.analysis) : [];
    }),
  );

  connection.onDocumentSymbol(
    safe([], (params) => {
      const a = documents.analysisFor(params.textDocument.uri);
      return a ? documentSymbols(a.analysis) : [];
    }),
  );

  connection.onFoldingRanges(
    safe([], (params) => {
      const a = documents.analysisFor(params.textDocument.uri);
      return a ? foldingRanges(a.analysis) : [];
    }),
  );

  connection.onWorkspaceSymbol(
    safe([] as WorkspaceSymbol[], (params) => workspaceSymbols(index.names.all(), params.query)),
  );

  connection.onDefinition(
    safe(null, (params) => {
      const a = documents.analysisFor(params.textDocument.uri);
      if (!a) return null;
      return (
        definition(a.analysis, params.position, {
          configPath: a.config.path,
          readText: documents.readText,
          pathToUri,
        }) ?? null
      );
    }),
  );
}

/** The resolve code lens, and the resolution and its rendered preview on request. */
function registerResolution(
  connection: Connection,
  documents: OpenDocuments,
  lensCommand: () => string,
  resolveClosed: (uri: string) => Resolution | undefined,
): void {
  const safe = requestGuard(connection);

  connection.onCodeLens(
    safe([], (params) => {
      const a = documents.analysisFor(params.textDocument.uri);
      if (!a) return [];
      const command = lensCommand();
      return codeLenses(a.analysis, params.textDocument.uri).map((l) =>
        l.command ? { ...l, command: { ...l.command, command } } : l,
      );
    }),
  );

  connection.onRequest(
    RESOLVE_REQUEST,
    safe(null, (params: { uri?: string } | undefined) => {
      const uri = params?.uri;
      return typeof uri === 'string' ? (resolveOpen(documents, uri) ?? resolveClosed(uri) ?? null) : null;
    }),
  );

  connection.onRequest(
    PREVIEW_REQUEST,
    safe(null, (params: { uri?: string; label?: string } | undefined): PreviewResult | null => {
      const uri = params?.uri;
      const resolution = typeof uri === 'string' ? (resolveOpen(documents, uri) ?? resolveClosed(uri)) : undefined;
      if (!resolution) return null;
      const label = typeof params?.label === 'string' ? params.label : uri!;
      return { markdown: renderResolution(resolution, label), status: summarize(resolution) };
    }),
  );
}

/** Runs each dialect once on a small sample so the first real keystroke does not pay for JIT and schema compilation. */
export function warmUp(configuration: Configuration): void {
  const dir = configuration.folders[0] ?? '/';
  for (const { dialect: kind, fileName: name, text } of warmUpSamples()) {
    try {
      const path = posix.join(dir, name);
      const analysis = analyze({
        text,
        path,
        kind,
        config: configuration.configFor(path),
        root: configuration.folders[0],
      });
      completions(analysis, { line: 3, character: 10 });
      resolveWithProvenance(analysis, 'warm:');
    } catch {
      // warming up is best effort
    }
  }
}
