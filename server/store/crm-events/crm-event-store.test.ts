import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { announceSkip, STORE_HARNESSES } from '../../testing/store-harness.ts';
import type { StoreDatabase } from '../../testing/store-harness.ts';
import type { Database } from '../database.ts';
import { delivered, LEASE_MS, newLead, T0 } from '../../testing/store-fixtures.ts';
import { ownerChangedEvent, statusChangedEvent } from '../../outbox/crm-events.ts';
import type { CrmEventResult } from './crm-event-store.ts';

// The CRM follow-up events' store contract, on node:sqlite, node:sqlite on its worker thread and
// PostgreSQL (TEST_DATABASE_URL; skipped with the reason printed without it).

const claimOptions = (now: number, owner = 'w1', limit = 10) => ({ now, limit, owner, leaseMs: LEASE_MS });

function sent(id: number, owner: string, at: number): CrmEventResult {
  return { id, owner, attemptedAt: at, finishedAt: at + 5, status: 200, error: undefined, nextState: 'sent', nextAttemptAt: undefined };
}

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`CRM event store contract: ${harness.kind}`, () => {
    let database: StoreDatabase;
    let store: Database;

    beforeEach(async () => {
      database = await harness.createDatabase();
      store = await database.open();
    });
    afterEach(async () => {
      await database.remove();
    });

    /** A lead the CRM has already taken. */
    async function deliveredLead(email?: string): Promise<string> {
      const lead = newLead(email === undefined ? {} : { email });
      await store.insertLead(lead);
      await store.claimDue({ now: T0 + 10_000, limit: 100, owner: 'lead-worker', leaseMs: LEASE_MS });
      await store.recordResults([delivered(lead.id, 'lead-worker', T0 + 10_000)]);
      return lead.id;
    }

    const owner = (leadId: string, at: number, ownerEmail = 'bo@example.com') =>
      ownerChangedEvent({ leadId, at, ownerEmail, previousOwnerEmail: undefined });

    it('keeps each event with its lead, oldest first, as the timeline shows it', async () => {
      const leadId = await deliveredLead();
      await store.enqueueCrmEvents(
        [
          owner(leadId, T0 + 20_000),
          statusChangedEvent({ leadId, at: T0 + 30_000, status: 'contacted', previousStatus: 'new', lostReason: undefined }),
        ],
        { held: false },
      );
      expect(await store.listCrmEvents(leadId)).toMatchObject([
        { leadId, kind: 'owner', createdAt: T0 + 20_000, state: 'pending', attempts: 0, lastStatus: undefined, nextAttemptAt: T0 + 20_000 },
        { leadId, kind: 'status', createdAt: T0 + 30_000, state: 'pending', attempts: 0, lastStatus: undefined },
      ]);
      expect(await store.listCrmEvents('another-lead')).toEqual([]);
    });

    it('sends the body exactly as built', async () => {
      const leadId = await deliveredLead();
      const event = owner(leadId, T0 + 20_000);
      await store.enqueueCrmEvents([event], { held: false });
      const [claimed] = await store.claimDueCrmEvents(claimOptions(T0 + 20_000));
      expect(claimed).toMatchObject({ leadId, kind: 'owner', attempts: 0 });
      expect(JSON.parse(claimed?.body ?? '')).toEqual(event.body);
    });

    it('keeps an event waiting until the CRM has taken its lead', async () => {
      const lead = newLead();
      await store.insertLead(lead);
      await store.enqueueCrmEvents([owner(lead.id, T0 + 1_000)], { held: false });
      expect(await store.claimDueCrmEvents(claimOptions(T0 + 60_000))).toEqual([]);
      await store.claimDue({ now: T0 + 60_000, limit: 10, owner: 'lead-worker', leaseMs: LEASE_MS });
      await store.recordResults([delivered(lead.id, 'lead-worker', T0 + 60_000)]);
      expect((await store.claimDueCrmEvents(claimOptions(T0 + 61_000))).map((event) => event.leadId)).toEqual([lead.id]);
    });

    it('tells the CRM of one lead’s changes in the order they happened, one at a time', async () => {
      const leadId = await deliveredLead();
      await store.enqueueCrmEvents([owner(leadId, T0 + 20_000), owner(leadId, T0 + 21_000, 'cy@example.com')], { held: false });
      const first = await store.claimDueCrmEvents(claimOptions(T0 + 30_000));
      expect(first.map((event) => JSON.parse(event.body).owner_email)).toEqual(['bo@example.com']);
      // The first is in flight: the second waits for it, also for another worker.
      expect(await store.claimDueCrmEvents(claimOptions(T0 + 30_000, 'w2'))).toEqual([]);
      await store.recordCrmEventResults([sent(first[0]?.id ?? 0, 'w1', T0 + 30_000)]);
      const second = await store.claimDueCrmEvents(claimOptions(T0 + 31_000, 'w2'));
      expect(second.map((event) => JSON.parse(event.body).owner_email)).toEqual(['cy@example.com']);
    });

    it('leases a claimed event: no other worker gets it until the lease ends', async () => {
      const leadId = await deliveredLead();
      await store.enqueueCrmEvents([owner(leadId, T0 + 20_000)], { held: false });
      expect(await store.claimDueCrmEvents(claimOptions(T0 + 20_000, 'w1'))).toHaveLength(1);
      expect(await store.claimDueCrmEvents(claimOptions(T0 + 20_000 + LEASE_MS - 1, 'w2'))).toEqual([]);
      const retaken = await store.claimDueCrmEvents(claimOptions(T0 + 20_000 + LEASE_MS, 'w2'));
      expect(retaken).toHaveLength(1);
      // The first worker lost its lease: its late result changes nothing.
      await store.recordCrmEventResults([sent(retaken[0]?.id ?? 0, 'w1', T0 + 90_000)]);
      expect(await store.listCrmEvents(leadId)).toMatchObject([{ state: 'pending', attempts: 0 }]);
    });

    it('records a retry, then the CRM’s answer, with the attempts counted', async () => {
      const leadId = await deliveredLead();
      await store.enqueueCrmEvents([owner(leadId, T0 + 20_000)], { held: false });
      const [event] = await store.claimDueCrmEvents(claimOptions(T0 + 20_000));
      const id = event?.id ?? 0;
      await store.recordCrmEventResults([
        {
          id,
          owner: 'w1',
          attemptedAt: T0 + 20_000,
          finishedAt: T0 + 20_050,
          status: 503,
          error: undefined,
          nextState: 'pending',
          nextAttemptAt: T0 + 80_000,
        },
      ]);
      expect(await store.listCrmEvents(leadId)).toMatchObject([
        { state: 'pending', attempts: 1, lastStatus: 503, nextAttemptAt: T0 + 80_000 },
      ]);
      expect(await store.claimDueCrmEvents(claimOptions(T0 + 79_999))).toEqual([]);
      const [again] = await store.claimDueCrmEvents(claimOptions(T0 + 80_000));
      expect(again).toMatchObject({ id, attempts: 1 });
      await store.recordCrmEventResults([
        {
          id,
          owner: 'w1',
          attemptedAt: T0 + 80_000,
          finishedAt: T0 + 80_100,
          status: undefined,
          error: 'network error: ECONNRESET',
          nextState: 'failed',
          nextAttemptAt: undefined,
        },
      ]);
      expect(await store.listCrmEvents(leadId)).toMatchObject([
        { state: 'failed', attempts: 2, lastStatus: undefined, lastError: 'network error: ECONNRESET', nextAttemptAt: undefined },
      ]);
      expect(await store.claimDueCrmEvents(claimOptions(T0 + 10 ** 9))).toEqual([]);
    });

    it('holds events while no CRM address is configured and releases them when one is', async () => {
      const leadId = await deliveredLead();
      await store.enqueueCrmEvents([owner(leadId, T0 + 20_000)], { held: true });
      expect(await store.listCrmEvents(leadId)).toMatchObject([{ state: 'held', nextAttemptAt: undefined }]);
      expect(await store.claimDueCrmEvents(claimOptions(T0 + 10 ** 9))).toEqual([]);
      expect(await store.releaseHeldCrmEvents(T0 + 50_000)).toBe(1);
      expect(await store.listCrmEvents(leadId)).toMatchObject([{ state: 'pending', nextAttemptAt: T0 + 50_000 }]);
      expect(await store.holdPendingCrmEvents(T0 + 60_000)).toBe(1);
      expect(await store.claimDueCrmEvents(claimOptions(T0 + 10 ** 9))).toEqual([]);
      expect(await store.releaseHeldCrmEvents(T0 + 70_000)).toBe(1);
      expect(await store.claimDueCrmEvents(claimOptions(T0 + 70_000))).toHaveLength(1);
    });

    it('erasing a person erases their leads’ events too', async () => {
      const erased = await deliveredLead('gone@example.com');
      const kept = await deliveredLead('stays@example.com');
      await store.enqueueCrmEvents([owner(erased, T0 + 20_000), owner(kept, T0 + 20_000)], { held: false });
      expect(await store.eraseByEmail('gone@example.com')).toEqual([erased]);
      expect(await store.listCrmEvents(erased)).toEqual([]);
      const rows = (await database.rows()).crm_events ?? [];
      expect(rows.map((row) => (row as { lead_id: string }).lead_id)).toEqual([kept]);
      expect(JSON.stringify(rows)).not.toContain(erased);
    });

    it('gives each event to exactly one of several processes claiming at once', async () => {
      const others = [await database.open(), await database.open()];
      const leadIds: string[] = [];
      for (let index = 0; index < 30; index += 1) leadIds.push(await deliveredLead());
      await store.enqueueCrmEvents(
        leadIds.map((leadId) => owner(leadId, T0 + 20_000)),
        { held: false },
      );
      const claims = await Promise.all(
        [store, ...others].flatMap((connection, index) =>
          [0, 1, 2].map((round) => connection.claimDueCrmEvents(claimOptions(T0 + 20_000, `w${index}-${round}`, 4))),
        ),
      );
      const ids = claims.flat().map((event) => event.id);
      expect(new Set(ids).size).toBe(ids.length);
      const rest = await store.claimDueCrmEvents(claimOptions(T0 + 20_000, 'last', 100));
      expect(ids.length + rest.length).toBe(30);
    });
  });
}
