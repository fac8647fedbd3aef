import { createHmac } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../store/database.ts';
import type { NewLead } from '../store/outbox/outbox-store.ts';
import { startCrmReceiver } from '../testing/crm-receiver.ts';
import type { CrmReceiver } from '../testing/crm-receiver.ts';
import { announceSkip, sqliteHarness, STORE_HARNESSES } from '../testing/store-harness.ts';
import type { StoreDatabase } from '../testing/store-harness.ts';
import { createCrmClient } from './crm-client.ts';
import type { CrmClient } from './crm-client.ts';
import { createOutboxWorker } from './outbox-worker.ts';
import type { OutboxWorker, OutboxWorkerOptions } from './outbox-worker.ts';

// The outbox against a real HTTP CRM receiver on 127.0.0.1 and a real store. Retry waits are a few
// milliseconds here; the schedule itself is tested in delivery-policy.test.ts.

const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const FAST_RETRIES = [20, 20, 20];
// A pace no test here reaches; the pace itself has its own test below.
const NO_PACE = 100_000;
const silentLog = pino({ level: 'silent' }) as unknown as FastifyBaseLogger;

let sequence = 0;
function newLead(): NewLead {
  sequence += 1;
  const id = `lead-${sequence}`;
  return {
    id,
    receivedAt: Date.now(),
    source: 'Contact Page Form',
    email: 'ana@example.com',
    payload: { name: "Seán O'Brien", company: 'Smith & Sons', lead_id: id, utm_source: 'newsletter' },
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

describe('outbox worker (SQLite store, real HTTP CRM)', () => {
  let database: StoreDatabase;
  let store: Database;
  let crm: CrmReceiver;
  const workers: OutboxWorker[] = [];

  function startWorker(overrides: Partial<OutboxWorkerOptions> & { secret?: string; timeoutMs?: number } = {}): OutboxWorker {
    const worker = createOutboxWorker({
      store,
      client: createCrmClient({ url: crm.url, secret: overrides.secret, timeoutMs: overrides.timeoutMs ?? 2_000 }),
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

  const stateOf = async (id: string) => (await store.getLead(id))?.state;

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

  it('posts the stored payload once, as JSON with the lead id as Idempotency-Key, and keeps the answer', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    startWorker();
    await waitFor(async () => (await stateOf(lead.id)) === 'delivered');
    expect(crm.requests).toHaveLength(1);
    const [request] = crm.requests;
    expect(request?.json).toEqual(lead.payload);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.headers['idempotency-key']).toBe(lead.id);
    expect(request?.headers['webhook-signature']).toBeUndefined();
    expect(await store.listAttempts(lead.id)).toMatchObject([{ status: 200, responseBody: '{"status":"ok"}', outcome: 'delivered' }]);
  });

  it('signs with CRM_WEBHOOK_SECRET so the Standard Webhooks check passes', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    startWorker({ secret: SECRET });
    await crm.waitForRequests(1);
    const [request] = crm.requests;
    const headers = request?.headers ?? {};
    expect(headers['webhook-id']).toBe(lead.id);
    const timestamp = Number(headers['webhook-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(300);
    const expected = createHmac('sha256', Buffer.from(SECRET.slice('whsec_'.length), 'base64'))
      .update(`${lead.id}.${timestamp}.${request?.body}`)
      .digest('base64');
    expect(headers['webhook-signature']).toBe(`v1,${expected}`);
  });

  it('retries a CRM that fails, then recovers, and delivers exactly once', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    crm.respond = (_, index) => (index < 2 ? { status: index === 0 ? 500 : 503, body: 'down' } : { status: 200, body: 'ok' });
    const worker = startWorker();
    await waitFor(async () => (await stateOf(lead.id)) === 'delivered');
    // Stopping waits for every delivery in flight: after it, nothing more can be sent.
    await worker.stop();
    expect(crm.leadIds()).toEqual([lead.id, lead.id, lead.id]);
    expect((await store.listAttempts(lead.id)).map((attempt) => [attempt.status, attempt.outcome])).toEqual([
      [500, 'pending'],
      [503, 'pending'],
      [200, 'delivered'],
    ]);
  });

  it('times out a CRM that hangs and retries', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    crm.respond = (_, index) => (index === 0 ? 'hang' : { status: 200, body: 'ok' });
    startWorker({ timeoutMs: 200 });
    await waitFor(async () => (await stateOf(lead.id)) === 'delivered');
    const [first, second] = await store.listAttempts(lead.id);
    expect(first).toMatchObject({ status: undefined, error: 'timeout after 200 ms', outcome: 'pending' });
    expect(first?.durationMs).toBeGreaterThanOrEqual(190);
    expect(second).toMatchObject({ status: 200, outcome: 'delivered' });
  });

  it('stops at 410 and keeps the lead as failed', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    crm.respond = () => ({ status: 410, body: 'gone' });
    const worker = startWorker();
    await waitFor(async () => (await stateOf(lead.id)) === 'failed');
    await worker.stop();
    expect(crm.requests).toHaveLength(1);
    // Failed leads are never claimed again: a fresh worker on the same store sends nothing.
    const again = startWorker();
    const later = newLead();
    await store.insertLead(later);
    await waitFor(async () => (await stateOf(later.id)) === 'failed');
    await again.stop();
    expect(crm.leadIds()).toEqual([lead.id, later.id]);
  });

  it('marks a test-only 2xx as delivered-test', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    crm.respond = () => ({ status: 200, body: 'Success: test request received' });
    startWorker();
    await waitFor(async () => (await stateOf(lead.id)) === 'delivered-test');
    expect(crm.requests).toHaveLength(1);
  });

  it('tells the analytics of a lead the CRM took only once it answered 2xx, and never of a test answer or a failure', async () => {
    const told: string[] = [];
    const taken = newLead();
    const tested = newLead();
    const refused = newLead();
    for (const lead of [taken, tested, refused]) await store.insertLead(lead);
    const attempts = new Map<string, number>();
    crm.respond = (request) => {
      const id = String((request.json as { lead_id?: unknown }).lead_id);
      attempts.set(id, (attempts.get(id) ?? 0) + 1);
      if (id === tested.id) return { status: 200, body: 'Success: test request received' };
      if (id === refused.id) return { status: 410, body: 'gone' };
      // The first try fails: nothing is told until the CRM has taken it.
      return attempts.get(id) === 1 ? { status: 503, body: 'busy' } : { status: 200, body: 'ok' };
    };
    startWorker({
      onDelivered: async (ids) => {
        told.push(...ids);
      },
    });
    await waitFor(async () => (await stateOf(taken.id)) === 'delivered' && (await stateOf(refused.id)) === 'failed');
    await waitFor(async () => (await stateOf(tested.id)) === 'delivered-test' && told.length > 0);
    await sleep(50);
    expect(told).toEqual([taken.id]);
  });

  it('delivers whatever the analytics answer when told of a delivery', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    startWorker({ onDelivered: () => Promise.reject(new Error('analytics database is down')) });
    await waitFor(async () => (await stateOf(lead.id)) === 'delivered');
    expect(crm.requests).toHaveLength(1);
  });

  it('records later deliveries while the analytics are still counting an earlier one', async () => {
    const first = newLead();
    const second = newLead();
    await store.insertLead(first);
    let release: () => void = () => {};
    const stuck = new Promise<void>((resolve) => (release = resolve));
    const told: string[] = [];
    startWorker({
      onDelivered: async (ids) => {
        told.push(...ids);
        // The analytics store hangs on the first delivery it is told of.
        if (ids.includes(first.id)) await stuck;
      },
    });
    try {
      await waitFor(async () => told.includes(first.id));
      await store.insertLead(second);
      await waitFor(async () => (await stateOf(second.id)) === 'delivered', 2_000);
      expect(crm.requests).toHaveLength(2);
    } finally {
      release();
    }
    // Told in order, once each, after the stuck call ends.
    await waitFor(async () => told.includes(second.id));
    expect(told).toEqual([first.id, second.id]);
  });

  it('fails a lead after the last scheduled attempt, and keeps it', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    crm.respond = () => ({ status: 500, body: 'still down' });
    startWorker();
    await waitFor(async () => (await stateOf(lead.id)) === 'failed');
    expect(crm.requests).toHaveLength(FAST_RETRIES.length + 1);
    expect(await store.getLead(lead.id)).toMatchObject({ attempts: 4, lastStatus: 500 });
  });

  it('honours Retry-After on a 429', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    crm.respond = (_, index) => (index === 0 ? { status: 429, headers: { 'retry-after': '1' } } : { status: 200 });
    startWorker();
    await crm.waitForRequests(2, 5_000);
    const [first, second] = crm.requests;
    expect((second?.receivedAt ?? 0) - (first?.receivedAt ?? 0)).toBeGreaterThanOrEqual(950);
  });

  it('records a network error and retries', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    const deadUrl = crm.url;
    await crm.close();
    const worker = createOutboxWorker({
      store,
      client: createCrmClient({ url: deadUrl, secret: undefined }),
      retryDelaysMs: [],
      crmMaxPer10s: NO_PACE,
      log: silentLog,
      pollIntervalMs: 20,
    });
    worker.start();
    await waitFor(async () => (await stateOf(lead.id)) === 'failed');
    await worker.stop();
    const [attempt] = await store.listAttempts(lead.id);
    expect(attempt?.error).toMatch(/^network error: ECONNREFUSED/);
    crm = await startCrmReceiver();
  });

  it('finishes in-flight deliveries and records them before stop() resolves', async () => {
    const lead = newLead();
    await store.insertLead(lead);
    crm.respond = () => ({ status: 200, body: 'ok', delayMs: 300 });
    const worker = startWorker();
    await crm.waitForRequests(1);
    await worker.stop();
    expect(await stateOf(lead.id)).toBe('delivered');
    expect(await store.listAttempts(lead.id)).toHaveLength(1);
  });

  it('wakes up at once when nudged, well before the poll interval', async () => {
    const worker = startWorker({ pollIntervalMs: 60_000 });
    await sleep(50);
    const lead = newLead();
    await store.insertLead(lead);
    worker.nudge();
    await crm.waitForRequests(1, 1_000);
    expect(crm.leadIds()).toEqual([lead.id]);
  });
});

