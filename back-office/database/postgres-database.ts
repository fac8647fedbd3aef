import type pg from 'pg';
import type { PoolClient, QueryResultRow } from 'pg';
import { auditValues, INSERT_AUDIT_SQL, type AuditEntryInput } from './audit-entry.ts';
import type { AuditDetailKind, AuditDetailResults } from './audit-detail.ts';
import { storeUnavailableError } from './store-unavailable.ts';
import { assertMigrationsOrdered, pendingMigrations } from './migrations.ts';
import { firstLineOf, MigrationRefusal } from './migration-refusal.ts';
import type { Migration } from './migrations.ts';

// What every store kept in PostgreSQL (the lead store, the analytics store) shares: the migration
// runner and the transaction runner. Each store has its own version table and its own lock, so two
// stores sharing a database migrate apart and never wait for each other.

export type PostgresMigrationTarget = {
  /** The table recording the versions applied (created if missing). */
  readonly table: string;
  /** The advisory lock held while migrating: any number no other advisory lock on the database uses. */
  readonly lockId: number;
  /** Which database this is, for the error message: 'lead' names "The lead database". */
  readonly database: string;
  /** How long another process holding the lock is waited for (MIGRATION_LOCK_WAIT_SECONDS). */
  readonly lockWaitMs?: number;
  /** Told once when the lock is held elsewhere and the wait begins, with the seconds it may last. */
  readonly onLockWait?: (waitSeconds: number) => void;
};

/** MIGRATION_LOCK_WAIT_SECONDS's default: long enough for a release's migrations on a large database. */
export const DEFAULT_MIGRATION_LOCK_WAIT_MS = 120_000;
// How often a held lock is asked for again while waiting.
const LOCK_RETRY_MS = 100;

/**
 * Applies the pending migrations in one transaction under the target's advisory lock. Refuses with a
 * MigrationRefusal, the transaction undone, when the database is newer than `migrations`, when a
 * migration fails, or when another process holds the lock past `lockWaitMs`.
 */
export async function migratePostgres(pool: pg.Pool, migrations: readonly Migration[], target: PostgresMigrationTarget): Promise<void> {
  const { table, lockId, database, lockWaitMs = DEFAULT_MIGRATION_LOCK_WAIT_MS, onLockWait } = target;
  assertMigrationsOrdered(migrations);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    // Several servers starting together: one migrates, the others wait here (a bounded time, so a
    // process stuck while holding it never keeps the rest waiting for ever) and then find nothing to do.
    await takeMigrationLock(client, lockId, lockWaitMs, () => onLockWait?.(Math.round(lockWaitMs / 1000)), database);
    await client.query(`CREATE TABLE IF NOT EXISTS ${table} (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at BIGINT NOT NULL)`);
    const { rows } = await client.query(`SELECT MAX(version) AS version FROM ${table}`);
    const applied = Number(rows[0]?.version ?? 0);
    if (applied > migrations.length) {
      throw new MigrationRefusal({ kind: 'newer', database, found: applied, known: migrations.length });
    }
    for (const migration of pendingMigrations(migrations, applied)) {
      try {
        await client.query(migration.sql);
      } catch (error) {
        // Every pending version is in this one transaction: the rollback below keeps none of them.
        throw new MigrationRefusal(
          { kind: 'failed', database, version: migration.version, kept: applied, reason: firstLineOf(error) },
          { cause: error },
        );
      }
      await client.query(`INSERT INTO ${table} (version, name, applied_at) VALUES ($1, $2, $3)`, [
        migration.version,
        migration.name,
        Date.now(),
      ]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/**
 * Takes the transaction's advisory lock, asking again every LOCK_RETRY_MS while another process holds
 * it; `onWait` runs once, when the first ask finds it held. Past `waitMs` it refuses (lock-wait).
 */
async function takeMigrationLock(client: PoolClient, lockId: number, waitMs: number, onWait: () => void, database: string): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let attempt = 0; ; attempt += 1) {
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS locked', [lockId]);
    if (rows[0]?.locked === true) return;
    if (attempt === 0) onWait();
    const left = deadline - Date.now();
    if (left <= 0)
      throw new MigrationRefusal({ kind: 'lock-wait', database, waitedSeconds: Math.round(waitMs / 1000), engine: 'postgres' });
    await new Promise((resolve) => setTimeout(resolve, Math.min(LOCK_RETRY_MS, left)));
  }
}

/**
 * Runs `work` in one transaction on a client of `pool`, rolled back on any error. A pool that cannot
 * give a client (the database down, restarting or out of connections) is the store's "briefly
 * unavailable" error: the caller should try again shortly.
 */
export async function inPostgresTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  let client: pg.PoolClient;
  try {
    client = await pool.connect();
  } catch (error) {
    throw storeUnavailableError(error);
  }
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}

/** What each concern's PostgreSQL code works with: the pool, its queries and its transactions. */
export type PostgresStoreContext = {
  readonly pool: pg.Pool;
  /** The connection string, for a connection of its own outside the pool (a download). */
  readonly url: string;
  readonly connectTimeoutMs: number;
  /** One statement on a pooled connection; refused once the store is closing. */
  query<R extends QueryResultRow>(sql: string, params?: unknown[]): Promise<R[]>;
  /** `work` in one transaction (inPostgresTransaction); refused once the store is closing. */
  transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T>;
  /**
   * Writes an operation's audit entry on the operation's transaction's client, once the change is
   * made, with its result when the entry words its detail from it.
   */
  writeAudit<Kind extends AuditDetailKind = never>(
    client: PoolClient,
    audit: AuditEntryInput<Kind> | undefined,
    now: number,
    result?: AuditDetailResults[Kind],
  ): Promise<void>;
  isClosed(): boolean;
  /** Runs when the store closes, before the pool ends (a concern's open reads). */
  onClose(hook: () => void | Promise<void>): void;
};

/** The context over a pool; `close` runs the concerns' hooks, then ends the pool. */
export function postgresStoreContext(
  pool: pg.Pool,
  options: { readonly url: string; readonly connectTimeoutMs: number; readonly closedMessage: string },
): { context: PostgresStoreContext; close(): Promise<void> } {
  const hooks: Array<() => void | Promise<void>> = [];
  let closed = false;
  const context: PostgresStoreContext = {
    pool,
    url: options.url,
    connectTimeoutMs: options.connectTimeoutMs,
    async query<R extends QueryResultRow>(sql: string, params: unknown[] = []): Promise<R[]> {
      if (closed) throw new Error(options.closedMessage);
      return (await pool.query<R>(sql, params)).rows;
    },
    async transaction<T>(work: (client: PoolClient) => Promise<T>): Promise<T> {
      if (closed) throw new Error(options.closedMessage);
      return inPostgresTransaction(pool, work);
    },
    async writeAudit(client, audit, now, result) {
      if (audit !== undefined) await client.query(INSERT_AUDIT_SQL.postgres, auditValues(audit, now, result));
    },
    isClosed: () => closed,
    onClose: (hook) => hooks.push(hook),
  };
  return {
    context,
    async close() {
      if (closed) return;
      closed = true;
      for (const hook of hooks) await hook();
      await pool.end();
    },
  };
}
