// What is forgotten, and when: yesterday's salt within the hour even on a day nobody visits, raw
// rows past ANALYTICS_RAW_DAYS, and a store that fails is asked again later that hour. The job runs
// through the job runner on fake time against a real SQLite lead store (which holds its runs).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createJobRunner, type JobRunner } from '../jobs/job-runner.ts';
import type { Database } from '../store/database.ts';
import { sqliteHarness, type StoreDatabase } from '../testing/store-harness.ts';
import { ANALYTICS_FORGETTING_JOB, analyticsForgettingJob, firstRawDayKept } from './raw-retention.ts';

const quiet = { info: () => {}, warn: () => {}, error: () => {} };

describe('analytics retention', () => {
  it('keeps the last ANALYTICS_RAW_DAYS days of raw rows', () => {
    expect(firstRawDayKept(Date.parse('2026-11-27T10:00:00Z'), 30)).toBe('2026-10-28');
    expect(firstRawDayKept(Date.parse('2026-03-01T00:00:00Z'), 1)).toBe('2026-02-28');
  });

  describe('the hourly job', () => {
    let database: StoreDatabase;
    let jobs: Database;
    let runner: JobRunner | undefined;

    beforeEach(async () => {
      database = await sqliteHarness.createDatabase();
      jobs = await database.open();
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    });
    afterEach(async () => {
      await runner?.stop();
      vi.useRealTimers();
      await database.remove();
    });

    it('deletes the salts before today and the raw rows past the period, once every hour', async () => {
      vi.setSystemTime(Date.parse('2026-11-27T23:30:00Z'));
      const calls: string[] = [];
      const store = {
        deleteSaltsBefore: async (day: string) => void calls.push(`salts before ${day}`),
        deleteRawBefore: async (day: string) => (calls.push(`raw before ${day}`), 0),
      };
      runner = createJobRunner({ store: jobs, log: quiet, holder: 'test' });
      runner.periodic(analyticsForgettingJob({ store, rawDays: 30, log: quiet, firstRunDelayMs: 1_000 }));
      await vi.advanceTimersByTimeAsync(1_000);
      await vi.waitFor(() => expect(calls).toEqual(['salts before 2026-11-27', 'raw before 2026-10-28']));
      // The next hour has another day: yesterday's salt goes although nobody visited today.
      await vi.advanceTimersByTimeAsync(30 * 60_000);
      await vi.waitFor(() => expect(calls.slice(2)).toEqual(['salts before 2026-11-28', 'raw before 2026-10-29']));
      await runner.stop();
      await vi.advanceTimersByTimeAsync(10 * 3_600_000);
      expect(calls).toHaveLength(4);
      expect((await jobs.listJobRuns(ANALYTICS_FORGETTING_JOB)).map((row) => [row.period, row.state])).toEqual([
        ['2026-11-27T23', 'done'],
        ['2026-11-28T00', 'done'],
      ]);
    });

    it('tries a store that failed again later that hour', async () => {
      vi.setSystemTime(Date.parse('2026-11-27T10:00:00Z'));
      let failing = true;
      let deletedRaw = 0;
      const store = {
        deleteSaltsBefore: async () => {
          if (failing) throw new Error('database is down');
        },
        deleteRawBefore: async () => (deletedRaw += 1),
      };
      const errors: unknown[] = [];
      runner = createJobRunner({ store: jobs, log: { ...quiet, error: (fields) => void errors.push(fields) }, holder: 'test' });
      runner.periodic(analyticsForgettingJob({ store, rawDays: 30, log: quiet, firstRunDelayMs: 10 }));
      await vi.advanceTimersByTimeAsync(10);
      await vi.waitFor(() => expect(errors).toHaveLength(1));
      expect(deletedRaw).toBe(0);
      failing = false;
      await vi.advanceTimersByTimeAsync(15 * 60_000);
      await vi.waitFor(() => expect(deletedRaw).toBe(1));
    });
  });
});
