import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { AnalyticsStore } from '../analytics/analytics-store.ts';
import { openPostgresAnalyticsStore, POSTGRES_ANALYTICS_MIGRATIONS } from '../analytics/postgres-analytics-store.ts';
import { openSqliteAnalyticsWorkerStore } from '../analytics/sqlite-analytics-worker.ts';
import { openSqliteAnalyticsStore, SQLITE_ANALYTICS_MIGRATIONS } from '../analytics/sqlite-analytics-store.ts';
import type { Database } from '../store/database.ts';
import { openPostgresStore } from '../store/postgres-store.ts';
import { createTestSchema, TEST_DATABASE_URL } from './store-harness.ts';

// One empty analytics database per test for each store kind, as store-harness.ts does for the lead
// store. `open()` may be called several times: each call is another connection to the same
// database, standing in for another server process.

export type AnalyticsDatabase = {
  open(): Promise<AnalyticsStore>;
  /** Every row of every table as the database holds it, read past the store. */
  rows(): Promise<Record<string, Record<string, unknown>[]>>;
  /** The column names of every table, read past the store. */
  columns(): Promise<Record<string, string[]>>;
  /**
   * How the database would run `sql` (in the store's own placeholders): SQLite's EXPLAIN QUERY PLAN
   * details, or PostgreSQL's EXPLAIN with sequential scans discouraged, since a test table is too
   * small for the planner to prefer an index it would use on a large one.
   */
  explain(sql: string, params: readonly (string | number)[]): Promise<string>;
  /** The store migrated only up to `version` (as an older server left it), on this thread. */
  openAtVersion(version: number): Promise<AnalyticsStore>;
  /** Runs SQL on the database past the store, as an older server would have written it. */
  execute(sql: string): Promise<void>;
  /** The lead store of the same database (PostgreSQL only: SQLite's analytics live in a file of their own). */
  openLeadStore?(): Promise<Database>;
  /** Closes every store this database opened and deletes the database. */
  remove(): Promise<void>;
};

export type AnalyticsHarness = {
  readonly kind: 'sqlite' | 'sqlite on a worker thread' | 'postgres';
  /** Why this harness cannot run here, or undefined when it can. */
  readonly skipReason: string | undefined;
  createDatabase(): Promise<AnalyticsDatabase>;
};

function readSqlite<T>(file: string, read: (db: DatabaseSync) => T): T {
  const db = new DatabaseSync(file, { readOnly: true });
  try {
    return read(db);
  } finally {
    db.close();
  }
}

function sqliteTables(db: DatabaseSync): string[] {
  return db
    .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
    .all()
    .map(({ name }) => String(name));
}

function createSqliteHarness(
  kind: AnalyticsHarness['kind'],
  openStore: (file: string) => AnalyticsStore | Promise<AnalyticsStore>,
): AnalyticsHarness {
  return {
    kind,
    skipReason: undefined,
    async createDatabase() {
      const folder = await mkdtemp(path.join(tmpdir(), 'analytics-store-'));
      const file = path.join(folder, 'analytics.sqlite');
      const opened: AnalyticsStore[] = [];
      return {
        async open() {
          const store = await openStore(file);
          opened.push(store);
          return store;
        },
        async openAtVersion(version) {
          const store = openSqliteAnalyticsStore(file, SQLITE_ANALYTICS_MIGRATIONS.slice(0, version));
          opened.push(store);
          return store;
        },
        async execute(sql) {
          const db = new DatabaseSync(file);
          try {
            db.exec(sql);
          } finally {
            db.close();
          }
        },
        async rows() {
          return readSqlite(file, (db) =>
            Object.fromEntries(
              sqliteTables(db).map((name) => [name, db.prepare(`SELECT * FROM "${name}"`).all() as Record<string, unknown>[]]),
            ),
          );
        },
        async columns() {
          return readSqlite(file, (db) =>
            Object.fromEntries(
              sqliteTables(db).map((name) => [
                name,
                db
                  .prepare(`SELECT name FROM pragma_table_info(?)`)
                  .all(name)
                  .map((row) => String(row.name)),
              ]),
            ),
          );
        },
        async explain(sql, params) {
          return readSqlite(file, (db) =>
            db
              .prepare(`EXPLAIN QUERY PLAN ${sql}`)
              .all(...params)
              .map((row) => String(row.detail))
              .join('\n'),
          );
        },
        async remove() {
          await Promise.all(opened.map((store) => store.close()));
          await rm(folder, { recursive: true, force: true });
        },
      };
    },
  };
}

