/**
 * The mirror of files the server reads through the client (server/mirror.ts), on its own with a
 * fake client: folders listed a level at a time in batches, the client's answers read as hostile
 * input, file texts held within their limits, and watched-file events keeping listings current.
 */
import { strict as assert } from 'assert';
import { ClientFiles, BATCH, MAX_MIRRORED_BYTES, PARALLEL } from '../../server/mirror';
import {
  MAX_FILE_BYTES,
  READ_DIRECTORY_REQUEST,
  READ_FILE_REQUEST,
  STAT_REQUEST,
  type ReadDirectoryResult,
  type ReadFileResult,
  type StatResult,
} from '../../shared';

type Listing = unknown;

/** A client over an in-memory tree: folder path → entries as the client would answer them, file path → answer. */
class FakeClient {
  readonly requests: { method: string; paths: string[] }[] = [];
  readonly logs: string[] = [];
  inFlight = 0;
  mostInFlight = 0;

  constructor(
    readonly folders: Record<string, Listing>,
    readonly files: Record<string, unknown> = {},
    readonly kinds: Record<string, unknown> = {},
  ) {}

  readonly host = {
    toUri: (path: string) => `vfs://x${path}`,
    log: (message: string) => void this.logs.push(message),
    request: async <R>(method: string, params: unknown): Promise<R> => {
      const paths = (params as { uris: string[] }).uris.map((u) => u.slice('vfs://x'.length));
      this.requests.push({ method, paths });
      this.inFlight++;
      this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
      await new Promise((r) => setImmediate(r));
      this.inFlight--;
      if (method === READ_DIRECTORY_REQUEST)
        return { entries: paths.map((p) => this.folders[p] ?? null) } as ReadDirectoryResult as R;
      if (method === READ_FILE_REQUEST) {
        assert.equal((params as { maxBytes: number }).maxBytes, MAX_FILE_BYTES);
        return { files: paths.map((p) => this.files[p]) } as ReadFileResult as R;
      }
      if (method === STAT_REQUEST) return { kinds: paths.map((p) => this.kinds[p] ?? null) } as StatResult as R;
      throw new Error(`unexpected ${method}`);
    },
  };
}

const listedFolders = (client: FakeClient) =>
  client.requests.filter((r) => r.method === READ_DIRECTORY_REQUEST).flatMap((r) => r.paths);

