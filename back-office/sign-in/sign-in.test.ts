import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sqliteHarness, type StoreDatabase } from '../../server/testing/store-harness.ts';
import { hashPassword } from '../accounts/passwords.ts';
import type { Database } from '../../server/store/database.ts';
import { checkCsrfToken, createTeamSignIn, csrfTokenFor } from './sign-in.ts';

const PASSWORD = 'correct horse battery';

describe('team sign-in', () => {
  let database: StoreDatabase;
  let store: Database;
  beforeEach(async () => {
    database = await sqliteHarness.createDatabase();
    store = await database.open();
    await store.createAccount({ email: 'ana@example.com', role: 'sales', passwordHash: await hashPassword(PASSWORD), now: 1_000 });
  });
  afterEach(() => database.remove());

  it('starts a stored session of its app for the right password, whatever the address case', async () => {
    const signIn = createTeamSignIn({ store, app: 'console', now: () => 5_000 });
    const outcome = await signIn.signIn('  Ana@Example.COM ', PASSWORD, '10.0.0.1');
    expect(outcome.kind).toBe('signed-in');
    if (outcome.kind !== 'signed-in') return;
    expect(outcome.csrfToken).toBe(csrfTokenFor(outcome.session.id));
    expect((await store.findSession(outcome.session.id, 'console', 6_000))?.account.email).toBe('ana@example.com');
    expect(await store.findSession(outcome.session.id, 'studio', 6_000)).toBeUndefined();
  });

  it('refuses a wrong password and an unknown address with the same answer', async () => {
    const signIn = createTeamSignIn({ store, app: 'console' });
    expect(await signIn.signIn('ana@example.com', 'not the password', '10.0.0.1')).toEqual({ kind: 'refused' });
    expect(await signIn.signIn('nobody@example.com', PASSWORD, '10.0.0.1')).toEqual({ kind: 'refused' });
  });

  it('limits attempts per account and address before checking the password', async () => {
    const signIn = createTeamSignIn({ store, app: 'console' });
    for (let i = 0; i < 5; i++) expect((await signIn.signIn('ana@example.com', 'wrong password!', '10.0.0.9')).kind).toBe('refused');
    const limited = await signIn.signIn('ana@example.com', PASSWORD, '10.0.0.9');
    expect(limited.kind).toBe('limited');
    expect((await signIn.signIn('ana@example.com', PASSWORD, '10.0.0.10')).kind).toBe('signed-in');
  });
  it('starts no session for an account whose role may not do what the sign-in requires', async () => {
    await store.createAccount({ email: 'eve@example.com', role: 'editor', passwordHash: await hashPassword(PASSWORD), now: 1_000 });
    const signIn = createTeamSignIn({ store, app: 'studio', requires: 'studio:edit' });
    expect(await signIn.signIn('ana@example.com', PASSWORD, '10.0.0.1')).toEqual({ kind: 'not-permitted' });
    expect((await store.findAccount('ana@example.com'))?.lastSignInAt).toBeUndefined();
    // A wrong password is refused as usual: the role is told only to someone who knows the password.
    expect(await signIn.signIn('ana@example.com', 'not the password', '10.0.0.1')).toEqual({ kind: 'refused' });
    expect((await signIn.signIn('eve@example.com', PASSWORD, '10.0.0.1')).kind).toBe('signed-in');
  });

  it('answers "busy" without counting it, so a flood of busy answers leaves the limits as they were', async () => {
    let counted = 0;
    let withdrawn = 0;
    const limiter = {
      attempt: async () => {
        counted += 1;
        return {
          allowed: true as const,
          succeeded: async () => {},
          withdraw: async () => {
            withdrawn += 1;
          },
        };
      },
    };
    const signIn = createTeamSignIn({ store, app: 'console', limiter });
    const first = Array.from({ length: 30 }, (_, i) => signIn.signIn(`x${i}@example.com`, 'wrong password!', '10.0.0.1'));
    // Once the first ones are being hashed and the line is full, more are refused before they are counted.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const countedBefore = counted;
    const later = await Promise.all(Array.from({ length: 5 }, (_, i) => signIn.signIn(`y${i}@example.com`, 'wrong password!', '10.0.0.1')));
    expect(later.every((outcome) => outcome.kind === 'busy')).toBe(true);
    expect(counted).toBe(countedBefore);
    const outcomes = await Promise.all(first);
    const busy = outcomes.filter((outcome) => outcome.kind === 'busy').length;
    expect(busy).toBeGreaterThan(0);
    // Those counted while the line was filling and then found it full are withdrawn.
    expect(counted - withdrawn).toBe(30 - busy);
  });

  it('counts at most four sign-ins in the store at once, and tells a flood beyond the line "busy"', async () => {
    let counting = 0;
    let most = 0;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const limiter = {
      attempt: async () => {
        counting += 1;
        most = Math.max(most, counting);
        await held;
        counting -= 1;
        return { allowed: false as const, retryAfterSeconds: 900 };
      },
    };
    const signIn = createTeamSignIn({ store, app: 'console', limiter });
    const flood = Array.from({ length: 30 }, (_, i) => signIn.signIn('ana@example.com', 'wrong password!', `10.0.1.${i}`));
    await new Promise((resolve) => setTimeout(resolve, 20));
    release();
    const kinds = (await Promise.all(flood)).map((outcome) => outcome.kind);
    expect(most).toBe(4);
    expect(kinds.filter((kind) => kind === 'limited')).toHaveLength(20);
    expect(kinds.filter((kind) => kind === 'busy')).toHaveLength(10);
  });

  it('refuses an address with a control character like any unknown one, without asking the store', async () => {
    const asked: string[] = [];
    const counted: string[] = [];
    const watched = new Proxy(store, {
      get(target, key, receiver) {
        if (key === 'findAccount') return (email: string) => (asked.push(email), target.findAccount(email));
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const limiter = {
      attempt: async (account: string) => {
        counted.push(account);
        return { allowed: true as const, succeeded: async () => {}, withdraw: async () => {} };
      },
    };
    const signIn = createTeamSignIn({ store: watched, app: 'console', limiter });
    expect(await signIn.signIn('ana@example.com\u0000', PASSWORD, '10.0.0.1')).toEqual({ kind: 'refused' });
    expect(await signIn.signIn('ana\u0007@example.com', PASSWORD, '10.0.0.1')).toEqual({ kind: 'refused' });
    expect(asked).toEqual([]);
    // Counted all the same, under a name the store can keep (PostgreSQL refuses a NUL in any text).
    expect(counted).toEqual(['ana@example.com\uFFFD', 'ana\uFFFD@example.com']);
  });
});

describe('CSRF tokens', () => {
  it('match only the session they were made for', () => {
    const token = csrfTokenFor('session-a');
    expect(checkCsrfToken('session-a', token)).toBe(true);
    expect(checkCsrfToken('session-b', token)).toBe(false);
    expect(checkCsrfToken('session-a', undefined)).toBe(false);
    expect(checkCsrfToken('session-a', [token])).toBe(false);
    expect(checkCsrfToken('session-a', token.slice(1))).toBe(false);
  });
});
