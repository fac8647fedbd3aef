// A job that runs once after a first delay and then at an interval, each run starting only after
// the last one ended (a slow run is never overlapped by the next). Used by the daily purges.

export type Repeating = {
  /** Stops the schedule and waits for a run under way. Safe to call twice. */
  stop(): Promise<void>;
};

export function repeat(job: () => Promise<void>, { firstDelayMs, intervalMs }: { firstDelayMs: number; intervalMs: number }): Repeating {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = job().finally(() => {
        running = undefined;
        schedule(intervalMs);
      });
    }, delayMs);
    // The schedule alone never keeps the process alive.
    timer.unref();
  }

  schedule(firstDelayMs);
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
