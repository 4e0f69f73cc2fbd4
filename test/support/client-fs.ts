/**
 * A client's answers to the server's file system requests (`subagents/readDirectory`, `readFile`,
 * `stat`) over a map of files, as the VS Code client gives them with vscode.workspace.fs: for a
 * virtual workspace (test/lsp/virtual-workspace) and the web build (test/web).
 */
import type { MessageConnection } from 'vscode-jsonrpc/node';

/** Requests per method, and every URI asked per method, in order. */
export interface FsRequests {
  requests: Record<string, number>;
  asked: Record<string, string[]>;
}

/** Answers from `files` (paths relative to `root`, a URI such as `memfs:/ws`); anything else is not there. */
export function answerFileSystem(
  connection: MessageConnection,
  root: string,
  files: Record<string, string>,
  { requests, asked }: FsRequests,
): void {
  const rel = (uri: string) =>
    uri === root ? '' : uri.startsWith(`${root}/`) ? uri.slice(root.length + 1) : undefined;
  const isFolder = (p: string) => p === '' || Object.keys(files).some((f) => f.startsWith(`${p}/`));
  const count = (method: string, uris: string[]) => {
    requests[method] = (requests[method] ?? 0) + 1;
    (asked[method] ??= []).push(...uris);
  };
  connection.onRequest('subagents/readDirectory', ({ uris }: { uris: string[] }) => {
    count('subagents/readDirectory', uris);
    return {
      entries: uris.map((uri) => {
        const dir = rel(uri);
        if (dir === undefined || !isFolder(dir)) return null;
        const prefix = dir ? `${dir}/` : '';
        const out = new Map<string, 'file' | 'folder'>();
        for (const f of Object.keys(files)) {
          if (!f.startsWith(prefix)) continue;
          const [name, ...rest] = f.slice(prefix.length).split('/');
          out.set(name, rest.length ? 'folder' : 'file');
        }
        return [...out];
      }),
    };
  });
  connection.onRequest('subagents/readFile', ({ uris }: { uris: string[] }) => {
    count('subagents/readFile', uris);
    return {
      files: uris.map((uri) => {
        const p = rel(uri);
        const text = p === undefined ? undefined : files[p];
        return text === undefined ? { error: 'no such file or folder' } : { text };
      }),
    };
  });
  connection.onRequest('subagents/stat', ({ uris }: { uris: string[] }) => {
    count('subagents/stat', uris);
    return {
      kinds: uris.map((uri) => {
        const p = rel(uri);
        return p === undefined ? null : files[p] !== undefined ? 'file' : isFolder(p) ? 'folder' : null;
      }),
    };
  });
}
