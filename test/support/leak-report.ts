/**
 * A mocha root hook: when the run has ended but something a test started still keeps the
 * process alive (a child process, a socket, a timer), mocha would wait for it forever and CI
 * would hang. Ten seconds after the last test, whatever is left is listed on stderr, so the
 * leak can be found, and the process exits with the status mocha set (its failure count).
 */
const GRACE_MS = 10_000;

interface Handle {
  constructor?: { name?: string };
  pid?: number;
  spawnargs?: string[];
  _idleTimeout?: number;
  _onTimeout?: unknown;
}

function describeHandle(h: Handle): string {
  const kind = h.constructor?.name ?? typeof h;
  if (kind === 'ChildProcess') return `ChildProcess pid ${h.pid}: ${(h.spawnargs ?? []).join(' ').slice(0, 300)}`;
  if (kind === 'Timeout') return `Timeout ${h._idleTimeout} ms: ${String(h._onTimeout).slice(0, 200)}`;
  return kind;
}

export const mochaHooks = {
  afterAll(): void {
    setTimeout(() => {
      const handles = (process as unknown as { _getActiveHandles(): Handle[] })._getActiveHandles();
      process.stderr.write(
        `\nleak-report: the run ended ${GRACE_MS / 1000} s ago and the process is still alive; left open:\n`,
      );
      for (const h of handles) process.stderr.write(`  - ${describeHandle(h)}\n`);
      // Resources that are not handles (a worker thread, a pending request) are only named by type.
      const resources = process.getActiveResourcesInfo().filter((r) => r !== 'Timeout' && r !== 'TTYWrap');
      if (resources.length) process.stderr.write(`  resources: ${resources.join(', ')}\n`);
      process.exit();
    }, GRACE_MS).unref();
  },
};
