/**
 * V8 optimizes a function with TurboFan once it has run a budget of bytecode (67,584 bytes by
 * default), on helper threads. A check of a few thousand files is a burst of a second or two
 * over many functions, so much of that work comes too late to pay: on 10,000 definitions a
 * one-thread check spent ≈ 25 % more CPU than the parse floor, almost all of it on those
 * threads. With eight times the budget only what stays hot is optimized. A long check (50,000
 * files) is better served by V8's default, and so is a warm cache run, whose few hot loops
 * should be optimized at once (docs/performance.md, "When V8 optimizes"). V8 reads the budget
 * each time it sets one, so it works from inside the process. The servers keep V8's default:
 * they live for a session, and an agent waits on the MCP server's first answer.
 */
import * as v8 from 'v8';

/** The budget: eight times V8's default. */
export const INTERRUPT_BUDGET = 8 * 67_584;

/** Above this many files to analyze, V8's default tiering pays for itself. */
export const SHORT_CHECK_FILES = 20_000;

/**
 * Emitted on `process` just before the budget changes. The launcher (another bundle) makes its
 * code cache then: V8 rejects a cache made under other flags than the next run starts with.
 */
export const BEFORE_FLAGS_CHANGE = 'subagents:before-v8-flags';

let set = false;
let server = false;

/** For a process that serves a session (`subagents mcp`): its checks keep V8's default tiering. */
export function keepDefaultTiering(): void {
  server = true;
}

/**
 * Called when `files` are about to be analyzed; sets the budget once per process. False when the
 * check is long, in a server, or the user set the budget as a node flag (NODE_OPTIONS may not hold V8's).
 */
export function optimizeOnlyWhatStaysHot(files: number, execArgv: readonly string[] = process.execArgv): boolean {
  if (server || files < 1 || files > SHORT_CHECK_FILES || execArgv.some((flag) => /interrupt[-_]budget/.test(flag)))
    return false;
  if (!set) {
    (process as NodeJS.EventEmitter).emit(BEFORE_FLAGS_CHANGE);
    v8.setFlagsFromString(`--interrupt-budget=${INTERRUPT_BUDGET}`);
    set = true;
  }
  return true;
}
