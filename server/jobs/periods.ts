// The periods a periodic job runs once in, each with a key (the text stored in job_runs) and its
// start and end. Keys sort in time order within one rule. All in UTC, so every server agrees
// whatever its own time zone.

export type Period = {
  /** "2026-11-28T14" (an hour), "2026-11-28" (a day), "2026-W48" (an ISO week), or the start of a fixed length. */
  readonly key: string;
  readonly start: number;
  /** The next period's start. */
  readonly end: number;
};

/** A UTC hour, day or ISO week (Monday to Sunday), or a rule of the job's own (the weekly summary's Monday 8:00). */
export type PeriodRule = 'hour' | 'day' | 'week' | ((at: number) => Period);

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;

export function periodOf(rule: PeriodRule, at: number): Period {
  if (typeof rule === 'function') return rule(at);
  if (rule === 'hour') {
    const start = Math.floor(at / HOUR_MS) * HOUR_MS;
    return { key: new Date(start).toISOString().slice(0, 13), start, end: start + HOUR_MS };
  }
  if (rule === 'day') {
    const start = Math.floor(at / DAY_MS) * DAY_MS;
    return { key: new Date(start).toISOString().slice(0, 10), start, end: start + DAY_MS };
  }
  return isoWeekOf(at);
}

/** The ISO week holding `at`: it starts on Monday, and belongs to the year of its Thursday. */
function isoWeekOf(at: number): Period {
  const day = Math.floor(at / DAY_MS) * DAY_MS;
  // 1 January 1970 was a Thursday: days since then, shifted so Monday is 0.
  const mondayBased = (Math.floor(day / DAY_MS) + 3) % 7;
  const start = day - mondayBased * DAY_MS;
  const thursday = new Date(start + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const week = Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / WEEK_MS) + 1;
  return { key: `${year}-W${String(week).padStart(2, '0')}`, start, end: start + WEEK_MS };
}

/**
 * Periods of `seconds` each, counted from 1970 (JOB_PERIOD_SECONDS, for tests and benchmarks): the key
 * is the start, "2026-11-28T14:03:20Z".
 */
export function fixedPeriods(seconds: number): (at: number) => Period {
  const length = seconds * 1000;
  return (at) => {
    const start = Math.floor(at / length) * length;
    return { key: new Date(start).toISOString().replace('.000Z', 'Z'), start, end: start + length };
  };
}
