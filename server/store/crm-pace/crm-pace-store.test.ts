import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import type { Database } from '../database.ts';
import { T0 } from '../../testing/store-fixtures.ts';

// The CRM pace store contract: the same tests against node:sqlite, node:sqlite on its
// worker thread and PostgreSQL. The PostgreSQL half needs TEST_DATABASE_URL; without it vitest
// reports it as skipped and the reason is printed.

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`CRM pace store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    describe('CRM pace', () => {
      it('grants two connections together at most the limit in 10 seconds, then grants again', async () => {
        const other = await database.open();
        const now = T0;
        const grants = await Promise.all(
          Array.from({ length: 8 }, (_, index) => (index % 2 === 0 ? store : other).takeCrmSlots(now + index, 20, 50)),
        );
        expect(grants.reduce((sum, granted) => sum + granted, 0)).toBe(50);
        expect(grants.every((granted) => granted >= 0 && granted <= 20)).toBe(true);
        expect(await other.takeCrmSlots(now + 9_999, 5, 50)).toBe(0);
        expect(await store.takeCrmSlots(now + 10_000 + 8, 100, 50)).toBe(50);
      });

      it('takes back unused slots, so an idle worker does not use up the window', async () => {
        const other = await database.open();
        expect(await store.takeCrmSlots(T0, 30, 40)).toBe(30);
        await store.giveBackCrmSlots(T0 + 1, 30);
        expect(await other.takeCrmSlots(T0 + 2, 30, 40)).toBe(30);
        await other.giveBackCrmSlots(T0 + 3, 5);
        expect(await store.takeCrmSlots(T0 + 4, 30, 40)).toBe(15);
        expect(await store.takeCrmSlots(T0 + 5, 0, 40)).toBe(0);
        await expect(store.takeCrmSlots(T0 + 5, 1, 0)).rejects.toThrow('CRM pace');
      });
    });
  });
}
