// Forgetting on a schedule: every hour, the salts of days before today are deleted (so a day's salt
// is gone within the hour after its day ends, even when no visit comes the next day to replace it),
// and raw events and per-visit rows older than ANALYTICS_RAW_DAYS. The daily totals the reports read
// are kept for ever: they name no visit. Several servers on one database each run it; a second run
// finds nothing left to delete.
import { repeat, type Repeating } from '../schedule/repeat.ts';
import type { AnalyticsStore } from './analytics-store.ts';
import { saltDay } from './visit-hash.ts';

const DAY_MS = 86_400_000;

export const ANALYTICS_RETENTION_DEFAULTS = {
  firstRunDelayMs: 30_000,
  intervalMs: 3_600_000,
} as const;

/** The first day kept at `now`: raw rows of every day before it are deleted. */
export function firstRawDayKept(now: number, rawDays: number): string {
  return saltDay(now - rawDays * DAY_MS);
}

export function startAnalyticsRetention(options: {
  readonly store: Pick<AnalyticsStore, 'deleteRawBefore' | 'deleteSaltsBefore'>;
  readonly rawDays: number;
  readonly log: { info(fields: object, message: string): void; error(fields: object, message: string): void };
  readonly now?: () => number;
  readonly firstRunDelayMs?: number;
  readonly intervalMs?: number;
}): Repeating {
  const {
    store,
    rawDays,
    log,
    now = Date.now,
    firstRunDelayMs = ANALYTICS_RETENTION_DEFAULTS.firstRunDelayMs,
    intervalMs = ANALYTICS_RETENTION_DEFAULTS.intervalMs,
  } = options;

  async function forget(): Promise<void> {
    const at = now();
    try {
      await store.deleteSaltsBefore(saltDay(at));
      const before = firstRawDayKept(at, rawDays);
      const deleted = await store.deleteRawBefore(before);
      if (deleted > 0) log.info({ deleted, before }, 'analytics: deleted raw events past ANALYTICS_RAW_DAYS');
    } catch (error) {
      // The next hour's run tries again.
      log.error({ err: error }, 'analytics: could not delete old salts and raw events');
    }
  }

  return repeat(forget, { firstDelayMs: firstRunDelayMs, intervalMs });
}
