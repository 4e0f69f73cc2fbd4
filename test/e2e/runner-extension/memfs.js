// A file system that lives in memory, scheme `memfs:` (tests only): the workspace of the web run
// (test/e2e/driver.mjs --web) is `memfs:/ws`, a folder that is not on any disk, as a github.dev
// repository is not. Seeded from a folder on disk when the runner extension starts; every change
// fires onDidChangeFile, so VS Code's file watchers (and the language server's) see it.
'use strict';
const fs = require('fs');
const path = require('path');
const vscode = require('vscode');

class MemFS {
  constructor() {
    /** path ('/ws/a.md') → { type, data?, ctime, mtime } */
    this.entries = new Map([['/', { type: vscode.FileType.Directory, ctime: Date.now(), mtime: Date.now() }]]);
    this.emitter = new vscode.EventEmitter();
    this.onDidChangeFile = this.emitter.event;
  }

  /** Copies a folder of the disk to `at` (a path of this file system). */
  seed(dir, at) {
    this.mkdirs(at);
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = `${at}/${e.name}`;
      if (e.isDirectory()) this.seed(path.join(dir, e.name), p);
      else this.put(p, fs.readFileSync(path.join(dir, e.name)));
    }
  }

  mkdirs(p) {
    const parts = p.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) {
      const q = `/${parts.slice(0, i).join('/')}`;
      if (!this.entries.has(q))
        this.entries.set(q, { type: vscode.FileType.Directory, ctime: Date.now(), mtime: Date.now() });
    }
  }

  put(p, data) {
    this.mkdirs(path.posix.dirname(p));
    const old = this.entries.get(p);
    this.entries.set(p, {
      type: vscode.FileType.File,
      data: Uint8Array.from(data),
      ctime: old?.ctime ?? Date.now(),
      mtime: Date.now(),
    });
    return old;
  }

  get(uri) {
    const e = this.entries.get(uri.path);
    if (!e) throw vscode.FileSystemError.FileNotFound(uri);
    return e;
  }

  fire(type, uri) {
    this.emitter.fire([{ type, uri }]);
  }

  watch() {
    return new vscode.Disposable(() => undefined);
  }

  stat(uri) {
    const e = this.get(uri);
    return { type: e.type, ctime: e.ctime, mtime: e.mtime, size: e.data ? e.data.byteLength : 0 };
  }

  readDirectory(uri) {
    if (this.get(uri).type !== vscode.FileType.Directory) throw vscode.FileSystemError.FileNotADirectory(uri);
    const prefix = uri.path === '/' ? '/' : `${uri.path}/`;
    const out = [];
    for (const [p, e] of this.entries)
      if (p !== '/' && p.startsWith(prefix) && !p.slice(prefix.length).includes('/'))
        out.push([p.slice(prefix.length), e.type]);
    return out;
  }

  createDirectory(uri) {
    this.mkdirs(uri.path);
    this.fire(vscode.FileChangeType.Created, uri);
  }

  readFile(uri) {
    const e = this.get(uri);
    if (e.type !== vscode.FileType.File) throw vscode.FileSystemError.FileIsADirectory(uri);
    return e.data;
  }

  writeFile(uri, content, options) {
    const exists = this.entries.has(uri.path);
    if (!exists && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
    if (exists && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    this.put(uri.path, content);
    this.fire(exists ? vscode.FileChangeType.Changed : vscode.FileChangeType.Created, uri);
  }

  delete(uri) {
    this.get(uri);
    for (const p of [...this.entries.keys()])
      if (p === uri.path || p.startsWith(`${uri.path}/`)) this.entries.delete(p);
    this.fire(vscode.FileChangeType.Deleted, uri);
  }

  rename(from, to, options) {
    if (this.entries.has(to.path) && !options.overwrite) throw vscode.FileSystemError.FileExists(to);
    this.get(from);
    for (const [p, e] of [...this.entries]) {
      if (p !== from.path && !p.startsWith(`${from.path}/`)) continue;
      this.entries.delete(p);
      this.mkdirs(path.posix.dirname(to.path + p.slice(from.path.length)));
      this.entries.set(to.path + p.slice(from.path.length), e);
    }
    this.emitter.fire([
      { type: vscode.FileChangeType.Deleted, uri: from },
      { type: vscode.FileChangeType.Created, uri: to },
    ]);
  }
}

/** Registers `memfs:` seeded with `seedDir` at `/ws`. */
exports.registerMemFs = function registerMemFs(seedDir) {
  const memfs = new MemFS();
  memfs.seed(seedDir, '/ws');
  return vscode.workspace.registerFileSystemProvider('memfs', memfs, { isCaseSensitive: true });
};
