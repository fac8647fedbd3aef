import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import type { Database } from '../database.ts';
import { T0 } from '../../testing/store-fixtures.ts';

// The audit store contract: the same tests against node:sqlite, node:sqlite on its
// worker thread and PostgreSQL. The PostgreSQL half needs TEST_DATABASE_URL; without it vitest
// reports it as skipped and the reason is printed.

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`audit store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    describe('audit log', () => {
      it('lists entries newest first in pages, the later of two at the same moment first', async () => {
        const entries = [
          { at: T0, actor: 'ana@example.com', action: 'lead.spam', detail: 'lead-1' },
          { at: T0 + 5, actor: 'ana@example.com', action: 'leads.export', detail: '120 leads' },
          { at: T0 + 5, actor: 'system', action: 'retention.purge', detail: '3 leads, 12 spam' },
          { at: T0 + 9, actor: 'li@example.com', action: 'lead.retry', detail: 'lead-2' },
        ];
        for (const entry of entries) await store.appendAudit(entry);
        const first = await store.listAudit(undefined, 3);
        expect(first.entries.map((entry) => entry.action)).toEqual(['lead.retry', 'retention.purge', 'leads.export']);
        expect(first.entries[1]).toMatchObject(entries[2]!);
        const second = await store.listAudit(first.next, 3);
        expect(second).toMatchObject({ entries: [entries[0]], next: undefined });
      });
    });
  });
}
