import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS, SESSION_LIFETIME_MS, SESSION_TOUCH_MS } from './sessions.ts';
import { announceSkip, STORE_HARNESSES } from '../../server/testing/store-harness.ts';
import type { StoreDatabase } from '../../server/testing/store-harness.ts';
import type { Database } from '../../server/store/database.ts';
import { HOUR, newAccount, T0 } from '../../server/testing/store-fixtures.ts';

// The session store contract: the same tests against node:sqlite, node:sqlite on its
// worker thread and PostgreSQL. The PostgreSQL half needs TEST_DATABASE_URL; without it vitest
// reports it as skipped and the reason is printed.

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`session store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    describe('sessions', () => {
      beforeEach(async () => {
        await store.createAccount(newAccount());
      });

      it('starts a session for an account, records the sign-in, and finds it by its id', async () => {
        const session = await store.createSession(newAccount({ email: 'ANA@example.com' }), 'console', T0 + 100);
        expect(session?.id).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(session).toMatchObject({
          account: { email: 'ana@example.com', role: 'sales', lastSignInAt: T0 + 100 },
          createdAt: T0 + 100,
        });
        expect(await store.findSession(session!.id, 'console', T0 + 200)).toMatchObject({
          account: { email: 'ana@example.com', role: 'sales' },
          createdAt: T0 + 100,
          lastSeenAt: T0 + 100,
        });
        expect((await store.listAccounts())[0]?.lastSignInAt).toBe(T0 + 100);
        expect(await store.findSession('no-such-session', 'console', T0 + 200)).toBeUndefined();
        expect(await store.findSession(session!.id.toUpperCase(), 'console', T0 + 200)).toBeUndefined();
      });

      it('never keeps the session id itself, only its SHA-256', async () => {
        const session = await store.createSession(newAccount(), 'console', T0);
        const stored = JSON.stringify(await database.rows());
        expect(stored).not.toContain(session!.id);
        expect(stored).toContain(createHash('sha256').update(session!.id).digest('hex'));
      });

      it('gives each sign-in its own session', async () => {
        const first = await store.createSession(newAccount(), 'console', T0);
        const second = await store.createSession(newAccount(), 'console', T0);
        expect(first!.id).not.toBe(second!.id);
        expect(await store.findSession(first!.id, 'console', T0 + 1)).toBeDefined();
        expect(await store.findSession(second!.id, 'console', T0 + 1)).toBeDefined();
      });

      it('starts no session for an unknown account, or when the password changed after it was checked', async () => {
        expect(await store.createSession(newAccount({ email: 'li@example.com' }), 'console', T0)).toBeUndefined();
        const checked = await store.findAccount('ana@example.com');
        await store.setAccountPassword('ana@example.com', 'scrypt$hash-of-the-second-password', T0 + 1);
        expect(await store.createSession(checked!, 'console', T0 + 2)).toBeUndefined();
        expect((await store.listAccounts())[0]?.lastSignInAt).toBeUndefined();
      });

      it('ends a session unused for 12 hours, and keeps one in use going', async () => {
        const idle = await store.createSession(newAccount(), 'console', T0);
        const busy = await store.createSession(newAccount(), 'console', T0);
        // Used every 11 hours, a session lasts well past 12 hours after it started.
        for (let hours = 11; hours <= 33; hours += 11) {
          expect((await store.findSession(busy!.id, 'console', T0 + hours * HOUR))?.lastSeenAt).toBe(T0 + hours * HOUR);
        }
        expect(await store.findSession(idle!.id, 'console', T0 + SESSION_IDLE_MS)).toBeUndefined();
        // Once over it stays over, even for a server whose clock is behind.
        expect(await store.findSession(idle!.id, 'console', T0 + 1)).toBeUndefined();
        expect(await store.findSession(busy!.id, 'console', T0 + 33 * HOUR + SESSION_IDLE_MS - 1)).toBeDefined();
      });

      it('ends a session exactly 12 hours after its last use, not a moment before', async () => {
        const session = await store.createSession(newAccount(), 'console', T0);
        expect(await store.findSession(session!.id, 'console', T0 + SESSION_IDLE_MS - 1)).toBeDefined();
        expect(await store.findSession(session!.id, 'console', T0 + 2 * SESSION_IDLE_MS - 2)).toBeDefined();
        expect(await store.findSession(session!.id, 'console', T0 + 3 * SESSION_IDLE_MS - 2)).toBeUndefined();
      });

      it('ends a session 30 days after its sign-in however much it is used, not a moment before', async () => {
        expect(SESSION_LIFETIME_MS).toBe(30 * 24 * HOUR);
        const session = await store.createSession(newAccount(), 'console', T0);
        const other = await store.createSession(newAccount(), 'studio', T0 + 5 * HOUR);
        // Used every 11 hours, it never idles out.
        for (let at = T0 + 11 * HOUR; at < T0 + SESSION_LIFETIME_MS; at += 11 * HOUR) {
          expect(await store.findSession(session!.id, 'console', at)).toBeDefined();
          expect(await store.findSession(other!.id, 'studio', at)).toBeDefined();
        }
        expect(await store.findSession(session!.id, 'console', T0 + SESSION_LIFETIME_MS - 1)).toBeDefined();
        expect(await store.findSession(session!.id, 'console', T0 + SESSION_LIFETIME_MS)).toBeUndefined();
        // Once over it stays over, even for a server whose clock is behind.
        expect(await store.findSession(session!.id, 'console', T0 + SESSION_LIFETIME_MS - 1)).toBeUndefined();
        // Each session counts from its own sign-in.
        expect(await store.findSession(other!.id, 'studio', T0 + SESSION_LIFETIME_MS)).toBeDefined();
        expect(await store.findSession(other!.id, 'studio', T0 + 5 * HOUR + SESSION_LIFETIME_MS)).toBeUndefined();
      });

      it('records its last use at most once a minute, so most lookups only read', async () => {
        const session = await store.createSession(newAccount(), 'console', T0);
        expect((await store.findSession(session!.id, 'console', T0 + SESSION_TOUCH_MS - 1))?.lastSeenAt).toBe(T0);
        expect((await store.findSession(session!.id, 'console', T0 + SESSION_TOUCH_MS))?.lastSeenAt).toBe(T0 + SESSION_TOUCH_MS);
        expect((await store.findSession(session!.id, 'console', T0 + SESSION_TOUCH_MS + 30_000))?.lastSeenAt).toBe(T0 + SESSION_TOUCH_MS);
        // The use half a minute later was not recorded: the 12 hours count from the one before.
        expect(await store.findSession(session!.id, 'console', T0 + SESSION_TOUCH_MS + SESSION_IDLE_MS)).toBeUndefined();
      });

      it('ends every session of an account whose role changes, in every app, for good', async () => {
        const inConsole = await store.createSession(newAccount(), 'console', T0);
        const inStudio = await store.createSession(newAccount(), 'studio', T0);
        // The same role again is no change: nobody is signed out.
        expect(await store.setAccountRole('ana@example.com', 'sales', T0 + 1)).toMatchObject({ kind: 'changed' });
        expect((await store.findSession(inConsole!.id, 'console', T0 + 2))?.account.role).toBe('sales');
        await store.setAccountRole('ana@example.com', 'viewer', T0 + 3);
        expect(await store.findSession(inConsole!.id, 'console', T0 + 4)).toBeUndefined();
        expect(await store.findSession(inStudio!.id, 'studio', T0 + 4)).toBeUndefined();
        // Promoted back, the old sessions stay ended: only a new sign-in opens one.
        await store.setAccountRole('ana@example.com', 'sales', T0 + 5);
        expect(await store.findSession(inConsole!.id, 'console', T0 + 6)).toBeUndefined();
        expect(await store.findSession(inStudio!.id, 'studio', T0 + 6)).toBeUndefined();
        const signedInAgain = await store.createSession(newAccount(), 'console', T0 + 7);
        expect((await store.findSession(signedInAgain!.id, 'console', T0 + 8))?.account.role).toBe('sales');
      });

      it('ends one session on sign-out, or every session of an account at once', async () => {
        await store.createAccount(newAccount({ email: 'li@example.com' }));
        const [phone, laptop, tablet] = [
          await store.createSession(newAccount(), 'console', T0),
          await store.createSession(newAccount(), 'console', T0),
          await store.createSession(newAccount(), 'console', T0),
        ];
        const li = await store.createSession(newAccount({ email: 'li@example.com' }), 'console', T0);
        expect(await store.endSession(phone!.id, 'console')).toBe(true);
        expect(await store.endSession(phone!.id, 'console')).toBe(false);
        expect(await store.findSession(phone!.id, 'console', T0 + 1)).toBeUndefined();
        expect(await store.findSession(laptop!.id, 'console', T0 + 1)).toBeDefined();
        expect(await store.endAccountSessions('Ana@Example.com')).toBe(2);
        expect(await store.findSession(tablet!.id, 'console', T0 + 1)).toBeUndefined();
        expect(await store.findSession(li!.id, 'console', T0 + 1)).toBeDefined();
        expect(await store.endAccountSessions('nobody@example.com')).toBe(0);
      });

      it("finds and ends a session only in the app that started it; ending an account's sessions ends them in every app", async () => {
        const inConsole = await store.createSession(newAccount(), 'console', T0);
        const inStudio = await store.createSession(newAccount(), 'studio', T0);
        expect(await store.findSession(inStudio!.id, 'console', T0 + 1)).toBeUndefined();
        expect(await store.findSession(inConsole!.id, 'studio', T0 + 1)).toBeUndefined();
        expect(await store.endSession(inStudio!.id, 'console')).toBe(false);
        expect(await store.endSession(inConsole!.id, 'studio')).toBe(false);
        // Refused by the other app, each goes on in its own.
        expect((await store.findSession(inConsole!.id, 'console', T0 + 1))?.account.email).toBe('ana@example.com');
        expect((await store.findSession(inStudio!.id, 'studio', T0 + 1))?.account.email).toBe('ana@example.com');
        expect(await store.endAccountSessions('ana@example.com')).toBe(2);
        expect(await store.findSession(inConsole!.id, 'console', T0 + 2)).toBeUndefined();
        expect(await store.findSession(inStudio!.id, 'studio', T0 + 2)).toBeUndefined();

        const studioAgain = await store.createSession(newAccount(), 'studio', T0 + 3);
        const consoleAgain = await store.createSession(newAccount(), 'console', T0 + 3);
        await store.setAccountPassword('ana@example.com', 'scrypt$hash-of-the-second-password', T0 + 4);
        expect(await store.findSession(studioAgain!.id, 'studio', T0 + 5)).toBeUndefined();
        expect(await store.findSession(consoleAgain!.id, 'console', T0 + 5)).toBeUndefined();
        await expect(store.createSession(newAccount(), 'blog' as 'console', T0)).rejects.toThrow('Unknown session app "blog"');
        await expect(store.findSession(inConsole!.id, 'blog' as 'console', T0)).rejects.toThrow('Unknown session app "blog"');
      });

      it('clears lapsed sessions nobody looks up again when someone signs in', async () => {
        const forgotten = await store.createSession(newAccount(), 'console', T0);
        await store.createSession(newAccount(), 'console', T0 + SESSION_IDLE_MS);
        const hashes = ((await database.rows()).account_sessions ?? []).map((row) => (row as { id_hash: string }).id_hash);
        expect(hashes).toHaveLength(1);
        expect(hashes).not.toContain(createHash('sha256').update(forgotten!.id).digest('hex'));
      });
    });
  });
}
