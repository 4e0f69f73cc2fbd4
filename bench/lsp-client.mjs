// A language-server client over stdio for the benchmarks (bench/server.mjs, bench/view.mjs):
// spawns `node dist/cli.js lsp --stdio`, answers the server's requests, and lets a benchmark
// wait for notifications with a predicate.
import { spawn } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import { createRequire } from 'module';
import { fileURLToPath, pathToFileURL } from 'url';

const require = createRequire(import.meta.url);
const { createMessageConnection, StreamMessageReader, StreamMessageWriter } = require('vscode-jsonrpc/node');
const here = path.dirname(fileURLToPath(import.meta.url));
const cli = path.join(path.dirname(here), 'dist', 'cli.js');
export const uriOf = (p) => pathToFileURL(p).toString();

export const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};
export const median = (xs) => pct(xs, 50);

/** The process's resident memory now (VmRSS) or at its peak (VmHWM), in MiB. */
export function rssMiB(pid, field = 'VmRSS') {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(status);
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}
export const peakRssMiB = (pid) => rssMiB(pid, 'VmHWM');

export class Client {
  constructor() {
    this.started = performance.now();
    this.child = spawn(process.execPath, [cli, 'lsp', '--stdio'], { stdio: ['pipe', 'pipe', 'inherit'] });
    this.c = createMessageConnection(
      new StreamMessageReader(this.child.stdout),
      new StreamMessageWriter(this.child.stdin),
    );
    this.listeners = new Set();
    this.c.onNotification('textDocument/publishDiagnostics', (p) =>
      this.emit({ type: 'diagnostics', ...p, at: performance.now() }),
    );
    this.c.onNotification('$/progress', (p) => this.emit({ type: 'progress', ...p, at: performance.now() }));
    this.c.onNotification('subagents/workspaceChanged', (p) =>
      this.emit({ type: 'workspaceChanged', ...p, at: performance.now() }),
    );
    this.c.onNotification('window/logMessage', () => {});
    this.c.onRequest('workspace/configuration', (p) => p.items.map(() => ({})));
    this.c.onRequest('client/registerCapability', () => null);
    this.c.onRequest('window/workDoneProgress/create', () => null);
    this.c.listen();
  }
  emit(e) {
    for (const l of [...this.listeners]) l(e);
  }
  wait(pred, ms = 300_000) {
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => {
        this.listeners.delete(l);
        reject(new Error('timeout'));
      }, ms);
      const l = (e) => {
        if (pred(e)) {
          clearTimeout(t);
          this.listeners.delete(l);
          resolve(e);
        }
      };
      this.listeners.add(l);
    });
  }
  /** `workspace`: more workspace capabilities (`workspaceFolders`, `didChangeWatchedFiles`). */
  async init(folder, workspace = {}) {
    await this.c.sendRequest('initialize', {
      processId: process.pid,
      rootUri: uriOf(folder),
      workspaceFolders: [{ uri: uriOf(folder), name: 'ws' }],
      capabilities: {
        window: { workDoneProgress: true },
        workspace: { configuration: true, ...workspace },
        textDocument: {
          publishDiagnostics: { versionSupport: true },
          completion: { completionItem: { snippetSupport: true } },
        },
      },
    });
    this.c.sendNotification('initialized', {});
  }
  async stop() {
    try {
      await Promise.race([this.c.sendRequest('shutdown'), new Promise((r) => setTimeout(r, 2000))]);
      this.c.sendNotification('exit');
    } catch {}
    await new Promise((r) => setTimeout(r, 100));
    if (this.child.exitCode === null) this.child.kill();
    this.c.dispose();
  }
}
