import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../store/database.ts';
import type { NewLead } from '../store/outbox/outbox-store.ts';
import { startCrmReceiver } from '../testing/crm-receiver.ts';
import type { CrmReceiver, ReceivedRequest } from '../testing/crm-receiver.ts';
import { announceSkip, sqliteHarness, STORE_HARNESSES } from '../testing/store-harness.ts';
import type { StoreDatabase } from '../testing/store-harness.ts';
import { createCrmClient } from './crm-client.ts';
import type { CrmClient } from './crm-client.ts';
import { ownerChangedEvent, statusChangedEvent } from './crm-events.ts';
import { createOutboxWorker } from './outbox-worker.ts';
import type { OutboxWorker, OutboxWorkerOptions } from './outbox-worker.ts';

// The CRM's follow-up events through the outbox worker, against a real HTTP CRM receiver and a real
// store: signed and sent like a lead, after their lead, retried on the same schedule, paced with the
// leads, and sent once across several workers.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const FAST_RETRIES = [20, 20, 20];
const NO_PACE = 100_000;
const silentLog = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

let sequence = 0;
function newLead(receivedAt = Date.now()): NewLead {
  sequence += 1;
  const id = `event-lead-${sequence}`;
  return {
    id,
    receivedAt,
    source: 'Contact Page Form',
    email: `person${sequence}@example.com`,
    payload: { name: 'Ana Lima', company: 'Lima & Co', lead_id: id },
    spamReason: undefined,
    initialState: 'pending',
  };
}

