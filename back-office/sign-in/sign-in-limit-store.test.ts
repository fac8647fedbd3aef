import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../server/testing/store-harness.ts';
import type { StoreDatabase } from '../../server/testing/store-harness.ts';
import type { Database } from '../../server/store/database.ts';
import { T0 } from '../../server/testing/store-fixtures.ts';

// The sign-in limit store contract: the same tests against node:sqlite, node:sqlite on its
// worker thread and PostgreSQL. The PostgreSQL half needs TEST_DATABASE_URL; without it vitest
// reports it as skipped and the reason is printed.

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`sign-in limit store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    describe('sign-in attempts', () => {
      const WINDOW = 60_000;
      const KNOWN = WINDOW / 2;
      const attempt = (
        id: string,
        at: number,
        keys = [
          { key: 'pair:a', limit: 2 },
          { key: 'address:x', limit: 3 },
        ],
      ) => store.countSignInAttempt({ id, at, windowMs: WINDOW, knownForMs: KNOWN, keys });

      it('refuses a key at its limit until its oldest counted attempt leaves the window', async () => {
        expect(await attempt('1', T0)).toEqual({ allowed: true });
        expect(await attempt('2', T0 + 1_000)).toEqual({ allowed: true });
        expect(await attempt('3', T0 + 2_000)).toEqual({ allowed: false, retryAfterMs: WINDOW - 2_000 });
        expect(await attempt('4', T0 + WINDOW)).toEqual({ allowed: true });
        // The attempt at T0 left the window (and the table); of the two left, the older must expire first.
        expect(await attempt('5', T0 + WINDOW + 1, [{ key: 'address:x', limit: 2 }])).toEqual({
          allowed: false,
          retryAfterMs: 1_000 - 1,
        });
      });

      it('un-counts a withdrawn attempt, and on success forgets the pair and remembers it as known', async () => {
        const other = await database.open();
        await attempt('1', T0);
        await attempt('2', T0 + 1);
        await other.withdrawSignInAttempt('2');
        expect(await attempt('3', T0 + 2)).toEqual({ allowed: true });
        await other.signInSucceeded('3', 'pair:a', T0 + 3);
        // The pair's rows and attempt 3's other rows are gone; attempt 1 still counts for the address.
        expect(((await database.rows()).sign_in_attempts ?? []).map((row) => (row as { key: string }).key)).toEqual(['address:x']);
        const spared = [{ key: 'account:a', limit: 1, unlessKnown: 'pair:a' }];
        expect(await attempt('4', T0 + 4, spared)).toEqual({ allowed: true });
        expect(await attempt('5', T0 + 5, spared)).toEqual({ allowed: true });
        expect(await attempt('6', T0 + 3 + KNOWN, spared)).toEqual({ allowed: false, retryAfterMs: WINDOW - KNOWN + 2 });
        expect((await database.rows()).sign_in_known).toEqual([]);
      });
    });
  });
}
