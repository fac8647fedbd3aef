// The sign-in limits as every app and process sees them: kept in the lead store, so each rule holds
// on every engine, across two connections to one database (two processes), and for attempts sent
// at the same moment.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES, type StoreDatabase } from '../../server/testing/store-harness.ts';
import type { Database } from '../../server/store/database.ts';
import { addressKey, createSignInLimiter, type SignInLimiter } from './sign-in-limiter.ts';

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const WINDOW_MS = 15 * 60 * 1000;

async function allowed(limiter: SignInLimiter, account: string, address: string): Promise<boolean> {
  return (await limiter.attempt(account, address)).allowed;
}

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`sign-in limiter: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;
    let time: number;
    const now = () => time;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
      time = T0;
    });
    afterEach(() => database.remove());

    it('refuses the sixth attempt on one account from one address within 15 minutes, then lets it try again', async () => {
      const limiter = createSignInLimiter({ store, now });
      for (let i = 0; i < 5; i++) expect(await allowed(limiter, 'maria', '10.0.0.1')).toBe(true);
      expect(await limiter.attempt('Maria', '10.0.0.1')).toEqual({ allowed: false, retryAfterSeconds: 900 });
      expect(await allowed(limiter, 'maria', '10.0.0.2')).toBe(true);
      time += 60_000;
      expect(await limiter.attempt('maria', '10.0.0.1')).toEqual({ allowed: false, retryAfterSeconds: 840 });
      time = T0 + WINDOW_MS;
      expect(await allowed(limiter, 'maria', '10.0.0.1')).toBe(true);
    });

    it('counts an attempt as soon as it is allowed, before its password is checked', async () => {
      const limiter = createSignInLimiter({ store, now });
      // Five attempts in flight at once (none has failed yet): the sixth is refused all the same.
      const inFlight = await Promise.all(Array.from({ length: 5 }, () => limiter.attempt('maria', '10.0.0.1')));
      expect(inFlight.every((attempt) => attempt.allowed)).toBe(true);
      expect(await allowed(limiter, 'maria', '10.0.0.1')).toBe(false);
    });

    it('does not count an attempt that was withdrawn unchecked', async () => {
      const limiter = createSignInLimiter({ store, now });
      for (let i = 0; i < 10; i++) {
        const attempt = await limiter.attempt('maria', '10.0.0.1');
        if (!attempt.allowed) throw new Error('a withdrawn attempt was counted');
        await attempt.withdraw();
      }
      expect(await allowed(limiter, 'maria', '10.0.0.1')).toBe(true);
      expect((await database.rows()).sign_in_attempts).toHaveLength(3);
    });

    it('forgets the failures of an account and address once its password is right', async () => {
      const limiter = createSignInLimiter({ store, now });
      for (let i = 0; i < 4; i++) expect(await allowed(limiter, 'maria', '10.0.0.1')).toBe(true);
      const right = await limiter.attempt('maria', '10.0.0.1');
      if (!right.allowed) throw new Error('expected the fifth attempt to be allowed');
      await right.succeeded();
      for (let i = 0; i < 5; i++) expect(await allowed(limiter, 'maria', '10.0.0.1')).toBe(true);
      expect(await allowed(limiter, 'maria', '10.0.0.1')).toBe(false);
    });

    it('limits many addresses guessing one account, but never the addresses its owner signed in from', async () => {
      const limiter = createSignInLimiter({ store, now });
      const office = await limiter.attempt('maria', '198.51.100.4');
      if (!office.allowed) throw new Error('expected the first sign-in to be allowed');
      await office.succeeded();
      for (let i = 0; i < 20; i++) expect(await allowed(limiter, 'maria', `203.0.113.${i}`)).toBe(true);
      expect(await allowed(limiter, 'maria', '203.0.113.99')).toBe(false);
      expect(await allowed(limiter, 'maria', '198.51.100.4')).toBe(true);
      // Known for 30 days, then a stranger like any other.
      time = T0 + 30 * 24 * 60 * 60 * 1000 - WINDOW_MS / 2;
      for (let i = 0; i < 20; i++) expect(await allowed(limiter, 'maria', `203.0.114.${i}`)).toBe(true);
      expect(await allowed(limiter, 'maria', '198.51.100.4')).toBe(true);
      time = T0 + 30 * 24 * 60 * 60 * 1000;
      expect(await allowed(limiter, 'maria', '198.51.100.4')).toBe(false);
    });

    it('limits one address trying many accounts, an IPv6 network as one address', async () => {
      const limiter = createSignInLimiter({ store, now });
      for (let i = 0; i < 20; i++) expect(await allowed(limiter, `user${i}`, `2001:db8:0:1::${i.toString(16)}`)).toBe(true);
      expect(await allowed(limiter, 'someone-else', '2001:db8:0:1:ffff::1')).toBe(false);
      expect(await allowed(limiter, 'someone-else', '2001:db8:0:2::1')).toBe(true);
      expect(await allowed(limiter, 'someone-else', '10.0.0.2')).toBe(true);
    });

    it('shares the limits between two connections to one database, as between two processes', async () => {
      const first = createSignInLimiter({ store, now });
      const second = createSignInLimiter({ store: await database.open(), now });
      for (let i = 0; i < 5; i++) expect(await allowed(i % 2 === 0 ? first : second, 'maria', '10.0.0.1')).toBe(true);
      expect(await second.attempt('maria', '10.0.0.1')).toEqual({ allowed: false, retryAfterSeconds: 900 });
      expect(await allowed(first, 'maria', '10.0.0.1')).toBe(false);
    });

    it('allows at most five of twenty attempts sent at the same moment through two connections', async () => {
      const first = createSignInLimiter({ store, now });
      const second = createSignInLimiter({ store: await database.open(), now });
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? first : second).attempt('maria', '10.0.0.1')));
      expect(outcomes.filter((outcome) => outcome.allowed)).toHaveLength(5);
    });

    it('drops attempts older than the window as new ones come', async () => {
      const limiter = createSignInLimiter({ store, now });
      for (let i = 0; i < 5; i++) await limiter.attempt(`user${i}`, `10.0.1.${i}`);
      time = T0 + WINDOW_MS;
      await limiter.attempt('maria', '10.0.0.1');
      expect((await database.rows()).sign_in_attempts).toHaveLength(3);
    });

    it('purges expired attempts from several connections at once without failing an attempt', async () => {
      const connections = [store, await database.open(), await database.open(), await database.open()];
      const limiters = connections.map((connection) => createSignInLimiter({ store: connection, now }));
      // Expired attempts, and known addresses, for the new attempts to purge.
      for (const attempt of await Promise.all(
        Array.from({ length: 400 }, (_, i) => limiters[i % 4]!.attempt(`old${i}@example.com`, `10.3.${i >> 8}.${i & 255}`)),
      )) {
        if (attempt.allowed && Math.random() < 0.5) await attempt.succeeded();
      }
      time = T0 + 31 * 24 * 60 * 60 * 1000;
      for (let round = 0; round < 8; round++) {
        // Attempts purging, and sign-ins succeeding (which delete rows too), all at once.
        const outcomes = await Promise.allSettled(
          Array.from({ length: 24 }, async (_, i) => {
            const attempt = await limiters[i % 4]!.attempt(`new${round}-${i}@example.com`, `10.4.${round}.${i}`);
            if (attempt.allowed && i % 2 === 0) await attempt.succeeded();
          }),
        );
        expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      }
    });

    it('keeps an account locked however many made-up names are tried from however many addresses', async () => {
      const limiter = createSignInLimiter({ store, now });
      for (let i = 0; i < 20; i++) expect(await allowed(limiter, 'maria@example.com', `198.51.100.${i}`)).toBe(true);
      for (let i = 0; i < 500; i++) await limiter.attempt(`junk${i}@example.com`, `10.2.${i >> 4}.${i & 15}`);
      expect(await allowed(limiter, 'maria@example.com', '203.0.113.7')).toBe(false);
    });
  });
}

describe('address keys', () => {
  it.each([
    ['2001:db8:0:1::7', '2001:db8:0:1::/64'],
    ['2001:0db8:0000:0001:aaaa:bbbb:cccc:dddd', '2001:db8:0:1::/64'],
    ['::1', '0:0:0:0::/64'],
    ['::ffff:10.0.0.1', '10.0.0.1'],
    ['10.0.0.1', '10.0.0.1'],
  ])('counts %s as %s', (address, key) => {
    expect(addressKey(address)).toBe(key);
  });
});
