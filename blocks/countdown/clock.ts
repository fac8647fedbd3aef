// Pure clock arithmetic for the decorative countdown (spec §4: ticks each second, restarts at the start after zero).
export type ClockStart = { hours: number; minutes: number; seconds: number };
export type ClockFace = { hours: string; minutes: string; seconds: string };

const SECONDS_PER_MINUTE = 60;
const SECONDS_PER_HOUR = 3600;

export function toSeconds({ hours, minutes, seconds }: ClockStart): number {
  return hours * SECONDS_PER_HOUR + minutes * SECONDS_PER_MINUTE + seconds;
}

/** The value after one tick: one second less, or the start again once 00:00:00 has been shown. */
export function nextRemaining(seconds: number, startSeconds: number): number {
  return seconds <= 0 ? startSeconds : seconds - 1;
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
