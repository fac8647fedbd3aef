import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../testing/store-harness.ts';
import type { StoreDatabase } from '../testing/store-harness.ts';
import type { Database } from './database.ts';
import { POSTGRES_MIGRATIONS } from './postgres-store.ts';
import { SQLITE_MIGRATIONS } from './sqlite-store.ts';
import { newAccount, newLead, T0 } from '../testing/store-fixtures.ts';

// The database contract: the same tests against node:sqlite, node:sqlite on its
// worker thread and PostgreSQL. The PostgreSQL half needs TEST_DATABASE_URL; without it vitest
// reports it as skipped and the reason is printed.

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`database contract (migrations, lifecycle): ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    describe('migrations', () => {
      it('brings a new database to the latest version, and reopening applies nothing twice', async () => {
        const latest = harness.kind === 'postgres' ? POSTGRES_MIGRATIONS.length : SQLITE_MIGRATIONS.length;
        expect(await store.schemaVersion()).toBe(latest);
        await store.insertLead(newLead());
        const reopened = await database.open();
        expect(await reopened.schemaVersion()).toBe(latest);
        expect(await reopened.listLeads()).toHaveLength(1);
      });
    });

    describe('migration 4', () => {
      it('fills the inbox columns of leads stored before it from their payloads', async () => {
        const older = await harness.createDatabase();
        try {
          await (await older.openAtVersion(3)).close();
          await older.execute(`
            INSERT INTO leads (id, received_at, source, email, payload)
            VALUES ('old-1', ${T0}, 'Contact Page Form', 'ana@example.com',
              '{"name":"Ana Lima","company":"Lima & Co","utm_campaign":"spring","utm_source":"newsletter","phone":5}'),
              ('old-2', ${T0 + 1}, 'Contact Page Form', 'li@example.com', '{"name":42}');
            INSERT INTO deliveries (lead_id, state, attempts, updated_at) VALUES ('old-1', 'held', 0, ${T0}), ('old-2', 'held', 0, ${T0 + 1});
          `);
          const migrated = await older.open();
          expect(await migrated.getLead('old-1')).toMatchObject({
            name: 'Ana Lima',
            company: 'Lima & Co',
            campaign: 'spring',
            utmSource: 'newsletter',
          });
          // A value that is not text is left out rather than turned into one.
          expect(await migrated.getLead('old-2')).toMatchObject({ name: undefined, company: undefined });
          expect((await migrated.listLeadPage({ state: 'held', campaign: 'spring' }, undefined, 10)).leads.map((lead) => lead.id)).toEqual([
            'old-1',
          ]);
        } finally {
          await older.remove();
        }
      });
    });

    describe('migration 6', () => {
      it('ends the sessions started before it, which no app could tell as its own, and keeps the accounts', async () => {
        const older = await harness.createDatabase();
        try {
          const before = await older.openAtVersion(5);
          await before.createAccount(newAccount());
          await before.close();
          await older.execute(`
            INSERT INTO account_sessions (id_hash, account_id, created_at, last_seen_at)
            SELECT 'hash-of-an-old-session', id, ${T0}, ${T0} FROM accounts
          `);
          const migrated = await older.open();
          expect((await older.rows()).account_sessions).toEqual([]);
          expect(await migrated.findAccount('ana@example.com')).toMatchObject({ role: 'sales' });
          const session = await migrated.createSession(newAccount(), 'studio', T0 + 1);
          expect(await migrated.findSession(session!.id, 'studio', T0 + 2)).toBeDefined();
        } finally {
          await older.remove();
        }
      });
    });

    describe('lifecycle', () => {
      it('answers ping while open and rejects once closed', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
        await store.close();
        await expect(store.ping()).rejects.toThrow();
      });
    });
  });
}
