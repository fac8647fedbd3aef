import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from './app.ts';
import { schemaReadinessCheck } from './plugins/schema-readiness.ts';
import { createSiteFixture, fixtureConfig, type SiteFixture } from './testing/site-fixture.ts';
import { announceSkip, postgresHarness, sqliteWorkerHarness, type StoreDatabase } from './testing/store-harness.ts';

// /readyz, what a load balancer asks: 200 only while the lead store answers, the analytics store (a
// file of its own on SQLite) answers, both schemas are at least what this code knows, and the process
// is not draining. /healthz (liveness) is unmoved by the schema.

let fixture: SiteFixture;
beforeAll(async () => {
  fixture = await createSiteFixture();
});
afterAll(async () => {
  await fixture.remove();
});

// The schema check keeps each answer about a second.
const pastTheCache = () => new Promise((resolve) => setTimeout(resolve, 1_100));

async function readyz(app: FastifyInstance): Promise<{ status: number; body: unknown }> {
  const response = await app.inject({ url: '/readyz' });
  return { status: response.statusCode, body: response.json() };
}

for (const harness of [sqliteWorkerHarness, postgresHarness]) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`/readyz on ${harness.kind}`, () => {
    let database: StoreDatabase;
    let app: FastifyInstance;
    beforeEach(async () => {
      database = await harness.createDatabase();
      app = buildApp(fixtureConfig(fixture.distDir, database.serverEnv));
      await app.ready();
    });
    afterEach(async () => {
      await app.close();
      await database.remove();
    });

    it('answers 200 ready when the stores answer and their schemas are current', async () => {
      expect(await readyz(app)).toEqual({ status: 200, body: { status: 'ready' } });
    });

    it('answers 503 "schema" when the lead database is behind this code, while /healthz stays 200', async () => {
      expect((await readyz(app)).status).toBe(200);
      await database.execute('DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)');
      await pastTheCache();
      expect(await readyz(app)).toEqual({ status: 503, body: { status: 'not-ready', failing: ['schema'] } });
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    });

    it('answers 503 "analytics-schema" when the analytics store is behind this code', async () => {
      // On SQLite the analytics store is its own file, which `execute` does not reach: its thread's store is asked instead.
      if (harness.kind === 'postgres') {
        await database.execute(
          'DELETE FROM analytics_schema_migrations WHERE version = (SELECT MAX(version) FROM analytics_schema_migrations)',
        );
      } else {
        const analytics = fixtureConfig(fixture.distDir, database.serverEnv).analyticsStore;
        const { DatabaseSync } = await import('node:sqlite');
        const db = new DatabaseSync(analytics.kind === 'sqlite' ? analytics.file : '', { timeout: 5_000 });
        db.exec('DELETE FROM analytics_schema_migrations WHERE version = (SELECT MAX(version) FROM analytics_schema_migrations)');
        db.close();
      }
      expect(await readyz(app)).toEqual({ status: 503, body: { status: 'not-ready', failing: ['analytics-schema'] } });
    });

    it('stays ready on a database a later release migrated while this server runs', async () => {
      await database.execute(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from a later release', 0)`);
      await pastTheCache();
      expect(await readyz(app)).toEqual({ status: 200, body: { status: 'ready' } });
    });

    it('answers 503 "lead-store" when the lead store cannot be reached', async () => {
      await app.leadRelay.store.close();
      await pastTheCache();
      const { status, body } = await readyz(app);
      expect(status).toBe(503);
      expect((body as { failing: string[] }).failing).toContain('lead-store');
    });

    it('answers 503 "draining" once draining, while /healthz stays 200, and ends each connection after its answer', async () => {
      expect((await app.inject({ url: '/about' })).headers.connection).not.toBe('close');
      app.readiness.drain();
      expect(await readyz(app)).toEqual({ status: 503, body: { status: 'not-ready', failing: ['draining'] } });
      const healthz = await app.inject({ url: '/healthz' });
      expect(healthz.statusCode).toBe(200);
      expect(healthz.headers.connection).toBe('close');
      expect((await app.inject({ url: '/about' })).headers.connection).toBe('close');
    });
  });
}

describe.skipIf(sqliteWorkerHarness.skipReason !== undefined)('/readyz with the analytics file of its own unreachable', () => {
  it('answers 503 "analytics-store"', async () => {
    const database = await sqliteWorkerHarness.createDatabase();
    const app = buildApp(fixtureConfig(fixture.distDir, database.serverEnv));
    try {
      await app.ready();
      await app.analytics.store.close();
      const { status, body } = await readyz(app);
      expect(status).toBe(503);
      expect((body as { failing: string[] }).failing).toContain('analytics-store');
    } finally {
      await app.close();
      await database.remove();
    }
  });
});

describe('schemaReadinessCheck', () => {
  it('asks the database at most once a second and fails only while the schema is behind', async () => {
    let now = 0;
    let version = 11;
    let asked = 0;
    const check = schemaReadinessCheck({
      database: 'lead',
      known: 11,
      readVersion: async () => {
        asked += 1;
        return version;
      },
      now: () => now,
    });
    const signal = new AbortController().signal;
    await check(signal);
    await check(signal);
    expect(asked).toBe(1);
    version = 10;
    now = 999;
    await check(signal);
    now = 1_000;
    await expect(check(signal)).rejects.toThrow("the lead database is at schema version 10, behind this server's 11");
    expect(asked).toBe(2);
    version = 12;
    now = 2_000;
    await check(signal);
    expect(asked).toBe(3);
  });
});
