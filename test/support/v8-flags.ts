/** The V8 flags a Node entry sets at run time, recorded by a preloaded hook around `v8.setFlagsFromString`. */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

/** Writes the hook into `dir`; `node --require <it>` then prints `v8 flag: <flag>` on stderr for each flag set. */
export function flagHook(dir: string): string {
  const hook = path.join(dir, 'v8-flag-hook.js');
  fs.writeFileSync(
    hook,
    `const v8 = require('v8'); const set = v8.setFlagsFromString;
v8.setFlagsFromString = function (flag) { process.stderr.write('v8 flag: ' + flag + '\\n'); return set.apply(this, arguments); };`,
  );
  return hook;
}

/** The flags the hook recorded in a process's stderr, in order. */
export function flagsIn(stderr: string): string[] {
  return [...stderr.matchAll(/^v8 flag: (.*)$/gm)].map((m) => m[1]);
}

/** Runs `node --require <hook> …entry` until its input (empty) ends; returns each flag it set, in order. */
export function flagsSet(entry: string[], env: NodeJS.ProcessEnv = {}): string[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'subagents-flags-'));
  try {
    const r = spawnSync(process.execPath, ['--require', flagHook(dir), ...entry], {
      input: '',
      encoding: 'utf8',
      env: { ...process.env, ...env },
      timeout: 30_000,
    });
    // A flag node refuses, a crash or a hang would leave nothing recorded: not a passing "none set".
    if (r.error || r.signal || /bad option|not allowed in NODE_OPTIONS|internal error/.test(r.stderr))
      throw new Error(`node ${entry.join(' ')} did not run: ${r.error?.message ?? r.signal ?? r.stderr}`);
    return flagsIn(r.stderr);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
