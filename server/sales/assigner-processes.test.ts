// Two server processes on one database, as a deployment runs them: leads posted to either are each
// given exactly one owner, by whichever process gets there first, well within 5 seconds of being
// stored (the relay wakes its assigner after answering; the sweep places what the other stored).
// Taking a lead never waits for the assignment: every post answers 201 at once.
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkingWindow } from '../../lead/sales.ts';
import { startConsoleServer, type ConsoleTestServer } from '../testing/console-client.ts';
import { validLeadBody } from '../testing/lead-bodies.ts';
import { postgresHarness, sqliteWorkerHarness, type StoreDatabase } from '../testing/store-harness.ts';

const LEADS = 40;
/** Well under the 5 s goal, with room for a machine shared with other work. */
const P99_BOUND_MS = 2_500;
const ALL_WEEK: WorkingWindow[] = [0, 1, 2, 3, 4, 5, 6].map((day) => ({ day, startMinute: 0, endMinute: 1440 }));

let servers: ConsoleTestServer[] = [];
let database: StoreDatabase | undefined;
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  await database?.remove();
  servers = [];
  database = undefined;
});

function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)]!;
}

describe.each([
  ['SQLite', sqliteWorkerHarness],
  ['PostgreSQL', postgresHarness],
] as const)('two server processes on one %s database', (_name, harness) => {
  it.skipIf(harness.skipReason)(
    'give every lead exactly one owner, p99 well under 5 s from stored to assigned',
    async () => {
      database = await harness.createDatabase();
      const env = { LEAD_RATE_LIMIT: '10000' };
      const tuning = { salesTuning: { siteHours: { timeZone: 'UTC', windows: [] }, sweepIntervalMs: 500 } };
      servers = [
        await startConsoleServer({ database, env, appOptions: tuning }),
        await startConsoleServer({ database, env, appOptions: tuning }),
      ];
      const [one, two] = servers as [ConsoleTestServer, ConsoleTestServer];
      for (const email of ['ana@example.com', 'bo@example.com', 'cy@example.com']) {
        await one.addAccount(email, 'sales');
        const account = (await one.store.findAccount(email))!;
        await one.store.setAvailability({ accountId: account.id, timeZone: 'UTC', windows: ALL_WEEK, away: false }, Date.now(), undefined);
      }

      const ids: string[] = [];
      for (let index = 0; index < LEADS; index += 1) {
        const body = { ...validLeadBody('contact'), email: `person${index}@example.com`, phone: `+1 312 555 ${String(1000 + index)}` };
        const response = await (index % 2 === 0 ? one : two).app.inject({
          method: 'POST',
          url: '/api/leads',
          headers: { host: 'localhost:4321', 'content-type': 'application/json' },
          payload: JSON.stringify(body),
        });
        expect(response.statusCode, response.body).toBe(201);
        ids.push(response.json<{ id: string }>().id);
      }

      const deadline = Date.now() + 10_000;
      for (;;) {
        const placed = await Promise.all(ids.map((id) => one.store.findLeadSales(id)));
        if (placed.every((sales) => sales?.ownerId !== undefined) || Date.now() > deadline) break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const waits: number[] = [];
      const owners = new Map<string, number>();
      for (const id of ids) {
        const [lead, sales, activities] = await Promise.all([
          one.store.getLead(id),
          one.store.findLeadSales(id),
          one.store.listActivities(id),
        ]);
        expect(sales?.ownerId, id).toBeDefined();
        expect(
          activities.filter((activity) => activity.kind === 'assigned'),
          id,
        ).toHaveLength(1);
        waits.push(sales!.assignedAt! - lead!.receivedAt);
        owners.set(sales!.ownerId!, (owners.get(sales!.ownerId!) ?? 0) + 1);
      }
      expect(percentile(waits, 0.99)).toBeLessThan(P99_BOUND_MS);
      // Round-robin across both processes: nobody gets far more than their share.
      for (const count of owners.values()) expect(count).toBeGreaterThanOrEqual(LEADS / 6);
      expect(owners.size).toBe(3);
    },
    30_000,
  );
});

describe('the relay wakes the assigner', () => {
  it('places a lead within moments of the answer, long before the next sweep', async () => {
    const server = await startConsoleServer({
      env: { LEAD_RATE_LIMIT: '1000' },
      appOptions: { salesTuning: { siteHours: { timeZone: 'UTC', windows: [] }, sweepIntervalMs: 60_000 } },
    });
    servers = [server];
    await server.addAccount('ana@example.com', 'sales');
    const ana = (await server.store.findAccount('ana@example.com'))!;
    await server.store.setAvailability({ accountId: ana.id, timeZone: 'UTC', windows: ALL_WEEK, away: false }, Date.now(), undefined);
    // Let the start-up sweep pass, so only a wake-up can place the lead in time.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const response = await server.app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { host: 'localhost:4321', 'content-type': 'application/json' },
      payload: JSON.stringify(validLeadBody('contact')),
    });
    expect(response.statusCode).toBe(201);
    const id = response.json<{ id: string }>().id;
    const deadline = Date.now() + 3_000;
    while ((await server.store.findLeadSales(id))?.ownerId === undefined && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect((await server.store.findLeadSales(id))?.ownerId).toBe(ana.id);
  });
});
