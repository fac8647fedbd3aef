// At most `running` tasks at once, and at most `waiting` more in line; beyond that a task is refused
// at once. Password hashing uses it, so a burst of sign-ins cannot occupy every hashing thread (which
// file access shares) or build an endless queue; so does picture decoding, one picture at a time.

export type Gate = {
  /** The task's result, or undefined when the line is full and the task was not run. */
  run<T>(task: () => Promise<T>): Promise<T | undefined>;
  /** True when a task given now would be refused. */
  isFull(): boolean;
};

export function createGate({ running: maxRunning, waiting: maxWaiting }: { running: number; waiting: number }): Gate {
  let running = 0;
  const line: (() => void)[] = [];
  return {
    isFull: () => running >= maxRunning && line.length >= maxWaiting,
    async run<T>(task: () => Promise<T>): Promise<T | undefined> {
      if (running >= maxRunning) {
        if (line.length >= maxWaiting) return undefined;
        // The slot is handed over by the task that ends, so nothing can take it in between.
        await new Promise<void>((resolve) => line.push(resolve));
      } else {
        running += 1;
      }
      try {
        return await task();
      } finally {
        const next = line.shift();
        if (next) next();
        else running -= 1;
      }
    },
  };
}

/**
 * Resolves once `work` settles (fulfilled or rejected) or `waitMs` has passed, whichever is first;
 * never rejects. For waiting a while on work that must not hold the caller up for long.
 */
export function settledWithin(work: Promise<unknown> | undefined, waitMs: number): Promise<void> {
  if (work === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, waitMs);
    void work
      .catch(() => {})
      .finally(() => {
        clearTimeout(timer);
        resolve();
      });
  });
}
