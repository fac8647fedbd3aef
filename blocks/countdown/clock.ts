// Pure clock arithmetic for the decorative countdown.
export type ClockStart = { hours: number; minutes: number; seconds: number };
export type ClockFace = { hours: string; minutes: string; seconds: string };

const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3600;

export function toSeconds({ hours, minutes, seconds }: ClockStart): number {
  return hours * SECONDS_PER_HOUR + minutes * SECONDS_PER_MINUTE + seconds;
}

const MS_PER_SECOND = 1000;

/**
 * What the clock shows after `elapsedMs` since it started: start, start-1, …, 00:00:00, then start
 * again. Derived from elapsed time, not counted per tick, so a background tab whose timers the
 * browser throttles still shows the right value when it comes back.
 */
export function remainingAt(elapsedMs: number, startSeconds: number): number {
  const elapsedSeconds = Math.max(0, Math.floor(elapsedMs / MS_PER_SECOND));
  return startSeconds - (elapsedSeconds % (startSeconds + 1));
}

const twoDigits = (value: number) => String(value).padStart(2, '0');

/** Splits a number of seconds into zero-padded HH, MM and SS. */
export function formatClock(totalSeconds: number): ClockFace {
  const whole = Math.max(0, Math.floor(totalSeconds));
  return {
    hours: twoDigits(Math.floor(whole / SECONDS_PER_HOUR)),
    minutes: twoDigits(Math.floor((whole % SECONDS_PER_HOUR) / SECONDS_PER_MINUTE)),
    seconds: twoDigits(whole % SECONDS_PER_MINUTE),
  };
}
