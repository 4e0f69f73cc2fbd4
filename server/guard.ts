/**
 * The server's boundary: notifications whose params are malformed (a `didOpen` whose text is
 * null, a change without a version, a watched-file event without a URI) are logged and
 * ignored instead of reaching code that trusts their shape, and a handler that throws is
 * logged: the server keeps serving. Requests are guarded in features.ts (`safe`).
 */
import type { Connection } from 'vscode-languageserver';

type Check = (params: unknown) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === 'string';
const isVersion = (v: unknown) => Number.isInteger(v);

function textDocumentUri(params: unknown): string | undefined {
  if (!isObject(params) || !isObject(params.textDocument)) return 'no textDocument';
  return isString(params.textDocument.uri) ? undefined : 'textDocument.uri is not a string';
}

const checks: Record<string, Check> = {
  onDidOpenTextDocument: (p) => {
    const bad = textDocumentUri(p);
    if (bad) return bad;
    const td = (p as { textDocument: Record<string, unknown> }).textDocument;
    if (!isString(td.text)) return 'textDocument.text is not a string';
    if (!isVersion(td.version)) return 'textDocument.version is not an integer';
    return isString(td.languageId) ? undefined : 'textDocument.languageId is not a string';
  },
  onDidChangeTextDocument: (p) => {
    const bad = textDocumentUri(p);
    if (bad) return bad;
    const params = p as { textDocument: Record<string, unknown>; contentChanges?: unknown };
    if (!isVersion(params.textDocument.version)) return 'textDocument.version is not an integer';
    if (!Array.isArray(params.contentChanges)) return 'contentChanges is not a list';
    for (const change of params.contentChanges) {
      if (!isObject(change) || !isString(change.text)) return 'a content change has no text';
      if (change.range !== undefined && !validRange(change.range)) return 'a content change has a malformed range';
    }
    return undefined;
  },
  onDidCloseTextDocument: textDocumentUri,
  onDidSaveTextDocument: textDocumentUri,
  onWillSaveTextDocument: textDocumentUri,
  onDidChangeWatchedFiles: (p) => {
    if (!isObject(p) || !Array.isArray(p.changes)) return 'changes is not a list';
    return p.changes.every((c) => isObject(c) && isString(c.uri) && typeof c.type === 'number')
      ? undefined
      : 'a change has no uri or type';
  },
};

function validRange(r: unknown): boolean {
  const pos = (p: unknown) =>
    isObject(p) &&
    Number.isInteger(p.line) &&
    Number.isInteger(p.character) &&
    (p.line as number) >= 0 &&
    (p.character as number) >= 0;
  return isObject(r) && pos(r.start) && pos(r.end);
}

/**
 * The connection with its notification registrations guarded: what `TextDocuments.listen` and
 * the server register through it only ever sees well-formed params.
 */
export function guardedConnection(connection: Connection, log: (message: string) => void): Connection {
  const wrap = (name: string, check: Check | undefined) => (handler: (params: any) => unknown) =>
    (connection as any)[name]((params: unknown) => {
      const problem = check?.(params);
      if (problem) {
        log(`subagents: ignored a malformed ${name.slice('on'.length)} notification (${problem}).`);
        return;
      }
      try {
        const result = handler(params);
        if (result && typeof (result as Promise<unknown>).catch === 'function')
          (result as Promise<unknown>).catch((e) => log(`subagents: ${name} failed: ${describe(e)}`));
      } catch (e) {
        log(`subagents: ${name} failed: ${describe(e)}`);
      }
    });
  return new Proxy(connection, {
    get(target, prop, receiver) {
      if (typeof prop === 'string' && prop in checks) return wrap(prop, checks[prop]);
      return Reflect.get(target, prop, receiver);
    },
  });
}

function describe(e: unknown): string {
  return e instanceof Error ? (e.stack ?? e.message) : String(e);
}
