import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { LeadStoreConfig } from '../config.ts';
import type { Database } from '../store/database.ts';
import { openPostgresStore, POSTGRES_MIGRATIONS } from '../store/postgres-store.ts';
import { openSqliteStore, SQLITE_MIGRATIONS } from '../store/sqlite-store.ts';
import { openSqliteWorkerStore } from '../store/sqlite-worker-store.ts';

// One empty database per test for each store kind. `open()` may be called several times: each call
// is another connection to the same database, standing in for another server process.

export type StoreDatabase = {
  open(): Promise<Database>;
  /** The settings that point a server process at this database (LEADS_DB_FILE or DATABASE_URL). */
  readonly serverEnv: Readonly<Record<string, string>>;
  /** Another connection that migrates only to `version`, as an older server would (in this thread). */
  openAtVersion(version: number): Promise<Database>;
  /**
   * How the database would run `sql` (the store's own placeholders): SQLite's EXPLAIN QUERY PLAN
   * details, or PostgreSQL's EXPLAIN with sequential scans discouraged, since a test table is too
   * small for the planner to prefer an index it would use on a large one.
   */
  explain(sql: string, params: readonly (string | number)[]): Promise<string>;
  /** Runs SQL past the store (rows as an older server wrote them). */
  execute(sql: string): Promise<void>;
  /** The setting that names this database, for a server built from a Config (buildApp). */
  readonly config: LeadStoreConfig;
  /** Every row of every table as the database holds it, read past the store (what a leaked copy would show). */
  rows(): Promise<Record<string, unknown[]>>;
  /** Closes every store this database opened and deletes the database. */
  remove(): Promise<void>;
};

export type StoreHarness = {
  readonly kind: 'sqlite' | 'sqlite on a worker thread' | 'postgres';
  /** Why this harness cannot run here, or undefined when it can. */
  readonly skipReason: string | undefined;
  createDatabase(): Promise<StoreDatabase>;
};

