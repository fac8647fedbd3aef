import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { validLeadBody } from './testing/lead-bodies.ts';
import { parseLogLines, startServerProcess, type ServerProcess } from './testing/server-process.ts';
import { createSiteFixture, type SiteFixture } from './testing/site-fixture.ts';
import { announceSkip, postgresHarness, sqliteWorkerHarness, type StoreDatabase } from './testing/store-harness.ts';

// SIGTERM as a load balancer sees it, on the real process: /readyz fails at once while the server
// keeps serving for DRAIN_SECONDS (a lead then is stored as ever), then the listener closes and what
// the process holds is finished. Nothing is acknowledged that is not kept: every lead answered 201 is
// in the database, a lead answered 503 (arriving once the close began) is not, and every beacon
// answered 204 is counted in the analytics store after the exit.

const DRAIN_SECONDS = 2;
// The grace main.ts gives in-flight requests once the listener closes.
const GRACE_MS = 10_000;
const PROCESS_TEST_TIMEOUT_MS = 60_000;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0 Safari/537.36';

let fixture: SiteFixture;
let workDir: string;
const servers: ServerProcess[] = [];

beforeAll(async () => {
  fixture = await createSiteFixture();
  workDir = await mkdtemp(path.join(tmpdir(), 'drain-'));
});
afterEach(() => {
  for (const server of servers.splice(0))
    if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
});
afterAll(async () => {
  await fixture.remove();
  await rm(workDir, { recursive: true, force: true });
});

type Outcome = { email: string; status: number | 'no connection' };

async function postLead(baseUrl: string, email: string): Promise<Outcome> {
  try {
    const response = await fetch(`${baseUrl}/api/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...validLeadBody('contact'), email }),
    });
    await response.arrayBuffer();
    return { email, status: response.status };
  } catch {
    return { email, status: 'no connection' };
  }
}

async function postBeacon(baseUrl: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/events`, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'user-agent': BROWSER },
    body: JSON.stringify({ type: 'pageview', path: '/about' }),
  });
  await response.arrayBuffer();
  return response.status;
}

async function countedEvents(database: StoreDatabase): Promise<number> {
  if (database.config.kind === 'postgres') return ((await database.rows()).analytics_events ?? []).length;
  const db = new DatabaseSync(path.join(path.dirname(database.config.file), 'analytics.sqlite'), { readOnly: true });
  try {
    return Number(db.prepare('SELECT COUNT(*) AS count FROM analytics_events').get()?.count);
  } finally {
    db.close();
  }
}

for (const harness of [sqliteWorkerHarness, postgresHarness]) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`SIGTERM drains, then closes: ${harness.kind}`, () => {
    it(
      'stays in service but not ready for DRAIN_SECONDS, then refuses connections and keeps every lead and beacon it acknowledged',
      async () => {
        const database = await harness.createDatabase();
        try {
          const server = await startServerProcess(
            { ...database.serverEnv, DIST_DIR: fixture.distDir, DRAIN_SECONDS: String(DRAIN_SECONDS), LEAD_RATE_LIMIT: '100000' },
            workDir,
          );
          servers.push(server);
          const { baseUrl } = server;
          expect((await fetch(`${baseUrl}/readyz`)).status).toBe(200);

          // Beacons answered just before the signal sit in the queue, not yet written.
          const beacons = await Promise.all(Array.from({ length: 20 }, () => postBeacon(baseUrl)));
          expect(beacons.every((status) => status === 204)).toBe(true);

          const signalled = Date.now();
          server.child.kill('SIGTERM');
          await expect.poll(async () => (await fetch(`${baseUrl}/readyz`)).status, { interval: 20 }).toBe(503);
          const readyz = await fetch(`${baseUrl}/readyz`);
          expect(await readyz.json()).toEqual({ status: 'not-ready', failing: ['draining'] });
          expect((await fetch(`${baseUrl}/healthz`)).status).toBe(200);
          const duringDrain = await postLead(baseUrl, 'during-drain@example.com');
          expect(duringDrain.status).toBe(201);
          expect(Date.now() - signalled).toBeLessThan(DRAIN_SECONDS * 1000);

          // Leads keep coming, on kept-alive connections, until the listener is closed: some arrive
          // as the close begins.
          const outcomes: Outcome[] = [];
          let refusedInARow = 0;
          for (let index = 0; refusedInARow < 3 && Date.now() - signalled < DRAIN_SECONDS * 1000 + GRACE_MS; index += 1) {
            const batch = await Promise.all(Array.from({ length: 4 }, (_, part) => postLead(baseUrl, `edge-${index}-${part}@example.com`)));
            outcomes.push(...batch);
            refusedInARow = batch.every((outcome) => outcome.status === 'no connection') ? refusedInARow + 1 : 0;
          }
          // After the drain no new connection is taken.
          expect(refusedInARow).toBe(3);
          const refusedAt = Date.now() - signalled;
          expect(refusedAt).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000);

          expect(await server.exited).toBe(0);
          const stoppedAfter = Date.now() - signalled;
          expect(stoppedAfter).toBeGreaterThanOrEqual(DRAIN_SECONDS * 1000);
          expect(stoppedAfter).toBeLessThan(DRAIN_SECONDS * 1000 + GRACE_MS + 3_000);

          const store = await database.open();
          const stored = new Set((await store.listLeads({ limit: 10_000 })).map((lead) => lead.email));
          expect(stored.has('during-drain@example.com')).toBe(true);
          for (const outcome of outcomes) {
            if (outcome.status === 201) expect(stored.has(outcome.email), `${outcome.email} was answered 201`).toBe(true);
            else if (outcome.status === 503) expect(stored.has(outcome.email), `${outcome.email} was answered 503`).toBe(false);
            else expect(outcome.status).toBe('no connection');
          }
          expect(outcomes.filter((outcome) => outcome.status === 201).length).toBeGreaterThan(0);
          expect(await countedEvents(database)).toBe(20);

          const messages = parseLogLines(server.output().stdout).map((line) => line.msg);
          const drainLine = messages.indexOf(`draining: not ready, still serving for ${DRAIN_SECONDS} s`);
          expect(drainLine).toBeGreaterThanOrEqual(0);
          expect(messages.indexOf('shutting down: finishing in-flight requests')).toBeGreaterThan(drainLine);
          expect(messages).toContain('server closed');
        } finally {
          await database.remove();
        }
      },
      PROCESS_TEST_TIMEOUT_MS,
    );
  });
}

describe('a second signal during the drain', () => {
  it(
    'skips the rest of the drain and closes at once, still exiting 0',
    async () => {
      const database = await sqliteWorkerHarness.createDatabase();
      try {
        const server = await startServerProcess({ ...database.serverEnv, DIST_DIR: fixture.distDir, DRAIN_SECONDS: '60' }, workDir);
        servers.push(server);
        server.child.kill('SIGTERM');
        await expect.poll(async () => (await fetch(`${server.baseUrl}/readyz`)).status, { interval: 20 }).toBe(503);
        const second = Date.now();
        server.child.kill('SIGTERM');
        expect(await server.exited).toBe(0);
        expect(Date.now() - second).toBeLessThan(5_000);
        const messages = parseLogLines(server.output().stdout).map((line) => line.msg);
        expect(messages).toContain('draining: not ready, still serving for 60 s');
        expect(messages).toContain('server closed');
      } finally {
        await database.remove();
      }
    },
    PROCESS_TEST_TIMEOUT_MS,
  );
});
