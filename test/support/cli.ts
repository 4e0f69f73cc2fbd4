/** Running the built `subagents` CLI (dist/cli.js) as a process on throw-away workspaces. */
import { strict as assert } from 'assert';
import { execFileSync, spawn, spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export const ROOT = path.resolve(__dirname, '..', '..', '..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Whether the CLI runs inside the test process (the mutation run sets it: scripts/stryker/mocha-setup.cjs).
 * Stryker sees only what the test process executes, so there `main` of the compiled CLI is called with the
 * same arguments, folder, environment and standard input a process would get; everywhere else the real
 * bundled CLI runs as a process.
 */
export const CLI_IN_PROCESS = process.env.SUBAGENTS_CLI_IN_PROCESS === '1';

export interface CliRun {
  cwd: string;
  /** The whole environment of the run. */
  env: NodeJS.ProcessEnv;
  input?: string;
  nodeArgs?: string[];
}

/** Whether the arguments start a server (`lsp --stdio`, `mcp`) rather than end with a usage error or help. */
const startsServer = (args: string[]) =>
  args[0] === 'mcp' || (args[0] === 'lsp' && args.length > 1 && args.slice(1).every((a) => a === '--stdio'));

/** `node dist/cli.js ...args`, or its `main` in this process (CLI_IN_PROCESS; not for the servers or Node flags). */
export function runCli(args: string[], run: CliRun): Run {
  if (CLI_IN_PROCESS && !run.nodeArgs && !startsServer(args)) return runInProcess(args, run);
  const r = spawnSync(process.execPath, [...(run.nodeArgs ?? []), CLI, ...args], {
    cwd: run.cwd,
    env: run.env,
    input: run.input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** The CLI's `main` in this process, whatever CLI_IN_PROCESS says (not for the servers or Node flags). */
export function runInProcess(args: string[], run: CliRun): Run {
  const { main } = require(path.join(ROOT, 'out', 'cli', 'run.js')) as typeof import('../../cli/run');
  const version = (require(path.join(ROOT, 'package.json')) as { version: string }).version;
  let stdout = '';
  let stderr = '';
  try {
    const code = main(args, {
      cwd: run.cwd,
      env: run.env,
      out: (text) => (stdout += text),
      err: (text) => (stderr += text),
      version,
      stdoutIsTTY: false,
      readStdin: () => run.input ?? '',
    });
    return { code: code ?? 0, stdout, stderr };
  } catch (e) {
    // As cli/main.ts reports what escapes `main`.
    const text = e instanceof Error ? e.message || e.name : String(e);
    return { code: 2, stdout, stderr: `${stderr}subagents: internal error: ${text.split('\n')[0]}\n` };
  }
}

/** Temporary folders of one test file; `removeTemps` in its `after`. */
export class Temps {
  private readonly dirs: string[] = [];
  /** An empty folder used as XDG_CONFIG_HOME, so the machine's own global folder never leaks in. */
  readonly xdg = this.dir('subagents-xdg-');
  /** XDG_CACHE_HOME: the key of `check --cache` is made there, not in the machine's own cache folder. */
  readonly xdgCache = this.dir('subagents-xdg-cache-');

  dir(prefix = 'subagents-cli-'): string {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
    this.dirs.push(dir);
    return dir;
  }

  /** A workspace from a map of relative path → content. */
  workspace(files: Record<string, string | Buffer>, into = this.dir()): string {
    for (const [rel, content] of Object.entries(files)) {
      const abs = path.join(into, rel);
      fs.mkdirSync(path.dirname(abs), { recursive: true });
      fs.writeFileSync(abs, content);
    }
    return into;
  }

  /** Runs `node dist/cli.js ...args` in `cwd` (see runCli). */
  run(
    args: string[],
    cwd: string,
    options: { env?: NodeJS.ProcessEnv; input?: string; nodeArgs?: string[] } = {},
  ): Run {
    return runCli(args, this.runOf(cwd, options));
  }

  /** Runs the CLI's `main` in the test process, as `run` does under CLI_IN_PROCESS. */
  runInTestProcess(args: string[], cwd: string, options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Run {
    return runInProcess(args, this.runOf(cwd, options));
  }

  private runOf(cwd: string, options: { env?: NodeJS.ProcessEnv; input?: string; nodeArgs?: string[] }): CliRun {
    return {
      cwd,
      env: {
        ...process.env,
        XDG_CONFIG_HOME: this.xdg,
        XDG_CACHE_HOME: this.xdgCache,
        NO_COLOR: '',
        FORCE_COLOR: '',
        ...options.env,
      },
      input: options.input,
      nodeArgs: options.nodeArgs,
    };
  }

  remove(): void {
    for (const dir of this.dirs.splice(0)) {
      try {
        fs.chmodSync(dir, 0o700);
      } catch {
        // already gone
      }
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
}

/** Runs git in `repo` with a fixed identity and no system configuration; its standard output. */
export function git(repo: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'T',
      GIT_AUTHOR_EMAIL: 't@example.com',
      GIT_COMMITTER_NAME: 'T',
      GIT_COMMITTER_EMAIL: 't@example.com',
      GIT_CONFIG_NOSYSTEM: '1',
    },
  });
}

/** A usage or I/O error: exit 2, nothing on stdout, exactly one `subagents: …` line on stderr, no stack trace. */
export function assertUsageError(r: Run, mention?: RegExp): void {
  assert.equal(r.code, 2, `exit status (stderr: ${r.stderr})`);
  assert.equal(r.stdout, '');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, `one line on stderr, got: ${r.stderr}`);
  assert.match(lines[0], /^subagents: \S/);
  assert.doesNotMatch(r.stderr, /\n\s+at /);
  if (mention) assert.match(lines[0], mention);
}

/** A Polytoken definition with no error and no warning. */
export const VALID_POLYTOKEN = (name: string, tools = '[file_read, grep]') => `---
name: ${name}
description: Reviews a change.
polytoken:
  tools: ${tools}
---
Review {{ change }}.
`;

/** A Picasso role with no error and no warning. */
export const VALID_PICASSO = (name: string) => `name: ${name}
invocation: "@${name}"
model: some-model
tools: [read_file, grep]
max_steps: 10
max_depth: 0
description: Runs the tests.
when_to_use: After a change.
output_schema: { type: object }
system_prompt: Run the tests.
`;

/**
 * Starts a language server over stdio (`command ...args`), sends initialize, initialized,
 * shutdown and exit; returns the initialize result, the exit status and stderr.
 */
export async function lspSession(
  command: string,
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ init: any; code: number | null; stderr: string }> {
  const child = spawn(command, args, { cwd, env });
  const send = (m: object) => {
    const body = JSON.stringify({ jsonrpc: '2.0', ...m });
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  let out = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const response = (id: number) =>
    new Promise<any>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no response ${id}: ${out} ${stderr}`)), 30000);
      const look = () => {
        for (const part of out.split(/Content-Length: \d+\r\n\r\n/)) {
          try {
            const msg = JSON.parse(part);
            if (msg.id === id) {
              clearTimeout(timer);
              child.stdout.off('data', onData);
              return resolve(msg);
            }
          } catch {
            // an incomplete message
          }
        }
      };
      const onData = (d: Buffer) => {
        out += d;
        look();
      };
      child.stdout.on('data', onData);
      look();
    });
  try {
    send({ id: 1, method: 'initialize', params: { processId: null, rootUri: null, capabilities: {} } });
    const init = await response(1);
    send({ method: 'initialized', params: {} });
    send({ id: 2, method: 'shutdown' });
    await response(2);
    send({ method: 'exit' });
    return { init, code: await exited, stderr };
  } finally {
    child.kill();
  }
}
