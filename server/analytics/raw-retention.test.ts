// What is forgotten, and when: yesterday's salt within the hour even on a day nobody visits, raw
// rows past ANALYTICS_RAW_DAYS, and a store that fails is asked again at the next run.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { firstRawDayKept, startAnalyticsRetention } from './raw-retention.ts';

const quiet = { info: () => {}, error: () => {} };

afterEach(() => {
  vi.useRealTimers();
});

describe('analytics retention', () => {
  it('keeps the last ANALYTICS_RAW_DAYS days of raw rows', () => {
    expect(firstRawDayKept(Date.parse('2026-11-27T10:00:00Z'), 30)).toBe('2026-10-28');
    expect(firstRawDayKept(Date.parse('2026-03-01T00:00:00Z'), 1)).toBe('2026-02-28');
  });

  it('deletes the salts before today and the raw rows past the period, every hour', async () => {
    vi.useFakeTimers();
    let clock = Date.parse('2026-11-27T23:30:00Z');
    const calls: string[] = [];
    const store = {
      deleteSaltsBefore: async (day: string) => void calls.push(`salts before ${day}`),
      deleteRawBefore: async (day: string) => (calls.push(`raw before ${day}`), 0),
    };
    const retention = startAnalyticsRetention({
      store,
      rawDays: 30,
      log: quiet,
      now: () => clock,
      firstRunDelayMs: 1_000,
      intervalMs: 3_600_000,
    });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual(['salts before 2026-11-27', 'raw before 2026-10-28']);
    // An hour later the day has changed: yesterday's salt goes although nobody visited today.
    clock += 3_600_000;
    await vi.advanceTimersByTimeAsync(3_600_000);
    expect(calls.slice(2)).toEqual(['salts before 2026-11-28', 'raw before 2026-10-29']);
    await retention.stop();
    await vi.advanceTimersByTimeAsync(10 * 3_600_000);
    expect(calls).toHaveLength(4);
  });

  it('logs a store that fails and tries again at the next run', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    let failing = true;
    let deletedRaw = 0;
    const store = {
      deleteSaltsBefore: async () => {
        if (failing) throw new Error('database is down');
      },
      deleteRawBefore: async () => (deletedRaw += 1),
    };
    const retention = startAnalyticsRetention({
      store,
      rawDays: 30,
      log: { info: () => {}, error: (fields) => void errors.push(fields) },
      firstRunDelayMs: 10,
      intervalMs: 100,
    });
    await vi.advanceTimersByTimeAsync(10);
    expect(errors).toHaveLength(1);
    expect(deletedRaw).toBe(0);
    failing = false;
    await vi.advanceTimersByTimeAsync(100);
    expect(deletedRaw).toBe(1);
    await retention.stop();
  });
});
