import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import type { Database } from '../database.ts';
import { delivered, LEASE_MS, newLead, T0 } from '../../testing/store-fixtures.ts';

// The outbox store contract: the same tests against node:sqlite, node:sqlite on its
// worker thread and PostgreSQL. The PostgreSQL half needs TEST_DATABASE_URL; without it vitest
// reports it as skipped and the reason is printed.

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`outbox store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
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
  });
}
