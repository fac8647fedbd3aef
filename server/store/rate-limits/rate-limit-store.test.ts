import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, postgresHarness } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import { openRateLimitStore, type RateLimitStore } from '../database.ts';
import { T0 } from '../../testing/store-fixtures.ts';

// The shared rate limits' store on PostgreSQL (SQLite has none: one process counts in memory). Each
// `open()` is another pool, standing in for another server.

announceSkip(postgresHarness);

describe.skipIf(postgresHarness.skipReason !== undefined)('rate-limit store: postgres', () => {
  let database: StoreDatabase;
  const stores: RateLimitStore[] = [];

  beforeEach(async () => {
    database = await postgresHarness.createDatabase();
    await database.open(); // migrates
  });
  afterEach(async () => {
    await Promise.all(stores.splice(0).map((store) => store.close()));
    await database.remove();
  });

  function open(): RateLimitStore {
    const store = openRateLimitStore(database.config);
    if (store === undefined) throw new Error('PostgreSQL has a rate-limit store');
    stores.push(store);
    return store;
  }
  const window = (key: string, start = T0, hits = 1, name = 'leads') => ({
    name,
    key,
    windowStart: start,
    windowEnd: start + 60_000,
    hits,
  });

  it('counts every hit of several servers exactly once, each count after its own addition', async () => {
    const servers = [open(), open(), open()];
    const additions = Array.from({ length: 300 }, (_, index) => servers[index % 3]!.addHits([window('203.0.113.7')]));
    const counts = (await Promise.all(additions)).flat();
    expect(counts.toSorted((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, index) => index + 1));
  });

  it('answers a batch in the order given, each window apart: names, keys and windows never share a count', async () => {
    const store = open();
    await store.addHits([window('a', T0, 3)]);
    const counts = await store.addHits([window('b', T0, 2), window('a', T0, 4), window('a', T0 + 60_000, 1), window('a', T0, 5, 'events')]);
    expect(counts).toEqual([2, 7, 1, 5]);
  });

  it('adds batches that overlap in any order without deadlocking', async () => {
    const [first, second] = [open(), open()];
    const keys = Array.from({ length: 50 }, (_, index) => `k${String(index).padStart(2, '0')}`);
    const rounds = Array.from({ length: 20 }, () => [
      first!.addHits(keys.map((key) => window(key))),
      second!.addHits(keys.toReversed().map((key) => window(key))),
    ]);
    await Promise.all(rounds.flat());
    expect(await first!.addHits([window('k00', T0, 0)])).toEqual([40]);
  });

  describe('values a bound keeps a period', () => {
    const DAY_END = T0 + 86_400_000;
    const value = (name: string, bound = 'referrers', always = false, period = '2025-01-15') => ({
      name: bound,
      period,
      periodEnd: DAY_END,
      value: name,
      max: 100,
      always,
    });

    it('keeps at most the bound across several servers asking at once, and a kept value stays kept', async () => {
      const servers = [open(), open(), open()];
      const asks = Array.from({ length: 30 }, (_, round) =>
        servers[round % 3]!.keepValues(Array.from({ length: 10 }, (_, index) => value(`site-${round}-${index}.example`))),
      );
      const kept = (await Promise.all(asks)).flat().filter(Boolean).length;
      expect(kept).toBe(100);
      const rows = (await database.rows()).rate_limit_kept_values as Array<{ value: string }>;
      expect(rows).toHaveLength(100);
      // Asked again, from another server, the kept ones are kept and the others still are not.
      expect(await servers[1]!.keepValues([value(rows[0]!.value), value('late.example')])).toEqual([true, false]);
    });

    it("keeps a lead's value beyond the bound without counting it, and bounds each name and period apart", async () => {
      const store = open();
      expect(await store.keepValues([value('lead-campaign', 'campaigns', true)])).toEqual([true]);
      const campaigns = await store.keepValues(Array.from({ length: 101 }, (_, index) => value(`c${index}`, 'campaigns')));
      expect(campaigns.filter(Boolean)).toHaveLength(100);
      expect(
        await store.keepValues([
          value('lead-campaign', 'campaigns'),
          value('c0', 'referrers'),
          value('c0', 'campaigns', false, '2025-01-16'),
        ]),
      ).toEqual([true, true, true]);
    });

    it('deletes the values of a period that ended', async () => {
      const store = open();
      await store.keepValues([value('a'), value('b')]);
      expect(await store.deleteEndedWindows(DAY_END - 1, 10)).toBe(0);
      expect(await store.deleteEndedWindows(DAY_END, 10)).toBe(2);
      expect((await database.rows()).rate_limit_kept_values).toEqual([]);
    });
  });

  it('deletes the windows that ended, in bounded batches, and keeps the current ones', async () => {
    const store = open();
    await store.addHits(Array.from({ length: 25 }, (_, index) => window(`old${index}`, T0 - 120_000)));
    await store.addHits([window('current')]);
    expect(await store.deleteEndedWindows(T0, 10)).toBe(10);
    expect(await store.deleteEndedWindows(T0, 10)).toBe(10);
    expect(await store.deleteEndedWindows(T0, 10)).toBe(5);
    expect(await store.deleteEndedWindows(T0, 10)).toBe(0);
    expect((await database.rows()).rate_limit_hits).toHaveLength(1);
  });
});