describe('the client-read mirror of a virtual workspace', () => {
  it('lists the tree a level at a time, skipping node_modules and .git; the engine sees folders and files', async () => {
    const client = new FakeClient({
      '/ws': [
        ['a.md', 'file'],
        ['sub', 'folder'],
        ['node_modules', 'folder'],
        ['.git', 'folder'],
      ],
      '/ws/sub': [
        ['b.yaml', 'file'],
        ['deeper', 'folder'],
      ],
      '/ws/sub/deeper': [['c.json', 'file']],
    });
    const files = new ClientFiles(client.host);
    assert.deepEqual(await files.listTree(['/ws']), ['/ws/a.md', '/ws/sub/b.yaml', '/ws/sub/deeper/c.json']);
    assert.deepEqual(listedFolders(client), ['/ws', '/ws/sub', '/ws/sub/deeper']);
    assert.deepEqual(
      client.requests.map((r) => r.paths.length),
      [1, 1, 1],
      'one request per level',
    );
    assert.deepEqual(files.readDirectory('/ws/sub'), [
      { name: 'b.yaml', kind: 'file' },
      { name: 'deeper', kind: 'folder' },
    ]);
    assert.equal(files.readDirectory('/ws/node_modules'), undefined);
    assert.equal(files.stat('/ws/sub'), 'folder');
    assert.equal(files.stat('/ws'), 'folder', 'a listed folder whose parent was never listed');
    assert.equal(files.stat('/ws/a.md'), 'file', 'from its folder listing, before it is read');
    assert.equal(files.stat('/ws/nope.md'), undefined);
    assert.equal(files.stat('/elsewhere/x.md'), undefined);
    assert.equal(files.toUri('/ws/a.md'), 'vfs://x/ws/a.md');
    assert.equal(files.homes(), undefined);
  });

  it('stops at the depth asked for, or when the load went stale; the root folder / joins without a double slash', async () => {
    const client = new FakeClient({
      '/': [
        ['top.md', 'file'],
        ['ws', 'folder'],
      ],
      '/ws': [['a.md', 'file']],
    });
    assert.deepEqual(await new ClientFiles(client.host).listTree(['/'], undefined, 1), ['/top.md']);
    assert.deepEqual(await new ClientFiles(client.host).listTree(['/']), ['/top.md', '/ws/a.md']);
    assert.deepEqual(await new ClientFiles(client.host).listTree(['/'], () => true), []);
    let levels = 0;
    assert.deepEqual(await new ClientFiles(client.host).listTree(['/'], () => levels++ > 0), ['/top.md']);
  });

  it(`asks for ${BATCH} folders per request, ${PARALLEL} requests at a time, and keeps the answers in order`, async () => {
    const folders: Record<string, Listing> = { '/ws': [] };
    const names = Array.from({ length: 2 * PARALLEL * BATCH }, (_, i) => `d${String(i).padStart(4, '0')}`);
    (folders['/ws'] as unknown[]).push(...names.map((n) => [n, 'folder']));
    for (const n of names) folders[`/ws/${n}`] = [[`${n}.md`, 'file']];
    const client = new FakeClient(folders);
    const found = await new ClientFiles(client.host).listTree(['/ws']);
    assert.deepEqual(
      found,
      names.map((n) => `/ws/${n}/${n}.md`),
    );
    assert.deepEqual(
      client.requests.map((r) => r.paths.length),
      [1, ...Array<number>(2 * PARALLEL).fill(BATCH)],
    );
    assert.equal(client.mostInFlight, PARALLEL);
  });

  it("reads the client's listing as hostile: only plain names of files and folders", async () => {
    const client = new FakeClient({
      '/ws': [
        ['ok.md', 'file'],
        ['a/b.md', 'file'],
        ['', 'file'],
        ['.', 'folder'],
        ['..', 'folder'],
        [7, 'file'],
        'x.md',
        ['link.md', 'symlink'],
        ['dir', 'folder'],
      ],
      '/ws/dir': 'not a list',
    });
    const files = new ClientFiles(client.host);
    assert.deepEqual(await files.listTree(['/ws']), ['/ws/ok.md']);
    assert.deepEqual(files.readDirectory('/ws'), [
      { name: 'ok.md', kind: 'file' },
      { name: 'dir', kind: 'folder' },
    ]);
    assert.equal(files.readDirectory('/ws/dir'), undefined, 'a folder that could not be listed');
    assert.equal(files.stat('/ws/dir'), 'folder', 'still a folder in its parent');
  });

  it('takes a missing or empty answer of the client for nothing there', async () => {
    for (const answer of [null, {}]) {
      const host = { toUri: (p: string) => p, log: () => undefined, request: async <R>() => answer as R };
      const files = new ClientFiles(host);
      assert.deepEqual(await files.listTree(['/ws']), []);
      assert.equal(files.readDirectory('/ws'), undefined);
      await files.readFiles(['/ws/a.md']);
      assert.throws(() => files.readFile('/ws/a.md'), /^Error: no answer from the editor$/);
      assert.deepEqual(await files.statAll(['/ws/a.md']), [undefined]);
    }
  });

  it('holds the texts it read; a file it could not read throws with why', async () => {
    const client = new FakeClient(
      {},
      {
        '/ws/a.md': { text: 'name: a\n' },
        '/ws/gone.md': { error: 'no such file' },
        '/ws/odd.md': { error: 42 },
        '/ws/big.md': { text: 'x'.repeat(MAX_FILE_BYTES + 1) },
        '/ws/edge.md': { text: 'y'.repeat(MAX_FILE_BYTES) },
      },
    );
    const files = new ClientFiles(client.host);
    await files.readFiles([]);
    assert.deepEqual(client.requests, [], 'nothing to read: no request');
    await files.readFiles(['/ws/a.md', '/ws/gone.md', '/ws/odd.md', '/ws/silent.md', '/ws/big.md', '/ws/edge.md']);
    assert.equal(files.readFile('/ws/a.md'), 'name: a\n');
    assert.equal(files.stat('/ws/a.md'), 'file');
    assert.equal(files.readFile('/ws/edge.md').length, MAX_FILE_BYTES);
    assert.throws(() => files.readFile('/ws/gone.md'), /^Error: no such file$/);
    assert.throws(() => files.readFile('/ws/odd.md'), /^Error: not read$/);
    assert.throws(() => files.readFile('/ws/silent.md'), /^Error: no answer from the editor$/);
    assert.throws(() => files.readFile('/ws/big.md'), new RegExp(`^Error: is larger than ${MAX_FILE_BYTES} bytes$`));
    assert.throws(() => files.readFile('/ws/never.md'), /^Error: no such file or folder$/);
    assert.equal(files.stat('/ws/gone.md'), undefined);
  });

  it(`holds at most ${MAX_MIRRORED_BYTES / 1024 / 1024} MB of text, says so once, and has room again once files go`, async () => {
    const text = 'z'.repeat(MAX_FILE_BYTES);
    const fit = Math.floor(MAX_MIRRORED_BYTES / MAX_FILE_BYTES);
    const paths = Array.from({ length: fit + 2 }, (_, i) => `/ws/f${i}.md`);
    // The last that fits fills the mirror exactly.
    const rest = MAX_MIRRORED_BYTES - fit * MAX_FILE_BYTES;
    const answers = Object.fromEntries(paths.map((p) => [p, { text }]));
    answers['/ws/rest.md'] = { text: 'r'.repeat(rest) };
    answers['/ws/one.md'] = { text: '1' };
    const client = new FakeClient({}, answers);
    const files = new ClientFiles(client.host);
    await files.readFiles([...paths.slice(0, fit), '/ws/rest.md']);
    assert.equal(files.readFile('/ws/rest.md').length, rest);
    assert.deepEqual(client.logs, []);
    await files.readFiles(['/ws/one.md']);
    assert.throws(() => files.readFile('/ws/one.md'), /^Error: not read: the workspace holds too much text$/);
    assert.deepEqual(client.logs, [
      `subagents: the workspace's definitions exceed ${MAX_MIRRORED_BYTES / 1024 / 1024} MB; files past that are not read.`,
    ]);
    files.noteKind('/ws/rest.md', undefined);
    await files.readFiles(paths.slice(fit));
    for (const p of paths.slice(0, fit)) assert.equal(files.readFile(p).length, MAX_FILE_BYTES, p);
    for (const p of paths.slice(fit))
      assert.throws(() => files.readFile(p), /^Error: not read: the workspace holds too much text$/);
    // Reading a held file again does not count it twice; a file gone makes room for one more.
    await files.readFiles([paths[0]]);
    files.noteKind(paths[1], undefined);
    await files.readFiles([paths[fit]]);
    assert.equal(files.readFile(paths[fit]).length, MAX_FILE_BYTES);
    assert.equal(client.logs.length, 1, 'said once');
  });

  it('asks what each watched path is now, and follows it: listings updated, what was below a gone folder dropped', async () => {
    const client = new FakeClient(
      {
        '/ws': [
          ['a.md', 'file'],
          ['sub', 'folder'],
        ],
        '/ws/sub': [
          ['b.md', 'file'],
          ['deep', 'folder'],
        ],
        '/ws/sub/deep': [['c.md', 'file']],
      },
      { '/ws/a.md': { text: 'a' }, '/ws/sub/b.md': { text: 'b' }, '/ws/sub/deep/c.md': { text: 'c' } },
      { '/ws/a.md': 'file', '/ws/sub': 'folder', '/ws/x': 'symlink' },
    );
    const files = new ClientFiles(client.host);
    await files.readFiles(await files.listTree(['/ws']));
    assert.deepEqual(await files.statAll(['/ws/a.md', '/ws/sub', '/ws/gone.md', '/ws/x']), [
      'file',
      'folder',
      undefined,
      undefined,
    ]);
    // A file or folder that is still what it was keeps its text, its listing and what is below it.
    files.noteKind('/ws/a.md', 'file');
    files.noteKind('/ws/sub', 'folder');
    assert.equal(files.readFile('/ws/a.md'), 'a');
    assert.equal(files.readFile('/ws/sub/deep/c.md'), 'c');
    assert.deepEqual(files.readDirectory('/ws/sub/deep'), [{ name: 'c.md', kind: 'file' }]);
    assert.deepEqual(
      files.readDirectory('/ws')!.map((e) => e.name),
      ['a.md', 'sub'],
    );
    // A new file: its parent lists it.
    files.noteKind('/ws/new.md', 'file');
    assert.deepEqual(
      files.readDirectory('/ws')!.map((e) => e.name),
      ['a.md', 'sub', 'new.md'],
    );
    // A file that became a folder: no longer a file, listed once, as a folder.
    files.noteKind('/ws/a.md', 'folder');
    assert.throws(() => files.readFile('/ws/a.md'));
    assert.deepEqual(files.readDirectory('/ws'), [
      { name: 'sub', kind: 'folder' },
      { name: 'new.md', kind: 'file' },
      { name: 'a.md', kind: 'folder' },
    ]);
    // A folder gone: it and everything below it.
    files.noteKind('/ws/sub', undefined);
    assert.deepEqual(
      files.readDirectory('/ws')!.map((e) => e.name),
      ['new.md', 'a.md'],
    );
    assert.equal(files.readDirectory('/ws/sub'), undefined);
    assert.equal(files.readDirectory('/ws/sub/deep'), undefined);
    assert.throws(() => files.readFile('/ws/sub/b.md'));
    assert.throws(() => files.readFile('/ws/sub/deep/c.md'));
    assert.equal(files.stat('/ws/sub'), undefined);
    // A folder that became a file keeps nothing below it; a sibling sharing its prefix stays.
    const other = new FakeClient(
      {
        '/ws': [
          ['s', 'folder'],
          ['s2', 'folder'],
        ],
        '/ws/s': [['x.md', 'file']],
        '/ws/s2': [['y.md', 'file']],
      },
      { '/ws/s/x.md': { text: 'x' }, '/ws/s2/y.md': { text: 'y' } },
    );
    const second = new ClientFiles(other.host);
    await second.readFiles(await second.listTree(['/ws']));
    second.noteKind('/ws/s', 'file');
    assert.throws(() => second.readFile('/ws/s/x.md'));
    assert.equal(second.readFile('/ws/s2/y.md'), 'y');
    assert.deepEqual(second.readDirectory('/ws/s2'), [{ name: 'y.md', kind: 'file' }]);
    // A path whose folder was never listed changes no listing.
    second.noteKind('/elsewhere/z.md', 'file');
    assert.equal(second.readDirectory('/elsewhere'), undefined);
  });
});
