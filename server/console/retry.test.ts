// What a retry sends, on both engines: only leads the CRM does not have yet and that are not spam,
// counted by status in the answer and the audit log; a lead the CRM has goes again only by "send
// again"; and the health figures name the same leads the inbox's filters and buttons do.
import { afterEach, describe, expect, it } from 'vitest';
import type { Health, LeadPage, RetryResult } from '../../console/api-types.ts';
import type { DeliveryResult } from '../store/outbox/outbox-store.ts';
import { startConsoleServer, type ConsoleTestServer } from '../testing/console-client.ts';
import { NO_CRM_MESSAGE } from './routes/leads.ts';
import { postgresHarness, type StoreDatabase } from '../testing/store-harness.ts';

let server: ConsoleTestServer | undefined;
let database: StoreDatabase | undefined;
afterEach(async () => {
  await server?.close();
  await database?.remove();
  server = undefined;
  database = undefined;
});

const leadId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const FAILED_1 = leadId(1);
const FAILED_2 = leadId(2);
const HELD = leadId(3);
const RETRYING = leadId(4);
const SPAM_1 = leadId(5);
const SPAM_2 = leadId(6);
const SPAM_3 = leadId(7);
const DELIVERED = leadId(8);
const TEST = leadId(9);
const MISSING = leadId(10);
const MINUTE = 60_000;

