// A clock and timer for tests of scheduled publishing: time stands still until the test moves it,
// and moving it runs the timers that have come due, in order.
import type { Clock } from '../server/schedule.ts';

export type FakeClock = Clock & {
  /** Moves the time on by `ms`, running each timer that comes due. */
  advance(ms: number): void;
  /** The timers still armed. */
  pending(): number;
};

export function createFakeClock(start: number | string): FakeClock {
  let now = typeof start === 'string' ? Date.parse(start) : start;
  let nextId = 1;
  const timers = new Map<number, { at: number; run: () => void }>();
  return {
    now: () => now,
    setTimer(run, ms) {
      const id = nextId++;
      timers.set(id, { at: now + Math.max(0, ms), run });
      return id;
    },
    clearTimer(timer) {
      timers.delete(timer as number);
    },
    advance(ms) {
      const until = now + ms;
      for (;;) {
        const due = [...timers.entries()].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
        if (!due) break;
        timers.delete(due[0]);
        now = Math.max(now, due[1].at);
        due[1].run();
      }
      now = until;
    },
    pending: () => timers.size,
  };
}
