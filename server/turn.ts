/**
 * The next turn of the event loop, after the messages already received: `setImmediate` on Node;
 * in a browser's Web Worker (which has none) a message to itself through a `MessageChannel`,
 * which, unlike a nested `setTimeout(0)`, is not clamped to 4 ms.
 */
export interface Cancellable {
  cancel(): void;
}

type Task = { run: () => void; cancelled: boolean };

let channel: InstanceType<typeof MessageChannel> | undefined;
const queue: Task[] = [];

function viaChannel(run: () => void): Cancellable {
  if (!channel) {
    channel = new MessageChannel();
    // `onmessage` starts the port in a browser (Node's typings only know `on('message')`).
    (channel.port1 as unknown as { onmessage: () => void }).onmessage = () => {
      const task = queue.shift();
      if (task && !task.cancelled) task.run();
    };
  }
  const task: Task = { run, cancelled: false };
  queue.push(task);
  channel.port2.postMessage(0);
  return { cancel: () => (task.cancelled = true) };
}

/** Runs `run` on the next turn; `cancel()` before then and it does not run. */
export function nextTurn(run: () => void): Cancellable {
  if (typeof setImmediate === 'function') {
    const handle = setImmediate(run);
    return { cancel: () => clearImmediate(handle) };
  }
  return viaChannel(run);
}

/** Resolves on the next turn. */
export const yieldTurn = (): Promise<void> => new Promise((resolve) => nextTurn(resolve));

/** A timer's handle on both platforms. */
export type Timer = ReturnType<typeof setTimeout>;