describe.each([
  ['SQLite', undefined],
  ['PostgreSQL', postgresHarness],
] as const)('retry on %s', (_name, harness) => {
  const skip = harness?.skipReason;

  /** A console with one lead of every kind: two failed, one held, one retrying, three spam, one delivered, one delivered as a test. */
  async function start(): Promise<ConsoleTestServer> {
    database = harness ? await harness.createDatabase() : undefined;
    // A CRM is set up, but the outbox's clock stands at 1970, so no lead is ever due for it: the
    // states the test sets stay as they are.
    const console = await startConsoleServer({
      ...(database ? { database } : {}),
      env: { CRM_WEBHOOK_URL: 'http://127.0.0.1:9/crm' },
      appOptions: { relayTuning: { now: () => 0 } },
    });
    server = console;
    await console.addAccount('sales@example.com', 'sales');
    const at = Date.now() - 10 * MINUTE;
    for (const id of [FAILED_1, FAILED_2, RETRYING, DELIVERED, TEST])
      await console.insertLead({ id, receivedAt: at, initialState: 'pending' });
    await console.insertLead({ id: HELD, receivedAt: at, initialState: 'held' });
    for (const id of [SPAM_1, SPAM_2, SPAM_3])
      await console.insertLead({ id, receivedAt: at, initialState: 'spam', spamReason: 'honeypot' });
    await console.store.claimDue({ now: at, limit: 10, owner: 'test', leaseMs: 1 });
    const result = (leadId: string, status: number, nextState: DeliveryResult['nextState'], attemptedAt: number): DeliveryResult => ({
      leadId,
      owner: 'test',
      attempt: { attemptedAt, durationMs: 5, status, responseBody: '', error: undefined },
      nextState,
      nextAttemptAt: nextState === 'pending' ? Date.now() + 60 * MINUTE : undefined,
    });
    await console.store.recordResults([
      result(DELIVERED, 200, 'delivered', at + 1),
      result(TEST, 200, 'delivered-test', at + 2),
      result(FAILED_1, 410, 'failed', at + 3),
      result(FAILED_2, 410, 'failed', at + 4),
      result(RETRYING, 503, 'pending', at + 5),
    ]);
    return console;
  }

  it.skipIf(skip)(
    'sends only failed and waiting leads that are not spam, and says and records exactly what it sent and skipped',
    async () => {
      const console = await start();
      const sales = await console.signedIn('sales@example.com');
      const ids = [FAILED_1, FAILED_2, HELD, RETRYING, SPAM_1, SPAM_2, SPAM_3, DELIVERED, TEST, MISSING];
      const response = await console.change(sales, 'POST', '/console/api/leads/retry', { ids });
      expect(response.json<RetryResult>()).toEqual({
        retried: 4,
        sent: { failed: 2, held: 1, waiting: 0, retrying: 1 },
        skipped: { spam: 3, delivered: 2, sending: 0, missing: 1 },
      });
      for (const id of [FAILED_1, FAILED_2, HELD, RETRYING]) expect((await console.store.getLead(id))?.state, id).toBe('pending');
      for (const id of [SPAM_1, SPAM_2, SPAM_3]) expect((await console.store.getLead(id))?.state).toBe('spam');
      expect((await console.store.getLead(DELIVERED))?.state).toBe('delivered');
      expect((await console.store.getLead(TEST))?.state).toBe('delivered-test');
      const audit = (await console.store.listAudit(undefined, 10)).entries.map((entry) => `${entry.action} ${entry.detail}`);
      expect(audit).toEqual([
        `lead.retry sent 4 lead(s): ${FAILED_1}, ${FAILED_2}, ${HELD}, ${RETRYING} (2 failed, 1 held, 1 retrying); ` +
          'skipped 3 spam, 2 already delivered, 1 not found',
      ]);
    },
  );

  it.skipIf(skip)(
    '"Retry now" on a delivered lead sends nothing and says so; "send again" sends it, audited as a second copy',
    async () => {
      const console = await start();
      const sales = await console.signedIn('sales@example.com');
      const retry = await console.change(sales, 'POST', '/console/api/leads/retry', { ids: [DELIVERED] });
      expect(retry.json<RetryResult>()).toMatchObject({ retried: 0, skipped: { delivered: 1 } });
      expect((await console.store.getLead(DELIVERED))?.state).toBe('delivered');

      const again = await console.change(sales, 'POST', `/console/api/leads/${DELIVERED}/send-again`, {});
      expect(again.json()).toEqual({ state: 'pending' });
      expect((await console.store.getLead(DELIVERED))?.state).toBe('pending');
      for (const id of [FAILED_1, SPAM_1]) {
        const refused = await console.change(sales, 'POST', `/console/api/leads/${id}/send-again`, {});
        expect(refused.statusCode, id).toBe(409);
        expect(refused.json<{ message: string }>().message).toMatch(
          /^The CRM does not have this lead \(it is (failed|spam)\): nothing was sent again\.$/,
        );
      }
      expect((await console.store.getLead(SPAM_1))?.state).toBe('spam');
      expect((await console.change(sales, 'POST', `/console/api/leads/${MISSING}/send-again`, {})).statusCode).toBe(404);
      expect((await console.change(sales, 'POST', `/console/api/leads/${TEST}/send-again`, { also: 1 })).statusCode).toBe(400);

      const audit = (await console.store.listAudit(undefined, 10)).entries.map((entry) => `${entry.action} ${entry.detail}`);
      expect(audit).toEqual([
        `lead.send-again ${DELIVERED} (the CRM already had it; it gets a second copy)`,
        'lead.retry sent nothing; skipped 1 already delivered',
      ]);
    },
  );

  it.skipIf(skip)('names failed and retrying leads apart, as the inbox filters and "Retry every failed lead" count them', async () => {
    const console = await start();
    const sales = await console.signedIn('sales@example.com');
    const health = (await console.read(sales, '/console/api/health')).json<Health>();
    expect(health).toMatchObject({ failed: 2, retrying: 1, spamWeek: 3 });
    const listed = async (state: string) =>
      (await console.read(sales, `/console/api/leads?state=${state}`)).json<LeadPage>().leads.map((lead) => [lead.id, lead.status]);
    expect(await listed('failed')).toEqual([
      [FAILED_2, 'failed'],
      [FAILED_1, 'failed'],
    ]);
    expect(await listed('retrying')).toEqual([[RETRYING, 'retrying']]);
    expect(await listed('waiting')).toEqual([]);

    const every = await console.change(sales, 'POST', '/console/api/leads/retry', { allFailed: true });
    expect(every.json<RetryResult>()).toMatchObject({ retried: health.failed, sent: { failed: 2 } });
    const [entry] = (await console.store.listAudit(undefined, 1)).entries;
    expect(`${entry?.action} ${entry?.detail}`).toMatch(/^lead\.retry every failed lead: sent 2 lead\(s\): [\w-]+, [\w-]+ \(2 failed\)$/);
    expect(entry?.detail).toContain(FAILED_1);
    expect(entry?.detail).toContain(FAILED_2);
    const after = (await console.read(sales, '/console/api/health')).json<Health>();
    expect(after).toMatchObject({ failed: 0, retrying: 1 });
    expect((await listed('waiting')).map(([id]) => id).sort()).toEqual([FAILED_1, FAILED_2]);
  });

  it.skipIf(skip)('gives no time to send the backlog while the CRM refuses, and one again once it takes a lead', async () => {
    const console = await start();
    const sales = await console.signedIn('sales@example.com');
    const refusing = (await console.read(sales, '/console/api/health')).json<Health>();
    expect(refusing.backlog).toEqual({ pending: 1, drainMinutes: null, maxPer10s: 90, crmRefusing: true });

    await console.store.claimDue({ now: Date.now() + 61 * MINUTE, limit: 10, owner: 'later', leaseMs: 1 });
    await console.store.recordResults([
      {
        leadId: RETRYING,
        owner: 'later',
        attempt: { attemptedAt: Date.now(), durationMs: 5, status: 200, responseBody: '', error: undefined },
        nextState: 'delivered',
        nextAttemptAt: undefined,
      },
    ]);
    await console.change(sales, 'POST', '/console/api/leads/retry', { ids: [HELD] });
    const taking = (await console.read(sales, '/console/api/health')).json<Health>();
    expect(taking.backlog).toEqual({ pending: 1, drainMinutes: 1, maxPer10s: 90, crmRefusing: false });
  });
});

describe('retry without a CRM', () => {
  it('sends nothing and says why, rather than moving leads that would wait for ever', async () => {
    server = await startConsoleServer();
    await server.addAccount('sales@example.com', 'sales');
    await server.insertLead({ id: HELD, initialState: 'held' });
    const sales = await server.signedIn('sales@example.com');
    for (const [path, body] of [
      ['/console/api/leads/retry', { ids: [HELD] }],
      ['/console/api/leads/retry', { allFailed: true }],
      [`/console/api/leads/${HELD}/send-again`, {}],
    ] as const) {
      const response = await server.change(sales, 'POST', path, body);
      expect(response.statusCode, path).toBe(409);
      expect(response.json(), path).toMatchObject({ error: 'conflict', message: NO_CRM_MESSAGE });
    }
    expect((await server.store.getLead(HELD))?.state).toBe('held');
    expect((await server.store.listAudit(undefined, 10)).entries).toEqual([]);
  });
});