async function waitFor(condition: () => Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const eventOf = (request: ReceivedRequest | undefined) => request?.headers['x-lead-event'];

describe('CRM follow-up events through the outbox worker (SQLite store, real HTTP CRM)', () => {
  let database: StoreDatabase;
  let store: Database;
  let crm: CrmReceiver;
  const workers: OutboxWorker[] = [];

  function startWorker(overrides: Partial<OutboxWorkerOptions> & { secret?: string } = {}): OutboxWorker {
    const worker = createOutboxWorker({
      store,
      client: createCrmClient({ url: crm.url, secret: overrides.secret, timeoutMs: 2_000 }),
      retryDelaysMs: FAST_RETRIES,
      crmMaxPer10s: NO_PACE,
      log: silentLog,
      pollIntervalMs: 20,
      ...overrides,
    });
    workers.push(worker);
    worker.start();
    return worker;
  }

  const eventStates = async (leadId: string) => (await store.listCrmEvents(leadId)).map((event) => event.state);

  beforeEach(async () => {
    database = await sqliteHarness.createDatabase();
    store = await database.open();
    crm = await startCrmReceiver();
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await crm.close();
    await database.remove();
  });

  it('signs an event like a lead, names it in X-Lead-Event, and sends the body as built', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    const event = ownerChangedEvent({ leadId: lead.id, at: Date.now(), ownerEmail: 'bo@example.com', previousOwnerEmail: undefined });
    await store.enqueueCrmEvents([event], { held: false });
    startWorker({ secret: SECRET });
    await waitFor(async () => (await eventStates(lead.id)).join() === 'sent');
    expect(crm.requests).toHaveLength(2);
    const [leadRequest, eventRequest] = crm.requests;
    // A lead carries no event header; the CRM tells the two apart by it.
    expect(eventOf(leadRequest)).toBeUndefined();
    expect(eventOf(eventRequest)).toBe('owner_changed');
    expect(eventRequest?.json).toEqual({
      event: 'owner_changed',
      lead_id: lead.id,
      at: new Date(event.at).toISOString(),
      owner_email: 'bo@example.com',
      previous_owner_email: null,
    });
    const headers = eventRequest?.headers ?? {};
    expect(headers['content-type']).toBe('application/json');
    const messageId = String(headers['webhook-id']);
    expect(messageId).not.toBe(lead.id);
    expect(headers['idempotency-key']).toBe(messageId);
    const timestamp = Number(headers['webhook-timestamp']);
    const expected = createHmac('sha256', Buffer.from(SECRET.slice('whsec_'.length), 'base64'))
      .update(`${messageId}.${timestamp}.${eventRequest?.body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
    expect(await store.listCrmEvents(lead.id)).toMatchObject([{ state: 'sent', attempts: 1, lastStatus: 200 }]);
  });

  it('keeps an event until its lead reached the CRM, then sends it after the lead', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    await store.enqueueCrmEvents(
      [
        statusChangedEvent({
          leadId: lead.id,
          at: Date.now(),
          status: 'lost',
          previousStatus: 'new',
          lostReason: 'Went with a competitor',
        }),
      ],
      { held: false },
    );
    // The CRM is down for the lead's first two attempts: the event must not go before the lead does.
    crm.respond = (request, index) => (index < 2 ? { status: 503, body: 'down' } : { status: 200, body: 'ok' });
    startWorker();
    await waitFor(async () => (await eventStates(lead.id)).join() === 'sent');
    expect(crm.requests.map((request) => eventOf(request) ?? 'lead')).toEqual(['lead', 'lead', 'lead', 'status_changed']);
    expect(crm.requests[3]?.json).toMatchObject({ status: 'lost', previous_status: 'new', lost_reason: 'Went with a competitor' });
  });

  it('retries an event on the lead retry schedule, then gives up after the last attempt', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    await store.enqueueCrmEvents(
      [ownerChangedEvent({ leadId: lead.id, at: Date.now(), ownerEmail: undefined, previousOwnerEmail: 'bo@example.com' })],
      {
        held: false,
      },
    );
    crm.respond = (request) =>
      request.headers['x-lead-event'] === undefined ? { status: 200, body: 'ok' } : { status: 500, body: 'broken' };
    const worker = startWorker();
    await waitFor(async () => (await eventStates(lead.id)).join() === 'failed');
    await worker.stop();
    // One attempt and one per scheduled wait, as for a lead.
    expect(crm.requests.filter((request) => eventOf(request) !== undefined)).toHaveLength(FAST_RETRIES.length + 1);
    expect(await store.listCrmEvents(lead.id)).toMatchObject([{ state: 'failed', attempts: FAST_RETRIES.length + 1, lastStatus: 500 }]);
  });

  it('stops retrying an event at 410, and sends the next event of the lead after it', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    const at = Date.now();
    await store.enqueueCrmEvents(
      [
        ownerChangedEvent({ leadId: lead.id, at, ownerEmail: 'bo@example.com', previousOwnerEmail: undefined }),
        statusChangedEvent({ leadId: lead.id, at: at + 1, status: 'contacted', previousStatus: 'new', lostReason: undefined }),
      ],
      { held: false },
    );
    crm.respond = (request) => (eventOf(request) === 'owner_changed' ? { status: 410, body: 'gone' } : { status: 200, body: 'ok' });
    startWorker();
    await waitFor(async () => (await eventStates(lead.id)).join() === 'failed,sent');
    expect(crm.requests.map((request) => eventOf(request) ?? 'lead')).toEqual(['lead', 'owner_changed', 'status_changed']);
  });
});

describe('CRM follow-up events and the pace', () => {
  it('counts events in the same budget as leads, and sends leads first', async () => {
    const LIMIT = 10;
    const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
    const database = await sqliteHarness.createDatabase();
    const store = await database.open();
    let clock = T0;
    const sent: Array<{ at: number; event: string | undefined }> = [];
    const client: CrmClient = {
      send: async (_id, _body, event) => {
        sent.push({ at: clock, event });
        return { kind: 'answered', status: 200, body: 'ok', retryAfter: undefined, durationMs: 1 };
      },
      close() {},
    };
    // Eight leads the CRM already has, each with an event waiting.
    const taken = Array.from({ length: 8 }, () => newLead(T0 - 60_000));
    for (const lead of taken) await store.insertLead(lead);
    await store.claimDue({ now: T0, limit: 100, owner: 'earlier', leaseMs: 60_000 });
    await store.recordResults(
      taken.map((lead) => ({
        leadId: lead.id,
        owner: 'earlier',
        attempt: { attemptedAt: T0, durationMs: 1, status: 200, responseBody: 'ok', error: undefined },
        nextState: 'delivered' as const,
        nextAttemptAt: undefined,
      })),
    );
    await store.enqueueCrmEvents(
      taken.map((lead) => ownerChangedEvent({ leadId: lead.id, at: T0, ownerEmail: 'bo@example.com', previousOwnerEmail: undefined })),
      { held: false },
    );
    // And six new leads.
    for (let index = 0; index < 6; index += 1) await store.insertLead(newLead(T0 - 1_000));
    const worker = createOutboxWorker({
      store,
      client,
      retryDelaysMs: FAST_RETRIES,
      crmMaxPer10s: LIMIT,
      log: silentLog,
      now: () => clock,
      pollIntervalMs: 5,
      concurrency: 100,
    });
    worker.start();
    try {
      await waitFor(async () => sent.length >= LIMIT);
      await sleep(100);
      // One budget: 10 sends in the first window, the six leads among them.
      expect(sent).toHaveLength(LIMIT);
      expect(sent.slice(0, 6).map((send) => send.event)).toEqual(Array(6).fill(undefined));
      expect(sent.filter((send) => send.event !== undefined)).toHaveLength(4);
      clock = T0 + 10_000;
      await waitFor(async () => sent.length >= 14);
      await sleep(50);
      expect(sent.filter((send) => send.event === 'owner_changed')).toHaveLength(8);
      expect(sent).toHaveLength(14);
    } finally {
      await worker.stop();
      await database.remove();
    }
  });
});

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`several workers on one ${harness.kind} database, with events`, () => {
    it('send each lead and each event exactly once, every event after its lead', async () => {
      const database = await harness.createDatabase();
      const crm = await startCrmReceiver();
      crm.respond = () => ({ status: 200, body: 'ok' });
      const stores = await Promise.all([database.open(), database.open(), database.open()]);
      const [first] = stores;
      const leadIds: string[] = [];
      for (let index = 0; index < 40; index += 1) {
        const lead = newLead();
        leadIds.push(lead.id);
        await first?.insertLead(lead);
        const at = Date.now();
        await first?.enqueueCrmEvents(
          [
            ownerChangedEvent({ leadId: lead.id, at, ownerEmail: 'bo@example.com', previousOwnerEmail: undefined }),
            statusChangedEvent({ leadId: lead.id, at: at + 1, status: 'contacted', previousStatus: 'new', lostReason: undefined }),
          ],
          { held: false },
        );
      }
      const workers = stores.map((store) =>
        createOutboxWorker({
          store,
          client: createCrmClient({ url: crm.url, secret: undefined }),
          retryDelaysMs: FAST_RETRIES,
          crmMaxPer10s: NO_PACE,
          log: silentLog,
          pollIntervalMs: 10,
          concurrency: 8,
        }),
      );
      try {
        for (const worker of workers) worker.start();
        await crm.waitForRequests(leadIds.length * 3, 20_000);
        await Promise.all(workers.map((worker) => worker.stop()));
        const sent = crm.requests.map((request) => `${String(request.json.lead_id)}:${eventOf(request) ?? 'lead'}`);
        expect(new Set(sent).size).toBe(sent.length);
        expect(sent).toHaveLength(leadIds.length * 3);
        for (const leadId of leadIds) {
          const order = sent.filter((entry) => entry.startsWith(`${leadId}:`));
          expect(order).toEqual([`${leadId}:lead`, `${leadId}:owner_changed`, `${leadId}:status_changed`]);
        }
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
        await crm.close();
        await database.remove();
      }
    });
  });
}
