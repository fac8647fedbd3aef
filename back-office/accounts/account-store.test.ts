import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../server/testing/store-harness.ts';
import type { StoreDatabase } from '../../server/testing/store-harness.ts';
import type { Database } from '../../server/store/database.ts';
import { newAccount, T0 } from '../../server/testing/store-fixtures.ts';

// The account store contract: the same tests against node:sqlite, node:sqlite on its
// worker thread and PostgreSQL. The PostgreSQL half needs TEST_DATABASE_URL; without it vitest
// reports it as skipped and the reason is printed.

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`account store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    describe('accounts', () => {
      it('keeps the e-mail trimmed and lower-cased, and refuses a second account for it in any case', async () => {
        const created = await store.createAccount(newAccount({ email: '  Ana@Example.COM ' }));
        expect(created).toMatchObject({
          kind: 'created',
          account: {
            email: 'ana@example.com',
            role: 'sales',
            createdAt: T0,
            updatedAt: T0,
            passwordChangedAt: T0,
            lastSignInAt: undefined,
          },
        });
        expect(await store.createAccount(newAccount({ email: 'ANA@example.com', role: 'admin' }))).toEqual({ kind: 'exists' });
        expect(await store.listAccounts()).toHaveLength(1);
        expect(await store.findAccount(' ana@EXAMPLE.com')).toMatchObject({
          email: 'ana@example.com',
          role: 'sales',
          passwordHash: 'scrypt$hash-of-the-first-password',
        });
        expect(await store.findAccount('li@example.com')).toBeUndefined();
      });

      it('lets exactly one of several connections create the same account at once', async () => {
        const other = await database.open();
        const results = await Promise.all(
          ['ana@example.com', 'Ana@example.com', 'ANA@EXAMPLE.COM', 'ana@Example.com'].map((email, index) =>
            (index % 2 === 0 ? store : other).createAccount(newAccount({ email })),
          ),
        );
        expect(results.filter((result) => result.kind === 'created')).toHaveLength(1);
        expect(await store.listAccounts()).toHaveLength(1);
      });

      it('lists accounts by address, never with their password hashes', async () => {
        await store.createAccount(newAccount({ email: 'zoe@example.com', role: 'viewer' }));
        await store.createAccount(newAccount({ email: 'ana@example.com', role: 'admin' }));
        const accounts = await store.listAccounts();
        expect(accounts.map((account) => [account.email, account.role])).toEqual([
          ['ana@example.com', 'admin'],
          ['zoe@example.com', 'viewer'],
        ]);
        expect(JSON.stringify(accounts)).not.toContain('hash-of-the-first-password');
      });

      it('changes a role, noting when, and says when there is no such account', async () => {
        await store.createAccount(newAccount());
        expect(await store.setAccountRole('ANA@example.com', 'editor', T0 + 5)).toEqual({
          kind: 'changed',
          previousRole: 'sales',
          account: expect.objectContaining({ email: 'ana@example.com', role: 'editor', updatedAt: T0 + 5 }),
        });
        expect(await store.findAccount('ana@example.com')).toMatchObject({ role: 'editor', updatedAt: T0 + 5, passwordChangedAt: T0 });
        expect(await store.setAccountRole('li@example.com', 'editor', T0 + 5)).toEqual({ kind: 'no-account' });
        await expect(store.setAccountRole('ana@example.com', 'owner' as 'admin', T0 + 6)).rejects.toThrow('Unknown role "owner"');
        await expect(store.createAccount(newAccount({ email: 'li@example.com', role: 'owner' as 'admin' }))).rejects.toThrow(
          'Unknown role',
        );
        expect(await store.findAccount('ana@example.com')).toMatchObject({ role: 'editor' });
        expect(await store.findAccount('li@example.com')).toBeUndefined();
      });

      it('removes an account together with every session it had, and leaves the others alone', async () => {
        await store.createAccount(newAccount());
        await store.createAccount(newAccount({ email: 'li@example.com' }));
        const ana = await store.createSession(newAccount(), 'console', T0 + 1);
        const li = await store.createSession(newAccount({ email: 'li@example.com' }), 'console', T0 + 1);
        expect(await store.removeAccount('Ana@Example.com')).toEqual({ kind: 'removed' });
        expect(await store.findAccount('ana@example.com')).toBeUndefined();
        expect(await store.findSession(ana!.id, 'console', T0 + 2)).toBeUndefined();
        expect((await store.findSession(li!.id, 'console', T0 + 2))?.account.email).toBe('li@example.com');
        expect(Object.values(await database.rows()).flat()).not.toContainEqual(expect.objectContaining({ account_id: ana!.account.id }));
        expect(await store.removeAccount('ana@example.com')).toEqual({ kind: 'no-account' });
      });

      it('asked to keep an admin, neither demotes nor removes the only one, and changes everyone else', async () => {
        const keep = { keepAnAdmin: true };
        await store.createAccount(newAccount({ role: 'admin' }));
        await store.createAccount(newAccount({ email: 'li@example.com', role: 'sales' }));
        expect(await store.setAccountRole('ana@example.com', 'sales', T0 + 1, keep)).toEqual({ kind: 'last-admin' });
        expect(await store.removeAccount('ana@example.com', keep)).toEqual({ kind: 'last-admin' });
        expect(await store.findAccount('ana@example.com')).toMatchObject({ role: 'admin', updatedAt: T0 });
        expect(await store.setAccountRole('ana@example.com', 'admin', T0 + 1, keep)).toMatchObject({ kind: 'changed' });
        expect(await store.setAccountRole('li@example.com', 'viewer', T0 + 1, keep)).toMatchObject({ kind: 'changed' });
        expect(await store.setAccountRole('zoe@example.com', 'viewer', T0 + 1, keep)).toEqual({ kind: 'no-account' });
        expect(await store.removeAccount('li@example.com', keep)).toEqual({ kind: 'removed' });
        expect(await store.setAccountRole('li@example.com', 'admin', T0 + 2, keep)).toEqual({ kind: 'no-account' });
        await store.createAccount(newAccount({ email: 'li@example.com', role: 'admin' }));
        expect(await store.setAccountRole('ana@example.com', 'sales', T0 + 2, keep)).toMatchObject({
          kind: 'changed',
          previousRole: 'admin',
        });
        expect(await store.removeAccount('li@example.com', keep)).toEqual({ kind: 'last-admin' });
        // Not asked, the store does as it is told: an operator's own choice, never the console's.
        expect(await store.removeAccount('li@example.com')).toEqual({ kind: 'removed' });
        expect((await store.listAccounts()).filter((account) => account.role === 'admin')).toEqual([]);
      });

      it('leaves exactly one admin when two admins demote or remove each other at the same moment', async () => {
        const keep = { keepAnAdmin: true };
        const other = await database.open();
        const admins = async () =>
          (await store.listAccounts()).filter((account) => account.role === 'admin').map((account) => account.email);
        for (let round = 0; round < 4; round += 1) {
          await store.createAccount(newAccount({ email: `ana${round}@example.com`, role: 'admin' }));
          await store.createAccount(newAccount({ email: `li${round}@example.com`, role: 'admin' }));
          const [first, second] = await Promise.all([
            round % 2 === 0
              ? store.setAccountRole(`ana${round}@example.com`, 'sales', T0 + 1, keep)
              : store.removeAccount(`ana${round}@example.com`, keep),
            round < 2
              ? other.setAccountRole(`li${round}@example.com`, 'viewer', T0 + 1, keep)
              : other.removeAccount(`li${round}@example.com`, keep),
          ]);
          expect([first.kind, second.kind].filter((kind) => kind === 'last-admin')).toHaveLength(1);
          expect(await admins()).toHaveLength(1);
          // Demoted unasked, so the next round starts again from its own two admins.
          for (const email of await admins()) await store.setAccountRole(email, 'sales', T0 + 2);
        }
      });

      it('changing a password ends every session of that account, records when, and a new sign-in works', async () => {
        await store.createAccount(newAccount());
        await store.createAccount(newAccount({ email: 'li@example.com' }));
        const phone = await store.createSession(newAccount(), 'console', T0 + 1);
        const laptop = await store.createSession(newAccount(), 'console', T0 + 2);
        const li = await store.createSession(newAccount({ email: 'li@example.com' }), 'console', T0 + 2);
        expect(await store.setAccountPassword('ana@example.com', 'scrypt$hash-of-the-second-password', T0 + 10)).toBe(true);
        expect(await store.findSession(phone!.id, 'console', T0 + 11)).toBeUndefined();
        expect(await store.findSession(laptop!.id, 'console', T0 + 11)).toBeUndefined();
        expect(await store.findSession(li!.id, 'console', T0 + 11)).toBeDefined();
        expect(await store.findAccount('ana@example.com')).toMatchObject({
          passwordHash: 'scrypt$hash-of-the-second-password',
          passwordChangedAt: T0 + 10,
          updatedAt: T0 + 10,
        });
        const again = await store.createSession(
          { email: 'ana@example.com', passwordHash: 'scrypt$hash-of-the-second-password' },
          'console',
          T0 + 12,
        );
        expect(await store.findSession(again!.id, 'console', T0 + 13)).toBeDefined();
        expect(await store.setAccountPassword('li@example.org', 'scrypt$x', T0 + 14)).toBe(false);
      });
    });
  });
}
