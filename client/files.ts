/**
 * The file system requests of the server (shared/protocol.ts), answered with `vscode.workspace.fs`:
 * what a server in a browser's Web Worker, or one serving a virtual workspace (github.dev's
 * `vscode-vfs:`), cannot read itself. Only URIs of the workspace folders' schemes are answered
 * (never `vscode-userdata:` or another extension's files), at most `MAX_URIS` per request; a file
 * is read only when it is a regular file within the size the server asks for.
 */
import * as vscode from 'vscode';
import type { BaseLanguageClient } from 'vscode-languageclient';
import {
  READ_DIRECTORY_REQUEST,
  READ_FILE_REQUEST,
  STAT_REQUEST,
  type FsEntryKind,
  type ReadDirectoryResult,
  type ReadFileResult,
  type StatResult,
} from '../shared/protocol';

/** URIs answered per request (the server sends batches of 100). */
export const MAX_URIS = 1000;

/** The URIs of a request, parsed; those of other schemes than the workspace folders' are undefined. */
function urisOf(params: unknown): (vscode.Uri | undefined)[] {
  const uris = (params as { uris?: unknown } | undefined)?.uris;
  if (!Array.isArray(uris)) return [];
  const schemes = new Set((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.scheme));
  return uris.slice(0, MAX_URIS).map((u) => {
    if (typeof u !== 'string') return undefined;
    try {
      const uri = vscode.Uri.parse(u, true);
      return schemes.has(uri.scheme) ? uri : undefined;
    } catch {
      return undefined;
    }
  });
}

/** A file type as the server sees it: a link to a folder is not followed, a link to a file is a file. */
function kindOf(type: vscode.FileType): FsEntryKind | null {
  if (type & vscode.FileType.Directory) return type & vscode.FileType.SymbolicLink ? null : 'folder';
  return type & vscode.FileType.File ? 'file' : null;
}

/** The short reason a file system error gives. */
function reason(e: unknown): string {
  const code = (e as { code?: unknown })?.code;
  if (code === 'FileNotFound') return 'no such file or folder';
  if (code === 'NoPermissions') return 'permission denied';
  if (code === 'FileIsADirectory') return 'is a folder';
  return e instanceof Error ? e.message.split('\n')[0] : String(e);
}

async function listOne(uri: vscode.Uri | undefined): Promise<[string, FsEntryKind][] | null> {
  if (!uri) return null;
  try {
    const out: [string, FsEntryKind][] = [];
    for (const [name, type] of await vscode.workspace.fs.readDirectory(uri)) {
      const kind = kindOf(type);
      if (kind) out.push([name, kind]);
    }
    return out;
  } catch {
    return null;
  }
}

const decoder = new TextDecoder('utf-8');

async function readOne(uri: vscode.Uri | undefined, maxBytes: number): Promise<{ text: string } | { error: string }> {
  if (!uri) return { error: 'not a file of the workspace' };
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    if (!(stat.type & vscode.FileType.File))
      return { error: stat.type & vscode.FileType.Directory ? 'is a folder' : 'is not a regular file' };
    if (stat.size > maxBytes) return { error: `is ${stat.size} bytes, over the ${maxBytes}-byte limit` };
    const bytes = await vscode.workspace.fs.readFile(uri);
    if (bytes.byteLength > maxBytes) return { error: `is ${bytes.byteLength} bytes, over the ${maxBytes}-byte limit` };
    return { text: decoder.decode(bytes) };
  } catch (e) {
    return { error: reason(e) };
  }
}

async function statOne(uri: vscode.Uri | undefined): Promise<FsEntryKind | null> {
  if (!uri) return null;
  try {
    return kindOf((await vscode.workspace.fs.stat(uri)).type);
  } catch {
    return null;
  }
}

/** Answers the server's file system requests on this client. */
export function serveFiles(client: BaseLanguageClient): vscode.Disposable[] {
  return [
    client.onRequest(READ_DIRECTORY_REQUEST, async (params: unknown): Promise<ReadDirectoryResult> => ({
      entries: await Promise.all(urisOf(params).map(listOne)),
    })),
    client.onRequest(READ_FILE_REQUEST, async (params: unknown): Promise<ReadFileResult> => {
      const asked = (params as { maxBytes?: unknown } | undefined)?.maxBytes;
      const maxBytes = typeof asked === 'number' && asked > 0 ? Math.min(asked, 5 * 1024 * 1024) : 5 * 1024 * 1024;
      return { files: await Promise.all(urisOf(params).map((u) => readOne(u, maxBytes))) };
    }),
    client.onRequest(STAT_REQUEST, async (params: unknown): Promise<StatResult> => ({
      kinds: await Promise.all(urisOf(params).map(statOne)),
    })),
  ];
}
