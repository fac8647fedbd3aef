import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../server/testing/store-harness.ts';
import type { StoreDatabase } from '../../server/testing/store-harness.ts';
import type { Database } from '../../server/store/database.ts';
import type { StudioScheduleRow } from './studio-schedule-store.ts';

// The studio schedule's store contract: the same tests against node:sqlite, node:sqlite on its worker
// thread and PostgreSQL (TEST_DATABASE_URL). Each `open()` is another connection, standing in for
// another studio process on the same database.

function row(id: string, change: Partial<StudioScheduleRow> = {}): StudioScheduleRow {
  const entry = {
    id,
    runAt: '2026-12-01T08:00:00.000Z',
    status: 'waiting',
    scheduledBy: 'maria@example.com',
    scheduledAt: '2026-11-30T12:00:00.000Z',
    startedAt: null,
    ...change,
  };
  return {
    ...entry,
    record: JSON.stringify({ ...entry, files: [{ path: 'content/pages/home.yaml', text: `heading: ${id}\n` }] }),
    ...change,
  };
}

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`studio schedule store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    it('keeps each scheduled publish, replaces it by id and drops what it is told, in the order first saved', async () => {
      await store.saveStudioSchedule([row('b'), row('a')], []);
      await store.saveStudioSchedule([row('c')], []);
      // Another connection (a studio started later, on another host) reads the same.
      const other = await database.open();
      expect((await other.listStudioSchedule()).map((found) => found.id)).toEqual(['b', 'a', 'c']);

      const started = row('a', { startedAt: '2026-12-01T08:00:01.000Z' });
      await store.saveStudioSchedule([started, row('b', { status: 'cancelled' })], ['c']);
      expect(await other.listStudioSchedule()).toEqual([row('b', { status: 'cancelled' }), started]);
      expect(JSON.parse((await other.listStudioSchedule())[1]!.record)).toMatchObject({ files: [{ text: 'heading: a\n' }] });
    });

    it('imports only the publishes it does not keep yet, and says how many', async () => {
      await store.saveStudioSchedule([row('a', { status: 'published' })], []);
      expect(await store.importStudioSchedule([row('a'), row('b')])).toBe(1);
      expect(await store.listStudioSchedule()).toEqual([row('a', { status: 'published' }), row('b')]);
      expect(await store.importStudioSchedule([row('a'), row('b')])).toBe(0);
    });

    it('gives the one-studio lock to one connection at a time, and frees it when that one closes', async () => {
      const second = await database.open();
      expect(await store.studioLockHeld()).toBe(false);
      expect(await store.holdStudioLock()).toBe(true);
      expect(await store.holdStudioLock()).toBe(true);
      expect(await store.studioLockHeld()).toBe(true);
      expect(await second.holdStudioLock()).toBe(false);
      expect(await second.studioLockHeld()).toBe(false);

      await store.close();
      expect(await second.holdStudioLock()).toBe(true);
      const third = await database.open();
      expect(await third.holdStudioLock()).toBe(false);
    });

    it('keeps the lock of one database apart from another’s', async () => {
      const elsewhere = await harness.createDatabase();
      try {
        const otherSite = await elsewhere.open();
        expect(await store.holdStudioLock()).toBe(true);
        expect(await otherSite.holdStudioLock()).toBe(true);
      } finally {
        await elsewhere.remove();
      }
    });
  });
}