describe('outbox worker pace', () => {
  it('drains a backlog of 300 due leads at no more than the limit in any 10 seconds', async () => {
    const LIMIT = 90;
    const T0 = Date.UTC(2025, 0, 15, 9, 0, 0);
    const database = await sqliteHarness.createDatabase();
    const store = await database.open();
    let clock = T0;
    const sentAt: number[] = [];
    const client: CrmClient = {
      send: async () => {
        sentAt.push(clock);
        return { kind: 'answered', status: 200, body: 'ok', retryAfter: undefined, durationMs: 1 };
      },
      close() {},
    };
    await Promise.all(Array.from({ length: 300 }, () => store.insertLead({ ...newLead(), receivedAt: T0 - 1_000 })));
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
      // The fake clock moves a second at a time; within each second the worker polls many times.
      for (let second = 0; sentAt.length < 300; second += 1) {
        expect(second).toBeLessThan(60);
        clock = T0 + second * 1_000;
        const expected = Math.min(300, LIMIT * (Math.floor(second / 10) + 1));
        await waitFor(async () => sentAt.length >= expected);
        await sleep(30);
        expect(sentAt.length).toBe(expected);
      }
      for (const at of sentAt) expect(sentAt.filter((other) => other > at - 10_000 && other <= at).length).toBeLessThanOrEqual(LIMIT);
      expect(Math.max(...sentAt) - T0).toBe(30_000);
      await worker.stop();
      expect(await store.countByState()).toEqual({ delivered: 300 });
    } finally {
      await worker.stop();
      await database.remove();
    }
  });
});

for (const harness of STORE_HARNESSES) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`several workers on one ${harness.kind} database`, () => {
    it('never send a lead twice', async () => {
      const database = await harness.createDatabase();
      const crm = await startCrmReceiver();
      crm.respond = () => ({ status: 200, body: 'ok' });
      const stores = await Promise.all([database.open(), database.open(), database.open()]);
      const [first] = stores;
      const ids: string[] = [];
      for (let index = 0; index < 150; index += 1) {
        const lead = newLead();
        ids.push(lead.id);
        await first?.insertLead(lead);
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
        await crm.waitForRequests(ids.length, 15_000);
        // Stopped workers have finished every delivery they started: the count is final.
        await Promise.all(workers.map((worker) => worker.stop()));
        expect(crm.leadIds().sort()).toEqual([...ids].sort());
        expect(await first?.countByState()).toEqual({ delivered: ids.length });
      } finally {
        await Promise.all(workers.map((worker) => worker.stop()));
        await crm.close();
        await database.remove();
      }
    });
  });
}
