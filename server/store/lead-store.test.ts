import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SESSION_IDLE_MS, SESSION_LIFETIME_MS, SESSION_TOUCH_MS } from '../accounts/sessions.ts';
import { announceSkip, STORE_HARNESSES } from '../testing/store-harness.ts';
import type { StoreDatabase } from '../testing/store-harness.ts';
import { buildLeadPageQuery } from './lead-page-query.ts';
import type { DeliveryResult, NewLead } from './outbox/outbox-store.ts';
import type { LeadCursor, LeadQuery } from './inbox/inbox-store.ts';
import type { Database } from './database.ts';
import type { NewAccount } from '../../back-office/accounts/account-store.ts';
import { PURGE_BATCH_SIZE } from './inbox/inbox-store.ts';
import { POSTGRES_MIGRATIONS } from './postgres-store.ts';
import { SQLITE_MIGRATIONS } from './sqlite-store.ts';

// The lead-store contract: the same tests against node:sqlite and PostgreSQL. The PostgreSQL half
// needs TEST_DATABASE_URL; without it vitest reports it as skipped and the reason is printed.

const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
const LEASE_MS = 60_000;
// What a new lead may wait while downloads read: its commit on a machine shared with other work.
const LEAD_WAIT_BOUND_MS = 1_000;

let sequence = 0;
function newLead(overrides: Partial<NewLead> = {}): NewLead {
  sequence += 1;
  const id = `lead-${String(sequence).padStart(5, '0')}`;
  return {
    id,
    receivedAt: T0 + sequence,
    source: 'Homepage Simple Lead Form',
    email: `Person${sequence}@Example.com`,
    payload: { name: "Seán O'Brien", email: `person${sequence}@example.com`, company: 'Smith & Sons', lead_id: id },
    spamReason: undefined,
    initialState: 'pending',
    ...overrides,
  };
}

function delivered(leadId: string, owner: string, at: number, status = 200): DeliveryResult {
  return {
    leadId,
    owner,
    attempt: { attemptedAt: at, durationMs: 12, status, responseBody: '{"ok":true}', error: undefined },
    nextState: 'delivered',
    nextAttemptAt: undefined,
  };
}

function newAccount(overrides: Partial<NewAccount> = {}): NewAccount {
  return { email: 'ana@example.com', role: 'sales', passwordHash: 'scrypt$hash-of-the-first-password', now: T0, ...overrides };
}

