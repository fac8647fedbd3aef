import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  announceSkip,
  ownPostgresDatabase,
  postgresHarness,
  sqliteWorkerHarness,
  type StoreDatabase,
  type StoreHarness,
} from '../testing/store-harness.ts';
import { EXIT_CODES } from '../exit-codes.ts';
import { openDatabase } from './database.ts';
import { LEAD_SCHEMA_VERSIONS } from './lead-schema.ts';
import { MIGRATION_LOCK_ID, openPostgresStore, POSTGRES_MIGRATIONS } from './postgres-store.ts';
import { openSqliteStore, SQLITE_MIGRATIONS } from './sqlite-store.ts';
import { StoreOpenError } from './store-open-error.ts';

// A start the database refuses ends in one sentence naming the database, its versions and what to do,
// with its own exit code, on both engines (SQLite through the worker thread the server uses, so the
// refusal survives the crossing): never "cannot be reached", which would send an operator to the network.

const LATEST = LEAD_SCHEMA_VERSIONS.length;

async function openFailure(database: StoreDatabase): Promise<StoreOpenError> {
  const error = await openDatabase(database.config, { onMigrationLockWait: () => {} }).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(StoreOpenError);
  return error as StoreOpenError;
}

async function versionOf(database: StoreDatabase): Promise<number> {
  const rows = await database.rows();
  return Math.max(...(rows.schema_migrations ?? []).map((row) => Number((row as { version: number }).version)));
}

async function tablesOf(database: StoreDatabase): Promise<string[]> {
  return Object.keys(await database.rows()).sort();
}

for (const harness of [sqliteWorkerHarness, postgresHarness]) {
  announceSkip(harness);

  describe.skipIf(harness.skipReason !== undefined)(`a start the lead database refuses: ${harness.kind}`, () => {
    let database: StoreDatabase;
    beforeEach(async () => {
      database = await harness.createDatabase();
    });
    afterEach(async () => {
      await database.remove();
    });

    it('refuses a database newer than this release with exit code 65', async () => {
      await (await database.open()).close();
      await database.execute(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'from a later release', 0)`);
      const error = await openFailure(database);
      expect(error.exitCode).toBe(EXIT_CODES.databaseNewer);
      expect(error.message).toBe(
        `The lead database is at schema version 99, newer than this release knows (${LATEST}): ` +
          'run the release that migrated it, or a later one, instead of this one.',
      );
      expect(await versionOf(database)).toBe(99);
    });

    it('keeps nothing of a failed migration and says the version it stayed at, with exit code 70', async () => {
      await (await database.openAtVersion(LATEST - 1)).close();
      // Version 11 makes job_runs: one made by hand beforehand makes it fail.
      await database.execute('CREATE TABLE job_runs (made_by_hand INTEGER)');
      const before = await tablesOf(database);
      const error = await openFailure(database);
      expect(error.exitCode).toBe(EXIT_CODES.migrationFailed);
      expect(error.message).toMatch(
        new RegExp(
          `^Migrating the lead database to schema version ${LATEST} failed \\([^\\n]*job_runs[^\\n]*already exists\\), and nothing of it was kept: ` +
            `the database is still at version ${LATEST - 1}; fix what the error names, or run the release before this one\\.$`,
        ),
      );
      expect(await versionOf(database)).toBe(LATEST - 1);
      expect(await tablesOf(database)).toEqual(before);
    });

    it('undoes every statement of a migration that fails part way', async () => {
      const engineList = harness.kind === 'postgres' ? POSTGRES_MIGRATIONS : SQLITE_MIGRATIONS;
      const failing = [
        ...engineList,
        { version: LATEST + 1, name: 'half of it works', sql: 'CREATE TABLE half_made (x INTEGER); CREATE TABLE leads (x INTEGER);' },
      ];
      await (await database.open()).close();
      const opening =
        harness.kind === 'postgres'
          ? openPostgresStore(database.config.kind === 'postgres' ? database.config.url : '', failing)
          : Promise.resolve().then(() => openSqliteStore(database.config.kind === 'sqlite' ? database.config.file : '', failing));
      await expect(opening).rejects.toMatchObject({
        facts: { kind: 'failed', database: 'lead', version: LATEST + 1, kept: LATEST },
      });
      expect(await tablesOf(database)).not.toContain('half_made');
      expect(await versionOf(database)).toBe(LATEST);
    });
  });
}

describe.skipIf(postgresHarness.skipReason !== undefined)('the migration lock on PostgreSQL', () => {
  // A database of its own: the lock held here would hold up other suites' migrations.
  let own: { harness: StoreHarness; drop(): Promise<void> };
  let database: StoreDatabase;
  let holder: pg.Client | undefined;
  beforeAll(async () => {
    own = await ownPostgresDatabase();
  }, 60_000);
  afterAll(async () => {
    await own.drop();
  }, 60_000);
  beforeEach(async () => {
    database = await own.harness.createDatabase();
  });
  afterEach(async () => {
    await holder?.end();
    holder = undefined;
    await database.remove();
  });

  async function holdLock(): Promise<void> {
    holder = new pg.Client({ connectionString: database.serverEnv.DATABASE_URL });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
  }

  it('gives up after MIGRATION_LOCK_WAIT_SECONDS with exit code 75, saying once that it waits', async () => {
    await holdLock();
    const told: string[] = [];
    const started = Date.now();
    const config = { kind: 'postgres' as const, url: database.serverEnv.DATABASE_URL!, migrationLockWaitMs: 1_000 };
    const error = await openDatabase(config, { onMigrationLockWait: (message) => told.push(message) }).then(
      () => undefined,
      (thrown: unknown) => thrown as StoreOpenError,
    );
    const waited = Date.now() - started;
    expect(error).toBeInstanceOf(StoreOpenError);
    expect(error?.exitCode).toBe(EXIT_CODES.migrationLockBusy);
    expect(error?.message).toBe(
      "Another server held the lead database's migration lock for more than 1 s (MIGRATION_LOCK_WAIT_SECONDS): " +
        'start this one again once that server has finished migrating.',
    );
    expect(told).toEqual(['another server is migrating the lead database: waiting up to 1 s']);
    expect(waited).toBeGreaterThanOrEqual(1_000);
    expect(waited).toBeLessThan(3_000);
  });

  it('goes on once the other process lets the lock go within the wait', async () => {
    await holdLock();
    const told: string[] = [];
    const config = { kind: 'postgres' as const, url: database.serverEnv.DATABASE_URL!, migrationLockWaitMs: 10_000 };
    const opening = openDatabase(config, { onMigrationLockWait: (message) => told.push(message) });
    await expect.poll(() => told.length).toBe(1);
    await holder!.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]);
    const store = await opening;
    expect(await store.schemaVersion()).toBe(LATEST);
    await store.close();
    expect(told).toHaveLength(1);
  });
});

describe('the write lock on SQLite', () => {
  it('gives up after the busy wait with exit code 75 while another process holds the write lock', async () => {
    const database = await sqliteWorkerHarness.createDatabase();
    const { DatabaseSync } = await import('node:sqlite');
    const file = database.config.kind === 'sqlite' ? database.config.file : '';
    await (await database.openAtVersion(LATEST - 1)).close();
    const holder = new DatabaseSync(file);
    holder.exec('BEGIN IMMEDIATE');
    try {
      const error = await openFailure(database);
      expect(error.exitCode).toBe(EXIT_CODES.migrationLockBusy);
      expect(error.message).toBe(
        "Another process held the lead database's write lock for more than 5 s while this one was to migrate it: " +
          'start this one again once that process has finished.',
      );
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      await database.remove();
    }
  }, 20_000);
});
