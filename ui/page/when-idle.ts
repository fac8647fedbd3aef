// Work the page does after it is painted, one piece per task at an idle moment, in the order asked:
// on a slow phone each piece stays a short task and a tap in between is answered first.

/** Longest wait for an idle moment before a piece runs anyway (a page that is never idle). */
export const IDLE_TIMEOUT_MS = 1_000;

const queue: (() => void)[] = [];
let scheduled = false;

function schedule(): void {
  if (scheduled || queue.length === 0) return;
  scheduled = true;
  const run = () => {
    scheduled = false;
    const next = queue.shift();
    try {
      next?.();
    } catch (error) {
      // Reported as an uncaught error would be; the pieces after it still run.
      if (typeof reportError === 'function') reportError(error);
      else console.error(error);
    }
    schedule();
  };
  // Browsers without idle callbacks (Safari) and the unit tests' Node take the next task instead.
  if (typeof requestIdleCallback === 'function') requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
  else setTimeout(run, 0);
}

/** Runs `go` in a task of its own once the pieces asked for before it have run, when the browser is idle. */
export function whenIdle(go: () => void): void {
  queue.push(go);
  schedule();
}

/** Resolves in such a task: `await idleTask()` between two large pieces of work splits them. */
export function idleTask(): Promise<void> {
  return new Promise((resolve) => whenIdle(resolve));
}

type Scheduler = { yield?: () => Promise<void> };

/**
 * Resolves in a new task soon, without waiting for an idle moment: for work the visitor is waiting
 * for (a form being sent), split so that a tap or a paint can come in between. `scheduler.yield()`
 * resumes ahead of other queued tasks where the browser has it (Chromium); elsewhere a timer does.
 */
export function nextTask(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: Scheduler }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}
