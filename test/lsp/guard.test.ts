/**
 * The server's boundary (server/guard.ts) on its own: each notification's params are checked
 * before the handler sees them; a malformed one is logged with what is wrong and dropped, a
 * handler that throws or rejects is logged, and everything else passes through untouched.
 */
import { strict as assert } from 'assert';
import type { Connection } from 'vscode-languageserver';
import { guardedConnection } from '../../server/guard';

type Handler = (params: unknown) => unknown;

/** A connection that only records the handlers registered on it. */
function fakeConnection() {
  const handlers = new Map<string, Handler>();
  const register = (name: string) => (handler: Handler) => void handlers.set(name, handler);
  const connection = {
    onDidOpenTextDocument: register('onDidOpenTextDocument'),
    onDidChangeTextDocument: register('onDidChangeTextDocument'),
    onDidCloseTextDocument: register('onDidCloseTextDocument'),
    onDidSaveTextDocument: register('onDidSaveTextDocument'),
    onWillSaveTextDocument: register('onWillSaveTextDocument'),
    onDidChangeWatchedFiles: register('onDidChangeWatchedFiles'),
    console: { kind: 'unguarded' },
  };
  return { connection: connection as unknown as Connection, handlers };
}

/** What reaches the handler of `name` and what is logged when `params` arrive. */
function deliver(name: string, params: unknown, handler: Handler = () => undefined) {
  const { connection, handlers } = fakeConnection();
  const logged: string[] = [];
  const seen: unknown[] = [];
  const guarded = guardedConnection(connection, (m) => logged.push(m)) as unknown as Record<string, unknown>;
  (guarded[name] as (h: Handler) => void)((p) => {
    seen.push(p);
    return handler(p);
  });
  handlers.get(name)!(params);
  return { seen, logged };
}

const uri = 'file:///w/.polytoken/subagents/a.md';
const open = (doc: Record<string, unknown>) => ({
  textDocument: { uri, languageId: 'markdown', version: 1, text: 'x', ...doc },
});
const change = (contentChanges: unknown, version: unknown = 2) => ({ textDocument: { uri, version }, contentChanges });
const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };

describe('server boundary: malformed notifications', () => {
  it('passes well-formed params through as they are', () => {
    const cases: [string, unknown][] = [
      ['onDidOpenTextDocument', open({})],
      ['onDidChangeTextDocument', change([{ text: 'y' }, { range, text: 'z' }])],
      ['onDidChangeTextDocument', change([])],
      ['onDidCloseTextDocument', { textDocument: { uri } }],
      ['onDidSaveTextDocument', { textDocument: { uri } }],
      ['onWillSaveTextDocument', { textDocument: { uri }, reason: 1 }],
      ['onDidChangeWatchedFiles', { changes: [{ uri, type: 1 }] }],
      ['onDidChangeWatchedFiles', { changes: [] }],
    ];
    for (const [name, params] of cases) {
      const { seen, logged } = deliver(name, params);
      assert.deepEqual(logged, [], name);
      assert.equal(seen.length, 1, name);
      assert.equal(seen[0], params, `${name} gets the same object`);
    }
  });

  it('drops each malformed shape and says what is wrong', () => {
    const cases: [string, unknown, string][] = [
      ['onDidOpenTextDocument', null, 'no textDocument'],
      ['onDidOpenTextDocument', { textDocument: [] }, 'no textDocument'],
      ['onDidOpenTextDocument', open({ uri: 7 }), 'textDocument.uri is not a string'],
      ['onDidOpenTextDocument', open({ text: null }), 'textDocument.text is not a string'],
      ['onDidOpenTextDocument', open({ version: 1.5 }), 'textDocument.version is not an integer'],
      ['onDidOpenTextDocument', open({ version: '1' }), 'textDocument.version is not an integer'],
      ['onDidOpenTextDocument', open({ languageId: 3 }), 'textDocument.languageId is not a string'],
      [
        'onDidChangeTextDocument',
        { textDocument: { uri: null, version: 2 }, contentChanges: [] },
        'textDocument.uri is not a string',
      ],
      ['onDidChangeTextDocument', change([], null), 'textDocument.version is not an integer'],
      ['onDidChangeTextDocument', change({ text: 'y' }), 'contentChanges is not a list'],
      ['onDidChangeTextDocument', change([{ text: 'y' }, null]), 'a content change has no text'],
      ['onDidChangeTextDocument', change([{ text: 1 }]), 'a content change has no text'],
      ['onDidChangeTextDocument', change([{ text: 'y', range: {} }]), 'a content change has a malformed range'],
      [
        'onDidChangeTextDocument',
        change([{ text: 'y', range: { ...range, end: { line: 0, character: -1 } } }]),
        'a content change has a malformed range',
      ],
      [
        'onDidChangeTextDocument',
        change([{ text: 'y', range: { ...range, start: { line: 0.5, character: 0 } } }]),
        'a content change has a malformed range',
      ],
      [
        'onDidChangeTextDocument',
        change([{ text: 'y', range: { ...range, start: { line: -1, character: 0 } } }]),
        'a content change has a malformed range',
      ],
      [
        'onDidChangeTextDocument',
        change([{ text: 'y', range: { ...range, start: { line: 0, character: '0' } } }]),
        'a content change has a malformed range',
      ],
      ['onDidCloseTextDocument', { textDocument: { uri: 1 } }, 'textDocument.uri is not a string'],
      ['onDidSaveTextDocument', {}, 'no textDocument'],
      ['onWillSaveTextDocument', { textDocument: null }, 'no textDocument'],
      ['onDidChangeWatchedFiles', { changes: {} }, 'changes is not a list'],
      ['onDidChangeWatchedFiles', [], 'changes is not a list'],
      ['onDidChangeWatchedFiles', { changes: [{ uri, type: '1' }] }, 'a change has no uri or type'],
      ['onDidChangeWatchedFiles', { changes: [{ uri, type: 1 }, { type: 2 }] }, 'a change has no uri or type'],
    ];
    for (const [name, params, problem] of cases) {
      const { seen, logged } = deliver(name, params);
      assert.deepEqual(seen, [], `${name}: ${problem}`);
      const what = name.replace(/^on/, '');
      assert.deepEqual(logged, [`subagents: ignored a malformed ${what} notification (${problem}).`]);
    }
  });

  it('logs a handler that throws or rejects, and leaves other members of the connection alone', async () => {
    const thrown = deliver('onDidCloseTextDocument', { textDocument: { uri } }, () => {
      throw new Error('boom');
    });
    assert.equal(thrown.logged.length, 1);
    assert.match(thrown.logged[0], /^subagents: onDidCloseTextDocument failed: Error: boom\n/);
    const rejected = deliver('onDidSaveTextDocument', { textDocument: { uri } }, () => Promise.reject('late'));
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(rejected.logged, ['subagents: onDidSaveTextDocument failed: late']);
    const plain = deliver('onDidCloseTextDocument', { textDocument: { uri } }, () => ({ then: 'not a promise' }));
    assert.deepEqual(plain.logged, [], 'a result that is no promise is not waited for');
    const { connection } = fakeConnection();
    const guarded = guardedConnection(connection, () => undefined);
    assert.equal(guarded.console, connection.console);
  });
});
