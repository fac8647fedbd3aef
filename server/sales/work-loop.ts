// The assigner's loop, in every server process: one pass now and then,
// and sooner when something asks for it (a lead was just stored). A pass never overlaps the next; a
// wake-up that arrives during a pass runs another right after it, so nothing asked for is lost. A
// pass that fails is logged by the caller and tried again at the next turn: the loop never stops
// on an error, and nothing it does is on a request's path.

export type WorkLoop = {
  start(): void;
  /** Runs a pass soon (after `nudgeDelayMs`, so a burst shares one pass). Never throws, never waits. */
  nudge(): void;
  /** Stops the loop and waits for the pass under way. Safe to call twice. */
  stop(): Promise<void>;
};

export function createWorkLoop(
  pass: () => Promise<void>,
  { intervalMs, nudgeDelayMs }: { intervalMs: number; nudgeDelayMs: number },
): WorkLoop {
  let running: Promise<void> | undefined;
  let stopping = false;
  let wake: (() => void) | undefined;
  let wakeRequested = false;
  let nudgeTimer: NodeJS.Timeout | undefined;

  function wakeUp(): void {
    if (wake === undefined) wakeRequested = true;
    else wake();
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      wakeRequested = false;
      await pass();
      if (stopping) break;
      if (wakeRequested) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, intervalMs);
        // The loop alone never keeps the process alive.
        timer.unref();
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      wake = undefined;
    }
  }

  return {
    start() {
      running ??= loop();
    },
    nudge() {
      if (stopping || running === undefined || nudgeTimer !== undefined) return;
      nudgeTimer = setTimeout(() => {
        nudgeTimer = undefined;
        wakeUp();
      }, nudgeDelayMs);
      nudgeTimer.unref();
    },
    async stop() {
      stopping = true;
      clearTimeout(nudgeTimer);
      wake?.();
      await running;
    },
  };
}
