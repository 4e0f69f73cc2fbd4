/** The few git plumbing commands `subagents diff` needs, run with the real `git`. */
import { isUtf8 } from 'buffer';
import { spawnSync } from 'child_process';

/** git is missing, or refused: the CLI prints the reason and exits 2. */
export class GitError extends Error {}

function git(args: string[], cwd: string, input?: Buffer | string): { ok: boolean; stdout: Buffer; stderr: string } {
  const r = spawnSync('git', args, {
    cwd,
    input,
    maxBuffer: 2 ** 31 - 1,
    env: { ...process.env, GIT_TERMINAL_PROMPT: '0' },
  });
  if (r.error) {
    const code = (r.error as NodeJS.ErrnoException).code;
    throw new GitError(
      code === 'ENOENT' ? 'git is not installed (or not on PATH)' : `git ${args[0]}: ${r.error.message.split('\n')[0]}`,
    );
  }
  return { ok: r.status === 0, stdout: r.stdout, stderr: r.stderr.toString().trim().split('\n')[0] ?? '' };
}

function gitOrThrow(args: string[], cwd: string, input?: Buffer | string): Buffer {
  const r = git(args, cwd, input);
  if (!r.ok) throw new GitError(`git ${args[0]}: ${r.stderr || 'failed'}`);
  return r.stdout;
}

/** The repository's top folder, or undefined outside a repository (or without git). */
export function topLevel(cwd: string): string | undefined {
  try {
    const r = git(['rev-parse', '--show-toplevel'], cwd);
    return r.ok ? r.stdout.toString().trim() : undefined;
  } catch {
    return undefined;
  }
}

/** The commit a revision names, or undefined when it names none. */
export function resolveCommit(top: string, revision: string): string | undefined {
  const r = git(['rev-parse', '--verify', '--quiet', '--end-of-options', `${revision}^{commit}`], top);
  return r.ok ? r.stdout.toString().trim() : undefined;
}

/** The local and remote-tracking branch names, and the current branch (undefined when HEAD is detached). */
export function branchNames(top: string): { branches: string[]; current?: string } {
  const refs = git(['for-each-ref', '--format=%(refname:short)', 'refs/heads', 'refs/remotes'], top);
  const head = git(['symbolic-ref', '--quiet', '--short', 'HEAD'], top);
  const branches = refs.ok ? refs.stdout.toString().split('\n').filter(Boolean) : [];
  const current = head.ok ? head.stdout.toString().trim() || undefined : undefined;
  return { branches, ...(current ? { current } : {}) };
}

export interface TreeFile {
  /** Relative to the repository's top, `/` separators. */
  path: string;
  /** The path's bytes, when they are not valid UTF-8 (`path` then holds U+FFFD for each bad byte). */
  bytes?: Buffer;
  oid: string;
}

/** Every regular file of a commit (no links, no submodules). */
export function listFiles(top: string, commit: string): TreeFile[] {
  const out = gitOrThrow(['ls-tree', '-r', '-z', '--full-tree', commit], top);
  const files: TreeFile[] = [];
  // Stryker disable next-line EqualityOperator: at the very end no tab is found, and the loop steps past it
  for (let at = 0, end; at < out.length; at = end + 1) {
    end = out.indexOf(0, at);
    if (end < 0) end = out.length;
    // <mode> SP <type> SP <oid> TAB <path>
    const tab = out.indexOf(9, at);
    if (tab < 0 || tab > end) continue;
    const [mode, type, oid] = out.toString('latin1', at, tab).split(' ');
    if (type !== 'blob' || (mode !== '100644' && mode !== '100755')) continue;
    const bytes = out.subarray(tab + 1, end);
    files.push({ path: bytes.toString('utf8'), oid, ...(isUtf8(bytes) ? {} : { bytes: Buffer.from(bytes) }) });
  }
  return files;
}

/** The contents of blobs, in order, through one `git cat-file --batch`. */
export function readBlobs(top: string, oids: readonly string[]): Buffer[] {
  if (!oids.length) return [];
  const out = gitOrThrow(['cat-file', '--batch'], top, oids.join('\n') + '\n');
  const blobs: Buffer[] = [];
  let at = 0;
  for (const oid of oids) {
    // <oid> SP <type> SP <size> LF <contents> LF
    const eol = out.indexOf(10, at);
    const header = out.subarray(at, eol).toString('utf8').split(' ');
    if (eol < 0 || header[0] !== oid || header[1] !== 'blob')
      throw new GitError(`git cat-file: unexpected answer for ${oid}`);
    const size = Number(header[2]);
    blobs.push(out.subarray(eol + 1, eol + 1 + size));
    at = eol + 1 + size + 1;
  }
  return blobs;
}