const HOUR = 60 * 60 * 1000;

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`lead store contract: ${harness.kind}`, () => {
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

    describe('insertLead', () => {
      it('keeps the lead and a pending delivery record, payload text unchanged', async () => {
        const lead = newLead();
        expect(await store.insertLead(lead)).toEqual({ kind: 'created', id: lead.id });
        const record = await store.getLead(lead.id);
        expect(record).toMatchObject({
          id: lead.id,
          receivedAt: lead.receivedAt,
          source: lead.source,
          email: lead.email.toLowerCase(),
          payload: lead.payload,
          spamReason: undefined,
          state: 'pending',
          attempts: 0,
          nextAttemptAt: lead.receivedAt,
        });
        expect(Object.keys(record?.payload ?? {})).toEqual(Object.keys(lead.payload));
      });

      it('answers a repeated idempotency key with the first id and stores nothing new', async () => {
        const first = newLead({ idempotency: { keyHash: 'hash-a', bodyHash: 'body-1' } });
        await store.insertLead(first);
        const repeat = newLead({ idempotency: { keyHash: 'hash-a', bodyHash: 'body-1' } });
        expect(await store.insertLead(repeat)).toEqual({ kind: 'duplicate', id: first.id });
        expect((await store.listLeads()).map((lead) => lead.id)).toEqual([first.id]);
      });

      it('tells a key reused with another body apart, and stores nothing for it', async () => {
        const first = newLead({ idempotency: { keyHash: 'hash-b', bodyHash: 'body-1' } });
        await store.insertLead(first);
        const other = newLead({ idempotency: { keyHash: 'hash-b', bodyHash: 'body-2' } });
        expect(await store.insertLead(other)).toEqual({ kind: 'key-reused', id: first.id });
        expect((await store.listLeads()).map((lead) => lead.id)).toEqual([first.id]);
      });

      it('lets exactly one of several concurrent inserts with the same key through', async () => {
        const other = await database.open();
        const leads = Array.from({ length: 6 }, () => newLead({ idempotency: { keyHash: 'hash-race', bodyHash: 'body-1' } }));
        const results = await Promise.all(leads.map((lead, index) => (index % 2 === 0 ? store : other).insertLead(lead)));
        const created = results.filter((result) => result.kind === 'created');
        expect(created).toHaveLength(1);
        expect(new Set(results.map((result) => result.id))).toEqual(new Set([created[0]?.id]));
        expect(await store.listLeads()).toHaveLength(1);
      });

      it('keeps spam and held leads out of the outbox', async () => {
        const spam = newLead({ initialState: 'spam', spamReason: 'honeypot' });
        const held = newLead({ initialState: 'held' });
        await store.insertLead(spam);
        await store.insertLead(held);
        expect(await store.claimDue({ now: T0 + 10 ** 9, limit: 10, owner: 'w1', leaseMs: LEASE_MS })).toEqual([]);
        expect(await store.getLead(spam.id)).toMatchObject({ state: 'spam', spamReason: 'honeypot' });
        expect(await store.countByState()).toEqual({ spam: 1, held: 1 });
      });
    });

    describe('claimDue', () => {
      it('claims due leads oldest first, up to the limit, with their payload as stored JSON text', async () => {
        const leads = [newLead(), newLead(), newLead()];
        for (const lead of leads) await store.insertLead(lead);
        const claimed = await store.claimDue({ now: T0 + 10_000, limit: 2, owner: 'w1', leaseMs: LEASE_MS });
        expect(claimed).toEqual([
          { leadId: leads[0]?.id, attempts: 0, body: JSON.stringify(leads[0]?.payload) },
          { leadId: leads[1]?.id, attempts: 0, body: JSON.stringify(leads[1]?.payload) },
        ]);
      });

      it('does not claim a lead before its next attempt is due', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        expect(await store.claimDue({ now: lead.receivedAt - 1, limit: 5, owner: 'w1', leaseMs: LEASE_MS })).toEqual([]);
      });

      it('gives a leased lead to nobody else until the lease lapses (a crashed worker resends at most once)', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        const now = T0 + 10_000;
        expect(await store.claimDue({ now, limit: 5, owner: 'crashed', leaseMs: LEASE_MS })).toHaveLength(1);
        expect(await store.claimDue({ now: now + LEASE_MS - 1, limit: 5, owner: 'w2', leaseMs: LEASE_MS })).toEqual([]);
        const reclaimed = await store.claimDue({ now: now + LEASE_MS, limit: 5, owner: 'w2', leaseMs: LEASE_MS });
        expect(reclaimed.map((claim) => claim.leadId)).toEqual([lead.id]);
        // The crashed worker's late result changes nothing; the live owner's does.
        await store.recordResults([delivered(lead.id, 'crashed', now + LEASE_MS + 1)]);
        expect(await store.getLead(lead.id)).toMatchObject({ state: 'pending' });
        await store.recordResults([delivered(lead.id, 'w2', now + LEASE_MS + 2)]);
        expect(await store.getLead(lead.id)).toMatchObject({ state: 'delivered', attempts: 1 });
      });

      it('never hands one lead to two connections claiming at the same time', async () => {
        const other = await database.open();
        const ids = new Set<string>();
        for (let index = 0; index < 40; index += 1) {
          const lead = newLead();
          ids.add(lead.id);
          await store.insertLead(lead);
        }
        const claims = await Promise.all(
          Array.from({ length: 8 }, (_, index) =>
            (index % 2 === 0 ? store : other).claimDue({ now: T0 + 10_000, limit: 7, owner: `w${index}`, leaseMs: LEASE_MS }),
          ),
        );
        const claimedIds = claims.flat().map((claim) => claim.leadId);
        expect(claimedIds).toHaveLength(new Set(claimedIds).size);
        expect(new Set(claimedIds)).toEqual(ids);
      });
    });

    describe('recordResults', () => {
      it('keeps each attempt with the CRM status and body, and moves the lead on', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        const now = T0 + 10_000;
        await store.claimDue({ now, limit: 1, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([
          {
            leadId: lead.id,
            owner: 'w1',
            attempt: { attemptedAt: now, durationMs: 30, status: 503, responseBody: 'busy', error: undefined },
            nextState: 'pending',
            nextAttemptAt: now + 5_000,
          },
        ]);
        expect(await store.getLead(lead.id)).toMatchObject({ state: 'pending', attempts: 1, nextAttemptAt: now + 5_000, lastStatus: 503 });
        expect(await store.claimDue({ now: now + 4_999, limit: 1, owner: 'w1', leaseMs: LEASE_MS })).toEqual([]);
        const [again] = await store.claimDue({ now: now + 5_000, limit: 1, owner: 'w1', leaseMs: LEASE_MS });
        expect(again?.attempts).toBe(1);
        await store.recordResults([
          {
            leadId: lead.id,
            owner: 'w1',
            attempt: {
              attemptedAt: now + 5_000,
              durationMs: 20,
              status: 200,
              responseBody: 'Success: test request received',
              error: undefined,
            },
            nextState: 'delivered-test',
            nextAttemptAt: undefined,
          },
        ]);
        expect(await store.getLead(lead.id)).toMatchObject({ state: 'delivered-test', attempts: 2, nextAttemptAt: undefined });
        expect(await store.listAttempts(lead.id)).toEqual([
          { leadId: lead.id, attemptedAt: now, durationMs: 30, status: 503, responseBody: 'busy', error: undefined, outcome: 'pending' },
          {
            leadId: lead.id,
            attemptedAt: now + 5_000,
            durationMs: 20,
            status: 200,
            responseBody: 'Success: test request received',
            error: undefined,
            outcome: 'delivered-test',
          },
        ]);
      });

      it('keeps a network error without a status, and cuts long CRM bodies', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 1, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([
          {
            leadId: lead.id,
            owner: 'w1',
            attempt: { attemptedAt: T0 + 10_000, durationMs: 10_000, status: undefined, responseBody: undefined, error: 'timeout' },
            nextState: 'failed',
            nextAttemptAt: undefined,
          },
        ]);
        expect(await store.getLead(lead.id)).toMatchObject({ state: 'failed', lastStatus: undefined, lastError: 'timeout' });
        const other = newLead();
        await store.insertLead(other);
        await store.claimDue({ now: T0 + 10_000, limit: 1, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([
          {
            ...delivered(other.id, 'w1', T0 + 10_001),
            attempt: { ...delivered(other.id, 'w1', T0).attempt, responseBody: 'x'.repeat(5_000) },
          },
        ]);
        const [attempt] = await store.listAttempts(other.id);
        expect(attempt?.responseBody).toHaveLength(2_000);
      });
    });

    describe('held leads', () => {
      it('releases held leads once a CRM URL is configured, and holds pending ones without it', async () => {
        const held = newLead({ initialState: 'held' });
        await store.insertLead(held);
        expect(await store.releaseHeld(T0 + 5)).toBe(1);
        expect(await store.getLead(held.id)).toMatchObject({ state: 'pending', nextAttemptAt: T0 + 5 });
        expect(await store.holdPending(T0 + 6)).toBe(1);
        expect(await store.getLead(held.id)).toMatchObject({ state: 'held', nextAttemptAt: undefined });
      });
    });

    describe('retry', () => {
      it('makes one failed lead due again with a fresh schedule, saying what it was', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 1, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([{ ...delivered(lead.id, 'w1', T0 + 10_000, 410), nextState: 'failed' }]);
        expect(await store.retry({ id: lead.id }, T0 + 20_000)).toEqual([{ id: lead.id, from: 'failed', attempts: 1 }]);
        expect(await store.getLead(lead.id)).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: T0 + 20_000 });
      });

      it('retries every failed lead, and never spam nor a lead the CRM already has, by id or in bulk', async () => {
        const failedIds: string[] = [];
        for (let index = 0; index < 3; index += 1) {
          const lead = newLead();
          failedIds.push(lead.id);
          await store.insertLead(lead);
        }
        const kept = newLead();
        const test = newLead();
        const spam = newLead({ initialState: 'spam', spamReason: 'too_fast' });
        await store.insertLead(kept);
        await store.insertLead(test);
        await store.insertLead(spam);
        const claimed = await store.claimDue({ now: T0 + 10_000, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        const outcomeOf = (id: string) => (id === kept.id ? 'delivered' : id === test.id ? 'delivered-test' : 'failed');
        await store.recordResults(
          claimed.map((claim) => ({ ...delivered(claim.leadId, 'w1', T0 + 10_000), nextState: outcomeOf(claim.leadId) })),
        );
        const retried = await store.retry({ state: 'failed' }, T0 + 20_000);
        expect(retried.map((lead) => lead.id).sort()).toEqual(failedIds.sort());
        expect(retried.every((lead) => lead.from === 'failed')).toBe(true);
        for (const id of [kept.id, test.id, spam.id, 'no-such-lead']) expect(await store.retry({ id }, T0 + 20_000)).toEqual([]);
        expect(await store.getLead(spam.id)).toMatchObject({ state: 'spam' });
        expect(await store.getLead(kept.id)).toMatchObject({ state: 'delivered' });
        expect(await store.getLead(test.id)).toMatchObject({ state: 'delivered-test' });
      });

      it('sends a delivered or test-delivered lead again only when asked to, never spam or a failed lead', async () => {
        const kept = newLead();
        const test = newLead();
        const failed = newLead();
        const spam = newLead({ initialState: 'spam', spamReason: 'too_fast' });
        for (const lead of [kept, test, failed, spam]) await store.insertLead(lead);
        const claimed = await store.claimDue({ now: T0 + 10_000, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        const outcomeOf = (id: string) => (id === kept.id ? 'delivered' : id === test.id ? 'delivered-test' : 'failed');
        await store.recordResults(
          claimed.map((claim) => ({ ...delivered(claim.leadId, 'w1', T0 + 10_000), nextState: outcomeOf(claim.leadId) })),
        );
        expect(await store.sendAgain(kept.id, T0 + 20_000)).toBe(true);
        expect(await store.sendAgain(test.id, T0 + 20_000)).toBe(true);
        expect(await store.getLead(kept.id)).toMatchObject({ state: 'pending', attempts: 0, nextAttemptAt: T0 + 20_000 });
        expect(await store.getLead(test.id)).toMatchObject({ state: 'pending', attempts: 0 });
        for (const id of [failed.id, spam.id, 'no-such-lead']) expect(await store.sendAgain(id, T0 + 20_000)).toBe(false);
        expect(await store.getLead(spam.id)).toMatchObject({ state: 'spam' });
      });

      it('leaves a lead alone while a worker holds it', async () => {
        const lead = newLead();
        await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 1, owner: 'w1', leaseMs: LEASE_MS });
        expect(await store.retry({ id: lead.id }, T0 + 10_001)).toEqual([]);
      });
    });

    describe('eraseByEmail', () => {
      it('deletes every lead of that address, whatever its case, with its delivery history', async () => {
        const first = newLead({ email: 'Ana@Example.com' });
        const second = newLead({ email: 'ana@example.com' });
        const other = newLead();
        for (const lead of [first, second, other]) await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([delivered(first.id, 'w1', T0 + 10_000)]);
        expect((await store.eraseByEmail(' ANA@example.COM ')).sort()).toEqual([first.id, second.id].sort());
        expect(await store.getLead(first.id)).toBeUndefined();
        expect(await store.listAttempts(first.id)).toEqual([]);
        expect((await store.listLeads()).map((lead) => lead.id)).toEqual([other.id]);
        // A result arriving for an erased lead leaves no trace.
        await store.recordResults([delivered(second.id, 'w1', T0 + 10_001)]);
        expect(await store.listAttempts(second.id)).toEqual([]);
      });
    });

    describe('listing', () => {
      it('lists oldest first, filters by state, limits, and counts by state', async () => {
        const leads = [newLead(), newLead({ initialState: 'held' }), newLead()];
        for (const lead of leads) await store.insertLead(lead);
        expect((await store.listLeads()).map((lead) => lead.id)).toEqual(leads.map((lead) => lead.id));
        expect((await store.listLeads({ state: 'held' })).map((lead) => lead.id)).toEqual([leads[1]?.id]);
        expect(await store.listLeads({ limit: 1 })).toHaveLength(1);
        expect(await store.countByState()).toEqual({ pending: 2, held: 1 });
      });
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

    describe('openLeadExport', () => {
      // Many leads written past the store in one statement, received T0+1 … T0+count, all delivered.
      async function seedLeads(count: number): Promise<void> {
        const numbers =
          harness.kind === 'postgres'
            ? `SELECT i FROM generate_series(1, ${count}) AS i`
            : `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count}) SELECT i FROM n`;
        const id = harness.kind === 'postgres' ? `'bulk-' || lpad(i::text, 6, '0')` : `printf('bulk-%06d', i)`;
        const payload =
          harness.kind === 'postgres'
            ? `json_build_object('name', 'Person ' || i, 'email', 'p' || i || '@example.com')::text`
            : `json_object('name', 'Person ' || i, 'email', 'p' || i || '@example.com')`;
        await database.execute(`
          INSERT INTO leads (id, received_at, source, email, payload, name, company)
            SELECT ${id}, ${T0} + i, 'Contact Page Form', 'p' || i || '@example.com', ${payload}, 'Person ' || i, 'Acme'
            FROM (${numbers}) AS numbers;
          INSERT INTO deliveries (lead_id, state, updated_at, received_at) SELECT id, 'delivered', received_at, received_at FROM leads;`);
      }

      async function readAll(reader: Awaited<ReturnType<Database['openLeadExport']>>): Promise<string[]> {
        const ids: string[] = [];
        for (;;) {
          const leads = await reader.nextPage(200);
          if (leads.length === 0) return ids;
          ids.push(...leads.map((lead) => lead.id));
          // As a download does: the page is sent before the next is read.
          await new Promise((resolve) => setTimeout(resolve, 2));
        }
      }

      it('reads every lead as it was when the download began, while new leads are taken without waiting', async () => {
        const COUNT = 10_000;
        await seedLeads(COUNT);
        const everyLead = Array.from({ length: COUNT }, (_, index) => `bulk-${String(COUNT - index).padStart(6, '0')}`);
        const [all, searched] = await Promise.all([store.openLeadExport({}), store.openLeadExport({ search: 'person' })]);

        // Meanwhile leads arrive (received before every seeded one, so a read that is no snapshot would
        // end with them) and a seeded lead the downloads have not reached yet is erased.
        let reading = true;
        const insertMs: number[] = [];
        const taking = (async () => {
          for (let index = 0; reading; index += 1) {
            const started = performance.now();
            await store.insertLead(newLead({ receivedAt: T0 - 1_000 - index }));
            insertMs.push(performance.now() - started);
            await new Promise((resolve) => setTimeout(resolve, 5));
          }
        })();
        expect(await store.eraseByEmail('p1@example.com')).toEqual(['bulk-000001']);
        const [allIds, searchedIds] = await Promise.all([readAll(all), readAll(searched)]);
        reading = false;
        await taking;
        await Promise.all([all.close(), searched.close(), all.close()]);

        expect(allIds).toEqual(everyLead);
        expect(searchedIds).toEqual(everyLead);
        expect(insertMs.length).toBeGreaterThan(3);
        // A new lead waits for its own commit, never for a page of a download.
        expect(Math.max(...insertMs)).toBeLessThan(LEAD_WAIT_BOUND_MS);
        // Once closed, a download reads nothing more; the store goes on.
        expect(await all.nextPage(200)).toEqual([]);
        expect((await store.listLeadPage({ search: 'p2@example.com' }, undefined, 10)).leads.map((lead) => lead.id)).toEqual([
          'bulk-000002',
        ]);
      });

      it('reads only the leads the query matches, in pages of the size asked', async () => {
        await seedLeads(450);
        const reader = await store.openLeadExport({ receivedFrom: T0 + 101, receivedBefore: T0 + 401 });
        const sizes: number[] = [];
        for (let leads = await reader.nextPage(120); leads.length > 0; leads = await reader.nextPage(120)) sizes.push(leads.length);
        await reader.close();
        expect(sizes).toEqual([120, 120, 60]);
      });
    });

    describe('listLeadPage', () => {
      const pageIds = async (query: LeadQuery, limit = 50) => (await store.listLeadPage(query, undefined, limit)).leads.map((l) => l.id);

      it('pages newest first without skipping or repeating leads received in the same millisecond', async () => {
        const times = [T0, T0 + 5, T0 + 5, T0 + 5, T0 + 9, T0 + 9, T0 + 20];
        const leads = times.map((receivedAt) => newLead({ receivedAt }));
        for (const lead of leads) await store.insertLead(lead);
        const expected = [...leads].sort((a, b) => b.receivedAt - a.receivedAt || (a.id < b.id ? 1 : -1)).map((lead) => lead.id);
        const seen: string[] = [];
        let after: LeadCursor | undefined;
        do {
          const page = await store.listLeadPage({}, after, 2);
          expect(page.leads.length).toBeLessThanOrEqual(2);
          seen.push(...page.leads.map((lead) => lead.id));
          after = page.next;
        } while (after !== undefined);
        expect(seen).toEqual(expected);
        const whole = await store.listLeadPage({}, undefined, leads.length);
        expect(whole.next).toBeUndefined();
        expect(whole.leads[0]).toMatchObject({ id: expected[0], name: "Seán O'Brien", company: 'Smith & Sons' });
      });

      it('filters by form, state, spam, date range, campaign and utm source', async () => {
        const contact = newLead({ source: 'Contact Page Form', payload: { name: 'A', utm_campaign: 'spring', utm_source: 'google' } });
        const held = newLead({ initialState: 'held', payload: { name: 'B', utm_campaign: 'spring', utm_source: 'newsletter' } });
        const spam = newLead({ initialState: 'spam', spamReason: 'honeypot', payload: { name: 'C', utm_campaign: 'autumn' } });
        const late = newLead({ receivedAt: T0 + HOUR, payload: { name: 'D' } });
        for (const lead of [contact, held, spam, late]) await store.insertLead(lead);
        expect(await pageIds({ source: 'Contact Page Form' })).toEqual([contact.id]);
        expect(await pageIds({ state: 'held' })).toEqual([held.id]);
        expect(await pageIds({ state: 'pending' })).toEqual([late.id, contact.id]);
        expect(await pageIds({ spam: true })).toEqual([spam.id]);
        expect(await pageIds({ spam: false })).toEqual([late.id, held.id, contact.id]);
        expect(await pageIds({ receivedFrom: held.receivedAt, receivedBefore: late.receivedAt })).toEqual([spam.id, held.id]);
        expect(await pageIds({ campaign: 'spring' })).toEqual([held.id, contact.id]);
        expect(await pageIds({ campaign: 'spring', utmSource: 'newsletter' })).toEqual([held.id]);
        expect(await pageIds({ utmSource: 'google', state: 'pending' })).toEqual([contact.id]);
        expect(await pageIds({ source: 'No Such Form' })).toEqual([]);
      });

      it('pages a filtered list the same way, the state filter included', async () => {
        const leads = [T0, T0, T0, T0 + 1].map((receivedAt) => newLead({ receivedAt, initialState: 'held' }));
        await store.insertLead(newLead({ receivedAt: T0 }));
        for (const lead of leads) await store.insertLead(lead);
        const first = await store.listLeadPage({ state: 'held' }, undefined, 3);
        const second = await store.listLeadPage({ state: 'held' }, first.next, 3);
        expect(second.next).toBeUndefined();
        expect([...first.leads, ...second.leads].map((lead) => lead.id).sort()).toEqual(leads.map((lead) => lead.id).sort());
      });

      it('searches part of a name or company and a whole address, in any case', async () => {
        const ana = newLead({ email: 'Ana.Lima@Example.com', payload: { name: 'Ana Lima', company: 'Northwind Traders' } });
        const sean = newLead({ email: 'sean@obrien.ie', payload: { name: "Seán O'Brien", company: 'Smith & Sons' } });
        const percent = newLead({ email: 'x@example.org', payload: { name: 'Ten% Off Ltd' } });
        for (const lead of [ana, sean, percent]) await store.insertLead(lead);
        expect(await pageIds({ search: 'lima' })).toEqual([ana.id]);
        expect(await pageIds({ search: "O'BRIEN" })).toEqual([sean.id]);
        expect(await pageIds({ search: 'northwind' })).toEqual([ana.id]);
        expect(await pageIds({ search: ' ANA.LIMA@example.COM ' })).toEqual([ana.id]);
        expect(await pageIds({ search: 'obrien.ie' })).toEqual([sean.id]);
        // Wildcards typed by a person are plain characters.
        expect(await pageIds({ search: '%' })).toEqual([percent.id]);
        expect(await pageIds({ search: '_' })).toEqual([]);
        expect(await pageIds({ search: 'nobody@example.com' })).toEqual([]);
        expect(await pageIds({ search: '  ' })).toHaveLength(3);
      });

      it('refuses a page size that is not a whole number of at least 1', async () => {
        await expect(store.listLeadPage({}, undefined, 0)).rejects.toThrow('page limit');
      });

      it("answers the first page, the inbox's every lead but spam, and a search by address from an index", async () => {
        for (let index = 0; index < 20; index += 1) await store.insertLead(newLead({ initialState: index % 2 === 0 ? 'spam' : 'pending' }));
        // Older leads, one in five spam, written past the store in one statement: enough rows that
        // PostgreSQL plans as it would for a real inbox instead of sorting a handful in memory.
        const older = Array.from({ length: 3_000 }, (_, index) => ({
          id: `older-${index}`,
          at: T0 - 3_000 + index,
          spam: index % 5 === 0,
        }));
        await database.execute(
          `INSERT INTO leads (id, received_at, source, email, payload) VALUES ${older
            .map(({ id, at }) => `('${id}', ${at}, 'Homepage Simple Lead Form', '${id}@example.com', '{}')`)
            .join(', ')};
           INSERT INTO deliveries (lead_id, state, updated_at, received_at) VALUES ${older
             .map(({ id, at, spam }) => `('${id}', '${spam ? 'spam' : 'delivered'}', ${at}, ${at})`)
             .join(', ')};`,
        );
        const dialect = harness.kind === 'postgres' ? 'postgres' : 'sqlite';
        const queries: LeadQuery[] = [
          {},
          { spam: false },
          { spam: false, receivedFrom: T0 },
          { search: 'Person3@example.com' },
          { state: 'pending' },
          { source: 'Contact Page Form' },
        ];
        for (const query of queries) {
          const { sql, params } = buildLeadPageQuery(dialect, query, undefined, 50);
          const plan = await database.explain(sql, params);
          if (dialect === 'sqlite') {
            expect(plan).not.toMatch(/SCAN (leads|l|deliveries|d)\b(?! USING)/);
            expect(plan).not.toContain('TEMP B-TREE');
          } else {
            expect(plan).toMatch(/Index (Only )?Scan/);
            expect(plan).not.toMatch(/Seq Scan on (leads|deliveries)/);
          }
          // Every lead but spam walks the index of exactly those, so a flood of spam is never read past.
          if (query.spam === false) expect(plan).toContain('deliveries_not_spam_newest');
        }
        const page = await store.listLeadPage({ spam: false }, undefined, 12);
        expect(page.leads.map((lead) => lead.state)).toEqual([...Array<string>(10).fill('pending'), 'delivered', 'delivered']);
      });
    });

    describe('spam marking', () => {
      it('moves a lead not yet delivered to spam with its reason, and back to pending, due now', async () => {
        const lead = newLead({ initialState: 'held' });
        await store.insertLead(lead);
        expect(await store.markSpam(lead.id, 'marked by ana@example.com', T0 + 100)).toBe(true);
        expect(await store.getLead(lead.id)).toMatchObject({ state: 'spam', spamReason: 'marked by ana@example.com', updatedAt: T0 + 100 });
        expect(await store.claimDue({ now: T0 + 10 ** 9, limit: 10, owner: 'w1', leaseMs: LEASE_MS })).toEqual([]);
        // What is forwarded is the lead as its form built it again, in place of what was stored.
        const rebuilt = {
          source: 'Contact Page Form',
          email: 'Ana@Example.com',
          payload: { name: 'Ana Lima', email: 'ana@example.com', company: 'Lima Co' },
        };
        expect(await store.markNotSpam(lead.id, T0 + 200, rebuilt)).toBe(true);
        expect(await store.getLead(lead.id)).toMatchObject({
          state: 'pending',
          spamReason: undefined,
          attempts: 0,
          nextAttemptAt: T0 + 200,
          source: 'Contact Page Form',
          email: 'ana@example.com',
          payload: rebuilt.payload,
          name: 'Ana Lima',
          company: 'Lima Co',
        });
        expect(await store.markNotSpam(lead.id, T0 + 300, rebuilt)).toBe(false);
        expect(await store.markNotSpam('no-such-lead', T0 + 300, rebuilt)).toBe(false);
        expect(await store.markSpam('no-such-lead', 'x', T0 + 300)).toBe(false);
      });

      it('never takes back a delivered lead, nor one a worker is sending', async () => {
        const sent = newLead();
        const sending = newLead();
        const failed = newLead();
        for (const lead of [sent, sending, failed]) await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([
          delivered(sent.id, 'w1', T0 + 10_000),
          { ...delivered(failed.id, 'w1', T0 + 10_000), nextState: 'failed' },
        ]);
        expect(await store.markSpam(sent.id, 'x', T0 + 10_001)).toBe(false);
        expect(await store.markSpam(sending.id, 'x', T0 + 10_001)).toBe(false);
        expect(await store.markSpam(failed.id, 'x', T0 + 10_001)).toBe(true);
        expect(await store.countByState()).toEqual({ delivered: 1, pending: 1, spam: 1 });
      });
    });

    it('counts the leads of an address as eraseByEmail would match them', async () => {
      for (const email of ['Ana@Example.com', 'ana@example.com', 'li@example.com']) await store.insertLead(newLead({ email }));
      expect(await store.countLeadsByEmail(' ANA@example.COM ')).toBe(2);
      expect(await store.countLeadsByEmail('nobody@example.com')).toBe(0);
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

    describe('leadHealth', () => {
      it('reports the week per form and per day, deliveries, failures, the oldest waiting lead and the backlog', async () => {
        const now = Date.UTC(2025, 0, 15, 12, 0, 0);
        const DAY = 24 * HOUR;
        const contact = 'Contact Page Form';
        const home = 'Homepage Simple Lead Form';
        const b = newLead({ source: contact, receivedAt: now - 2 * DAY });
        const c = newLead({ source: home, receivedAt: now - 6 * DAY });
        const f = newLead({ source: contact, receivedAt: now - HOUR });
        const g = newLead({ source: home, receivedAt: now - 3 * DAY });
        for (const lead of [b, c, f, g]) await store.insertLead(lead);
        await store.claimDue({ now, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([
          delivered(b.id, 'w1', now - HOUR),
          { ...delivered(c.id, 'w1', now - 30 * HOUR), nextState: 'delivered-test' },
          { ...delivered(f.id, 'w1', now - HOUR, 503), nextState: 'pending', nextAttemptAt: now + HOUR },
          { ...delivered(g.id, 'w1', now - HOUR, 410), nextState: 'failed' },
        ]);
        const a = newLead({ source: contact, receivedAt: now - 2 * HOUR });
        const d = newLead({ source: home, receivedAt: now - 7 * DAY, initialState: 'held' });
        const e = newLead({ source: home, receivedAt: now - HOUR, initialState: 'spam', spamReason: 'honeypot' });
        for (const lead of [a, d, e]) await store.insertLead(lead);

        expect(await store.leadHealth(now)).toEqual({
          perForm: [
            { source: contact, today: 2, week: 3 },
            { source: home, today: 0, week: 2 },
          ],
          perDay: [
            { day: '2025-01-09', leads: 1 },
            { day: '2025-01-10', leads: 0 },
            { day: '2025-01-11', leads: 0 },
            { day: '2025-01-12', leads: 1 },
            { day: '2025-01-13', leads: 1 },
            { day: '2025-01-14', leads: 0 },
            { day: '2025-01-15', leads: 2 },
          ],
          deliveredLast24h: 1,
          failed: 1,
          retrying: 1,
          spamWeek: 1,
          oldestUndelivered: { id: d.id, receivedAt: d.receivedAt },
          lastDeliveredAt: now - HOUR,
          lastFailedAt: now - HOUR,
          pending: 2,
        });
      });

      it('reports an empty store as nothing waiting and nothing delivered', async () => {
        const health = await store.leadHealth(T0);
        expect(health).toMatchObject({
          perForm: [],
          deliveredLast24h: 0,
          failed: 0,
          retrying: 0,
          spamWeek: 0,
          oldestUndelivered: undefined,
          pending: 0,
        });
        expect(health.lastDeliveredAt).toBeUndefined();
        expect(health.lastFailedAt).toBeUndefined();
        expect(health.perDay.map((day) => day.leads)).toEqual([0, 0, 0, 0, 0, 0, 0]);
      });
    });

    describe('purgeExpired', () => {
      it('deletes old delivered, failed and spam leads with their history, never one still to be sent', async () => {
        const old = T0 - 100 * 24 * HOUR;
        const sent = newLead({ receivedAt: old });
        const failed = newLead({ receivedAt: old });
        const sending = newLead({ receivedAt: old });
        const waiting = newLead({ receivedAt: old + 1 });
        const held = newLead({ receivedAt: old, initialState: 'held' });
        const oldSpam = newLead({ receivedAt: old, initialState: 'spam', spamReason: 'honeypot' });
        const recent = newLead({ receivedAt: T0 });
        const recentSpam = newLead({ receivedAt: T0, initialState: 'spam', spamReason: 'too fast' });
        for (const lead of [sent, failed, sending, recent]) await store.insertLead(lead);
        await store.claimDue({ now: T0 + 10_000, limit: 10, owner: 'w1', leaseMs: LEASE_MS });
        await store.recordResults([
          delivered(sent.id, 'w1', T0 + 10_000),
          delivered(recent.id, 'w1', T0 + 10_000),
          { ...delivered(failed.id, 'w1', T0 + 10_000, 410), nextState: 'failed' },
        ]);
        for (const lead of [waiting, held, oldSpam, recentSpam]) await store.insertLead(lead);

        expect(await store.purgeExpired({ leadsReceivedBefore: T0 - HOUR, spamReceivedBefore: T0 - HOUR })).toEqual({ leads: 2, spam: 1 });
        const left = (await store.listLeads()).map((lead) => lead.id).sort();
        expect(left).toEqual([sending.id, waiting.id, held.id, recent.id, recentSpam.id].sort());
        const rows = await database.rows();
        expect((rows.delivery_attempts ?? []).map((row) => (row as { lead_id: string }).lead_id).sort()).toEqual([recent.id]);
        expect(rows.deliveries).toHaveLength(5);
      });

      it('keeps what no cutoff names, and goes through more leads than one batch', async () => {
        const spam = Array.from({ length: PURGE_BATCH_SIZE + 3 }, () =>
          newLead({ receivedAt: T0 - HOUR, initialState: 'spam', spamReason: 'honeypot' }),
        );
        await Promise.all(spam.map((lead) => store.insertLead(lead)));
        expect(await store.purgeExpired({})).toEqual({ leads: 0, spam: 0 });
        expect(await store.purgeExpired({ leadsReceivedBefore: T0 })).toEqual({ leads: 0, spam: 0 });
        expect(await store.purgeExpired({ spamReceivedBefore: T0 })).toEqual({ leads: 0, spam: spam.length });
        expect(await store.countByState()).toEqual({});
      });
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

    describe('lifecycle', () => {
      it('answers ping while open and rejects once closed', async () => {
        await expect(store.ping()).resolves.toBeUndefined();
        await store.close();
        await expect(store.ping()).rejects.toThrow();
      });
    });
  });
}