export const sqliteAnalyticsHarness = createSqliteHarness('sqlite', openSqliteAnalyticsStore);
/** What the server uses: the same store on a worker thread. */
export const sqliteWorkerAnalyticsHarness = createSqliteHarness('sqlite on a worker thread', openSqliteAnalyticsWorkerStore);

const POSTGRES_SKIP_REASON =
  'TEST_DATABASE_URL is not set: the PostgreSQL analytics-store tests are skipped (.ci/run starts PostgreSQL and sets it)';

// CI sets REQUIRE_POSTGRES=1: there a missing database fails the suite instead of skipping it.
const POSTGRES_REQUIRED = process.env.REQUIRE_POSTGRES === '1';

/** Each database is a fresh schema in TEST_DATABASE_URL, reached through `search_path`, dropped after. */
export const postgresAnalyticsHarness: AnalyticsHarness = {
  kind: 'postgres',
  skipReason: TEST_DATABASE_URL === undefined && !POSTGRES_REQUIRED ? POSTGRES_SKIP_REASON : undefined,
  async createDatabase() {
    if (TEST_DATABASE_URL === undefined) throw new Error(POSTGRES_SKIP_REASON);
    const { schema, url, drop } = await createTestSchema(TEST_DATABASE_URL, 'analytics_test');
    const opened: Array<{ close(): Promise<void> }> = [];
    async function withClient<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
      const client = new pg.Client({ connectionString: url.toString() });
      await client.connect();
      try {
        return await work(client);
      } finally {
        await client.end();
      }
    }
    const tables = (client: pg.Client) =>
      client
        .query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [
          schema,
        ])
        .then(({ rows }) => rows.map((row) => row.table_name));
    return {
      async open() {
        const store = await openPostgresAnalyticsStore(url.toString());
        opened.push(store);
        return store;
      },
      async openAtVersion(version) {
        const store = await openPostgresAnalyticsStore(url.toString(), { migrations: POSTGRES_ANALYTICS_MIGRATIONS.slice(0, version) });
        opened.push(store);
        return store;
      },
      execute: (sql) =>
        withClient(async (client) => {
          await client.query(sql);
        }),
      async openLeadStore() {
        const store = await openPostgresStore(url.toString());
        opened.push(store);
        return store;
      },
      rows: () =>
        withClient(async (client) => {
          const rows: Record<string, Record<string, unknown>[]> = {};
          for (const name of await tables(client)) rows[name] = (await client.query(`SELECT * FROM "${name}"`)).rows;
          return rows;
        }),
      columns: () =>
        withClient(async (client) => {
          const columns: Record<string, string[]> = {};
          for (const name of await tables(client)) {
            const { rows } = await client.query<{ column_name: string }>(
              'SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2',
              [schema, name],
            );
            columns[name] = rows.map((row) => row.column_name);
          }
          return columns;
        }),
      explain: (sql, params) =>
        withClient(async (client) => {
          await client.query('ANALYZE');
          await client.query('SET enable_seqscan = off');
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sql}`, [...params]);
          return rows.map((row) => row['QUERY PLAN']).join('\n');
        }),
      async remove() {
        await Promise.all(opened.map((store) => store.close()));
        await drop();
      },
    };
  },
};

export const ANALYTICS_HARNESSES = [sqliteAnalyticsHarness, sqliteWorkerAnalyticsHarness, postgresAnalyticsHarness] as const;

/** Says out loud why a suite is skipped, so a skipped PostgreSQL run is never mistaken for a pass. */
export function announceSkip(harness: AnalyticsHarness): void {
  if (harness.skipReason !== undefined) console.warn(`[skipped] ${harness.kind}: ${harness.skipReason}`);
}
