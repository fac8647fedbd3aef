import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import type { Database } from '../database.ts';
import { T0 } from '../../testing/store-fixtures.ts';

// The job runs' contract: the same tests against node:sqlite, node:sqlite on its worker thread and
// PostgreSQL (with TEST_DATABASE_URL). Two connections stand in for two server processes.

const LEASE = 60_000;
const run = { job: 'retention', period: '2026-11-28', leaseMs: LEASE } as const;

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`job store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    it('gives a period to one of two claimers racing, and the other is told who holds it', async () => {
      const other = await database.open();
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, index) =>
          (index % 2 === 0 ? store : other).claimJobRun({ ...run, holder: `holder-${index}`, now: T0 }),
        ),
      );
      const claimed = claims.filter((claim) => claim.outcome === 'claimed');
      expect(claimed).toEqual([{ outcome: 'claimed', attempts: 1 }]);
      const winner = claims.findIndex((claim) => claim.outcome === 'claimed');
      for (const claim of claims.filter((candidate) => candidate.outcome !== 'claimed')) {
        expect(claim).toEqual({ outcome: 'held', holder: `holder-${winner}`, leaseUntil: T0 + LEASE });
      }
      expect(await store.listJobRuns('retention')).toEqual([
        {
          job: 'retention',
          period: '2026-11-28',
          holder: `holder-${winner}`,
          state: 'running',
          startedAt: T0,
          leaseUntil: T0 + LEASE,
          finishedAt: undefined,
          attempts: 1,
        },
      ]);
    });

    it('lets another take over a run once its lease lapsed, and the old holder can neither renew nor finish it', async () => {
      const other = await database.open();
      expect(await store.claimJobRun({ ...run, holder: 'a', now: T0 })).toMatchObject({ outcome: 'claimed' });
      expect(await store.renewJobRun({ ...run, holder: 'a', now: T0 + 30_000 })).toBe(true);
      // Renewed: still held a minute after the first claim.
      expect(await other.claimJobRun({ ...run, holder: 'b', now: T0 + LEASE })).toEqual({
        outcome: 'held',
        holder: 'a',
        leaseUntil: T0 + 30_000 + LEASE,
      });
      expect(await other.claimJobRun({ ...run, holder: 'b', now: T0 + 30_000 + LEASE })).toEqual({ outcome: 'claimed', attempts: 2 });
      expect(await store.renewJobRun({ ...run, holder: 'a', now: T0 + 100_000 })).toBe(false);
      expect(await store.finishJobRun({ ...run, holder: 'a', now: T0 + 100_000 })).toBe(false);
      expect(await other.finishJobRun({ ...run, holder: 'b', now: T0 + 100_000 })).toBe(true);
      const [done] = await store.listJobRuns('retention');
      expect(done).toMatchObject({ holder: 'b', state: 'done', finishedAt: T0 + 100_000, attempts: 2 });
    });

    it('never gives a finished run again, however late', async () => {
      await store.claimJobRun({ ...run, holder: 'a', now: T0 });
      expect(await store.finishJobRun({ ...run, holder: 'a', now: T0 + 5 })).toBe(true);
      expect(await store.claimJobRun({ ...run, holder: 'b', now: T0 + 10 * LEASE })).toEqual({ outcome: 'done' });
      expect(await store.claimJobRun({ ...run, holder: 'a', now: T0 + 10 * LEASE })).toEqual({ outcome: 'done' });
      expect(await store.renewJobRun({ ...run, holder: 'a', now: T0 + 6 })).toBe(false);
      // Another period of the same job, and the same period of another job, are runs of their own.
      expect(await store.claimJobRun({ ...run, period: '2026-11-29', holder: 'b', now: T0 })).toMatchObject({ outcome: 'claimed' });
      expect(await store.claimJobRun({ ...run, job: 'spam-daily', holder: 'b', now: T0 })).toMatchObject({ outcome: 'claimed' });
    });

    it('hands a released run to the next claimer at once', async () => {
      await store.claimJobRun({ ...run, holder: 'a', now: T0 });
      expect(await store.releaseJobRun({ ...run, holder: 'b', now: T0 + 1 })).toBe(false);
      expect(await store.releaseJobRun({ ...run, holder: 'a', now: T0 + 1 })).toBe(true);
      expect(await store.claimJobRun({ ...run, holder: 'b', now: T0 + 1 })).toEqual({ outcome: 'claimed', attempts: 2 });
    });

    it('deletes the runs whose lease ended before a moment, finished or abandoned, and keeps the rest', async () => {
      await store.claimJobRun({ ...run, period: 'old-done', holder: 'a', now: T0 });
      await store.finishJobRun({ ...run, period: 'old-done', holder: 'a', now: T0 + 1 });
      await store.claimJobRun({ ...run, period: 'old-abandoned', holder: 'a', now: T0 });
      await store.claimJobRun({ ...run, period: 'recent', holder: 'a', now: T0 + 10 * LEASE });
      await store.finishJobRun({ ...run, period: 'recent', holder: 'a', now: T0 + 10 * LEASE });
      expect(await store.deleteJobRunsBefore(T0 + 5 * LEASE)).toBe(2);
      expect((await store.listJobRuns()).map((row) => row.period)).toEqual(['recent']);
    });
  });
}
