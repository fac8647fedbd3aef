import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import type { Database } from '../database.ts';

// The weekly summary's choices, on SQLite, SQLite on its worker thread and PostgreSQL: opt-in per
// account, audited only when it changes, gone with the account, and the list the weekly job reads.

const T0 = Date.UTC(2026, 10, 23, 9, 0, 0);
const MINUTE = 60_000;
const audit = (detail: string) => ({ actor: 'ana@example.com', action: 'account.weekly-summary', detail });

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`lead store weekly summary choices: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    async function account(email: string, role: 'admin' | 'sales' | 'viewer' | 'editor' = 'admin'): Promise<string> {
      const created = await store.createAccount({ email, role, passwordHash: 'x', now: T0 });
      if (created.kind !== 'created') throw new Error(`could not create ${email}`);
      return created.account.id;
    }

    it('is off for an account that never chose, and each change is stored with its audit entry', async () => {
      const ana = await account('ana@example.com');
      expect(await store.weeklySummaryChoice(ana)).toBe(false);

      expect(await store.setWeeklySummaryChoice(ana, true, T0, audit('on'))).toBe('changed');
      expect(await store.weeklySummaryChoice(ana)).toBe(true);
      // The same choice again changes nothing and writes no entry.
      expect(await store.setWeeklySummaryChoice(ana, true, T0 + MINUTE, audit('on again'))).toBe('unchanged');
      // Switching off when it was never on is no change either.
      const bo = await account('bo@example.com');
      expect(await store.setWeeklySummaryChoice(bo, false, T0, audit('off'))).toBe('unchanged');

      expect(await store.setWeeklySummaryChoice(ana, false, T0 + 2 * MINUTE, audit('off'))).toBe('changed');
      expect(await store.weeklySummaryChoice(ana)).toBe(false);

      const entries = (await store.listAudit(undefined, 10)).entries;
      expect(entries.map((entry) => [entry.detail, entry.at])).toEqual([
        ['off', T0 + 2 * MINUTE],
        ['on', T0],
      ]);
    });

    it('stores nothing for an account that does not exist', async () => {
      expect(await store.setWeeklySummaryChoice('no-such-account', true, T0, audit('on'))).toBe('no-account');
      expect(await store.listWeeklySummaryRecipients()).toEqual([]);
      expect((await store.listAudit(undefined, 10)).entries).toEqual([]);
    });

    it('lists who opted in, with address and role, up to a moment; a removed account is gone from the list', async () => {
      const ana = await account('ana@example.com', 'admin');
      const bo = await account('bo@example.com', 'viewer');
      const cy = await account('cy@example.com', 'sales');
      await account('di@example.com', 'sales');
      await store.setWeeklySummaryChoice(cy, true, T0 + 5 * MINUTE);
      await store.setWeeklySummaryChoice(ana, true, T0);
      await store.setWeeklySummaryChoice(bo, true, T0 + MINUTE);
      await store.setWeeklySummaryChoice(bo, false, T0 + 2 * MINUTE);

      expect(await store.listWeeklySummaryRecipients()).toEqual([
        { accountId: ana, email: 'ana@example.com', role: 'admin', chosenAt: T0 },
        { accountId: cy, email: 'cy@example.com', role: 'sales', chosenAt: T0 + 5 * MINUTE },
      ]);
      expect((await store.listWeeklySummaryRecipients(T0 + 4 * MINUTE)).map((recipient) => recipient.email)).toEqual(['ana@example.com']);

      await store.removeAccount('ana@example.com');
      expect((await store.listWeeklySummaryRecipients()).map((recipient) => recipient.email)).toEqual(['cy@example.com']);
      expect(await store.weeklySummaryChoice(ana)).toBe(false);
    });
  });
}
