/**
 * Waiting on events from a child process (published diagnostics, progress): `until` re-checks
 * its condition whenever `wake()` is called, and at least every `pollMs`.
 */
export class Waiter {
  private waiters: (() => void)[] = [];

  wake(): void {
    const w = this.waiters;
    this.waiters = [];
    w.forEach((f) => f());
  }

  /**
   * Resolves with the first truthy value of `check`; rejects after `ms`, or as soon as `abort`
   * gives a reason (e.g. the process exited).
   */
  async until<T>(
    check: () => T | undefined | false,
    ms: number,
    what: string,
    options: { pollMs?: number; abort?: () => string | undefined } = {},
  ): Promise<T> {
    const deadline = Date.now() + ms;
    for (;;) {
      const v = check();
      if (v) return v;
      const reason = options.abort?.();
      if (reason !== undefined) throw new Error(`${reason} while waiting for ${what}`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(left, options.pollMs ?? 200));
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }
}