function createSqliteHarness(kind: StoreHarness['kind'], openStore: (file: string) => Database | Promise<Database>): StoreHarness {
  return {
    kind,
    skipReason: undefined,
    async createDatabase() {
      const folder = await mkdtemp(path.join(tmpdir(), 'lead-store-'));
      const file = path.join(folder, 'leads.sqlite');
      const opened: Database[] = [];
      return {
        serverEnv: { LEADS_DB_FILE: file },
        config: { kind: 'sqlite', file },
        async open() {
          const store = await openStore(file);
          opened.push(store);
          return store;
        },
        async openAtVersion(version) {
          const store = openSqliteStore(file, SQLITE_MIGRATIONS.slice(0, version));
          opened.push(store);
          return store;
        },
        async explain(sql, params) {
          const db = new DatabaseSync(file, { readOnly: true });
          try {
            const plan = db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params);
            return plan.map((row) => String(row.detail)).join('\n');
          } finally {
            db.close();
          }
        },
        async execute(sql) {
          // A running server may hold the write lock for a moment: wait for it, as the store does.
          const db = new DatabaseSync(file, { timeout: 5_000 });
          try {
            db.exec(sql);
          } finally {
            db.close();
          }
        },
        async rows() {
          const db = new DatabaseSync(file, { readOnly: true });
          try {
            const tables = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`).all();
            return Object.fromEntries(tables.map(({ name }) => [String(name), db.prepare(`SELECT * FROM "${String(name)}"`).all()]));
          } finally {
            db.close();
          }
        },
        async remove() {
          await Promise.all(opened.map((store) => store.close()));
          await rm(folder, { recursive: true, force: true });
        },
      };
    },
  };
}

export const sqliteHarness = createSqliteHarness('sqlite', openSqliteStore);
/** What the server uses: the same store on a worker thread. */
export const sqliteWorkerHarness = createSqliteHarness('sqlite on a worker thread', openSqliteWorkerStore);

export const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL?.trim() || undefined;

export const POSTGRES_SKIP_REASON =
  'TEST_DATABASE_URL is not set: the PostgreSQL lead-store tests are skipped (.ci/run starts PostgreSQL and sets it)';

// CI sets REQUIRE_POSTGRES=1: there a missing database fails the suite instead of skipping it.
const POSTGRES_REQUIRED = process.env.REQUIRE_POSTGRES === '1';

export type TestSchema = {
  readonly schema: string;
  /** The database's URL with `search_path` set to the schema. */
  readonly url: URL;
  /** Drops the schema and everything in it. */
  drop(): Promise<void>;
};

/**
 * A fresh schema named `${prefix}_` and a random suffix, so tests running at once (and other users of
 * the same database) never see each other's tables; each harness drops its own after the test.
 */
export async function createTestSchema(databaseUrl: string, prefix: string): Promise<TestSchema> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`CREATE SCHEMA ${schema}`);
  await admin.end();
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    schema,
    url,
    async drop() {
      const cleanup = new pg.Client({ connectionString: databaseUrl });
      await cleanup.connect();
      await cleanup.query(`DROP SCHEMA ${schema} CASCADE`);
      await cleanup.end();
    },
  };
}

/** Each database is a fresh schema in TEST_DATABASE_URL, reached through `search_path`. */
export const postgresHarness: StoreHarness = {
  kind: 'postgres',
  skipReason: TEST_DATABASE_URL === undefined && !POSTGRES_REQUIRED ? POSTGRES_SKIP_REASON : undefined,
  async createDatabase() {
    if (TEST_DATABASE_URL === undefined) throw new Error(POSTGRES_SKIP_REASON);
    return createPostgresDatabase(TEST_DATABASE_URL);
  },
};

/**
 * A PostgreSQL database of its own (made here, dropped by `drop`), whose harness gives a fresh schema
 * in it per test, for a file whose tests hold the migration lock or time a wait for it: advisory locks
 * count per database, so in TEST_DATABASE_URL's they would hold up every other suite's migrations
 * meanwhile, and another suite migrating would lengthen their waits. One per file, made in beforeAll:
 * making and dropping a database takes a checkpoint each, seconds on a busy machine.
 */
export async function ownPostgresDatabase(): Promise<{ readonly harness: StoreHarness; drop(): Promise<void> }> {
  if (TEST_DATABASE_URL === undefined) throw new Error(POSTGRES_SKIP_REASON);
  const name = `lead_own_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    harness: { kind: 'postgres', skipReason: undefined, createDatabase: () => createPostgresDatabase(url.toString()) },
    drop: () => admin(`DROP DATABASE ${name} WITH (FORCE)`),
  };
}

/** A fresh schema in the database at `databaseUrl`, reached through `search_path`. */
async function createPostgresDatabase(databaseUrl: string): Promise<StoreDatabase> {
  const { schema, url, drop } = await createTestSchema(databaseUrl, 'lead_test');
  const opened: Database[] = [];
  return {
    serverEnv: { DATABASE_URL: url.toString() },
    config: { kind: 'postgres', url: url.toString() },
    async open() {
      const store = await openPostgresStore(url.toString());
      opened.push(store);
      return store;
    },
    async openAtVersion(version) {
      const store = await openPostgresStore(url.toString(), POSTGRES_MIGRATIONS.slice(0, version));
      opened.push(store);
      return store;
    },
    async explain(sql, params) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await client.query('ANALYZE');
        await client.query('SET enable_seqscan = off');
        const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [...params]);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await client.end();
      }
    },
    async execute(sql) {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    },
    async rows() {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        const { rows: tables } = await client.query<{ table_name: string }>(
          'SELECT table_name FROM information_schema.tables WHERE table_schema = $1',
          [schema],
        );
        const rows: Record<string, unknown[]> = {};
        for (const { table_name: name } of tables) rows[name] = (await client.query(`SELECT * FROM "${name}"`)).rows;
        return rows;
      } finally {
        await client.end();
      }
    },
    async remove() {
      await Promise.all(opened.map((store) => store.close()));
      await drop();
    },
  };
}

export const STORE_HARNESSES = [sqliteHarness, sqliteWorkerHarness, postgresHarness] as const;

/** Says out loud why a suite is skipped, so a skipped PostgreSQL run is never mistaken for a pass. */
export function announceSkip(harness: StoreHarness): void {
  if (harness.skipReason !== undefined) console.warn(`[skipped] ${harness.kind}: ${harness.skipReason}`);
}
