// Forgetting on a schedule: the hourly job `analytics-forgetting`, run once per UTC hour across every
// server on the lead database (the job runner), deletes the salts of days before today (so a day's
// salt is gone within the hour after its day ends, even when no visit comes the next day to replace
// it), and raw events and per-visit rows older than ANALYTICS_RAW_DAYS. The daily totals the reports
// read are kept for ever: they name no visit. Hours when no server ran need no run of their own: a
// run deletes everything older than its cutoffs at that moment.
import type { PeriodicJob } from '../jobs/job-runner.ts';
import type { AnalyticsStore } from './analytics-store.ts';
import { saltDay } from './visit-hash.ts';

const DAY_MS = 86_400_000;

export const ANALYTICS_FORGETTING_JOB = 'analytics-forgetting';

export const ANALYTICS_RETENTION_DEFAULTS = {
  // As the lead purge: start-up settles first.
  firstRunDelayMs: 30_000,
} as const;

/** The first day kept at `now`: raw rows of every day before it are deleted. */
export function firstRawDayKept(now: number, rawDays: number): string {
  return saltDay(now - rawDays * DAY_MS);
}

/** The hourly forgetting, for the job runner. A store that fails throws: the runner logs it and tries again later that hour. */
export function analyticsForgettingJob(options: {
  readonly store: Pick<AnalyticsStore, 'deleteRawBefore' | 'deleteSaltsBefore'>;
  readonly rawDays: number;
  readonly log: { info(fields: object, message: string): void };
  readonly firstRunDelayMs?: number;
}): PeriodicJob {
  const { store, rawDays, log, firstRunDelayMs = ANALYTICS_RETENTION_DEFAULTS.firstRunDelayMs } = options;
  return {
    name: ANALYTICS_FORGETTING_JOB,
    period: 'hour',
    firstRunDelayMs,
    async run({ at }) {
      await store.deleteSaltsBefore(saltDay(at));
      const before = firstRawDayKept(at, rawDays);
      const deleted = await store.deleteRawBefore(before);
      if (deleted > 0) log.info({ deleted, before }, 'analytics: deleted raw events past ANALYTICS_RAW_DAYS');
    },
  };
}
