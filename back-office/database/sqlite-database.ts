import { mkdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import type { SQLInputValue, StatementSync } from 'node:sqlite';
import { storeUnavailableError } from './store-unavailable.ts';
import { auditValues, INSERT_AUDIT_SQL, type AuditEntryInput } from './audit-entry.ts';
import type { AuditDetailKind, AuditDetailResults } from './audit-detail.ts';
import { assertMigrationsOrdered, pendingMigrations } from './migrations.ts';
import { firstLineOf, MigrationRefusal } from './migration-refusal.ts';
import type { Migration } from './migrations.ts';

// What the node:sqlite stores (the lead store, the analytics store) share: opening the file (its
// folder made if missing, its pragmas set, its migrations applied), statements prepared once and
// reused, and telling a lock held by another process from other errors. Each store has its own
// version table, so two stores' files never mistake each other's versions.

export type SqliteRow = Record<string, SQLInputValue>;

// SQLite's primary result codes for a lock held elsewhere (extended codes keep them in the low byte).
const SQLITE_BUSY = 5;
const SQLITE_LOCKED = 6;

/** Whether an error is another connection holding the lock past the busy timeout (try again later). */
export function isBusy(error: unknown): boolean {
  const code = (error as { errcode?: unknown } | null)?.errcode;
  return typeof code === 'number' && ((code & 0xff) === SQLITE_BUSY || (code & 0xff) === SQLITE_LOCKED);
}

export type SqliteDatabaseOptions = {
  /** How long a write lock held by another process is waited for. */
  readonly busyTimeoutMs: number;
  /** Each run as `PRAGMA …`, in this order, before migrating. */
  readonly pragmas: readonly string[];
  readonly migrations: readonly Migration[];
  /** The table recording the versions applied (created if missing). */
  readonly table: string;
  /** Which database this is, for the error message: 'lead' names "The lead database". */
  readonly database: string;
};

/**
 * Makes the folder a database file goes in, one level at a time, or says plainly why it cannot: a
 * part of the path that is a file, or a folder the system will not create. (Node's recursive mkdir
 * can loop for ever on a folder that cannot be made, such as one under /proc, and a thread stuck in
 * it can be neither stopped nor awaited.)
 */
export function makeDatabaseFolder(file: string): void {
  if (file === ':memory:') return;
  const missing: string[] = [];
  let folder = path.dirname(path.resolve(file));
  for (;;) {
    const found = statSync(folder, { throwIfNoEntry: false });
    if (found?.isDirectory()) break;
    if (found !== undefined) throw new Error(`${folder} is a file, not a folder`);
    const parent = path.dirname(folder);
    if (parent === folder) break;
    missing.unshift(folder);
    folder = parent;
  }
  for (const level of missing) {
    try {
      mkdirSync(level);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST') continue;
      throw new Error(`the folder ${level} cannot be created (${code ?? 'unknown error'})`);
    }
  }
}

export function openSqliteDatabase(file: string, options: SqliteDatabaseOptions): DatabaseSync {
  makeDatabaseFolder(file);
  const db = new DatabaseSync(file, { timeout: options.busyTimeoutMs });
  try {
    for (const pragma of options.pragmas) db.exec(`PRAGMA ${pragma}`);
    migrate(db, options);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

// Pending migrations run in one write transaction: BEGIN IMMEDIATE waits the busy timeout for a write
// lock another process holds, then refuses (lock-wait). A newer database or a failed migration is a
// MigrationRefusal too, the transaction undone, so the file stays at the version it had.
function migrate(db: DatabaseSync, { migrations, table, database, busyTimeoutMs }: SqliteDatabaseOptions): void {
  assertMigrationsOrdered(migrations);
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    if (!isBusy(error)) throw error;
    throw new MigrationRefusal(
      { kind: 'lock-wait', database, waitedSeconds: Math.round(busyTimeoutMs / 1000), engine: 'sqlite' },
      { cause: error },
    );
  }
  try {
    db.exec(`CREATE TABLE IF NOT EXISTS ${table} (
      version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at INTEGER NOT NULL)`);
    const row = db.prepare(`SELECT MAX(version) AS version FROM ${table}`).get() as SqliteRow | undefined;
    const applied = Number(row?.version ?? 0);
    if (applied > migrations.length) {
      throw new MigrationRefusal({ kind: 'newer', database, found: applied, known: migrations.length });
    }
    for (const migration of pendingMigrations(migrations, applied)) {
      try {
        db.exec(migration.sql);
      } catch (error) {
        throw new MigrationRefusal(
          { kind: 'failed', database, version: migration.version, kept: applied, reason: firstLineOf(error) },
          { cause: error },
        );
      }
      db.prepare(`INSERT INTO ${table} (version, name, applied_at) VALUES (?, ?, ?)`).run(migration.version, migration.name, Date.now());
    }
    db.exec('COMMIT');
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw error;
  }
}

/** Rows, one row and a change count by SQL text, each statement prepared the first time it is used. */
export function cachedStatements(db: DatabaseSync) {
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let statement = statements.get(sql);
    if (statement === undefined) {
      statement = db.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    all: (sql: string, ...params: SQLInputValue[]): SqliteRow[] => prepare(sql).all(...params) as SqliteRow[],
    get: (sql: string, ...params: SQLInputValue[]): SqliteRow | undefined => prepare(sql).get(...params) as SqliteRow | undefined,
    run: (sql: string, ...params: SQLInputValue[]): number => Number(prepare(sql).run(...params).changes),
  };
}

/**
 * Runs `work` in one write transaction (BEGIN IMMEDIATE: the write lock is taken at the start, so a
 * busy database fails fast instead of mid-way), rolled back on any error; a lock another process held
 * past the busy timeout is the store's "briefly unavailable" error, which callers answer with a retry.
 */
export function inSqliteTransaction<T>(db: DatabaseSync, work: () => T): T {
  try {
    db.exec('BEGIN IMMEDIATE');
    const result = work();
    db.exec('COMMIT');
    return result;
  } catch (error) {
    if (db.isTransaction) db.exec('ROLLBACK');
    throw isBusy(error) ? storeUnavailableError(error) : error;
  }
}

/**
 * 'full': COMMIT returns once the WAL is fsynced (leads, retries, erasures). 'bookkeeping': the
 * outbox's claims and attempt records commit without their own fsync (synchronous=NORMAL). They
 * still survive a process crash (the WAL is written before COMMIT returns) and are fsynced with the
 * next full commit; only a power cut in between can lose them, and then a lead is sent once more,
 * which the lease design already allows. This takes two of every three fsyncs off the write path.
 */
export type Durability = 'full' | 'bookkeeping';

/** What each concern's SQLite code works with: one connection, its statements, its transactions. */
export type SqliteStoreContext = ReturnType<typeof cachedStatements> & {
  readonly db: DatabaseSync;
  /** The database file (':memory:' in some tests). */
  readonly file: string;
  transaction<T>(work: () => T, durability?: Durability): T;
  /**
   * Writes an operation's audit entry; call it inside the operation's transaction, once the change is
   * made, with its result when the entry words its detail from it.
   */
  writeAudit<Kind extends AuditDetailKind = never>(
    audit: AuditEntryInput<Kind> | undefined,
    now: number,
    result?: AuditDetailResults[Kind],
  ): void;
  /** A method that refuses once the store is closing, answered as a promise like every store method. */
  ifOpen<A extends unknown[], T>(work: (...args: A) => T): (...args: A) => Promise<Awaited<T>>;
  isClosed(): boolean;
  /** Runs when the store closes, before the connection does (a concern's pending work, its open reads). */
  onClose(hook: () => void | Promise<void>): void;
};

/** The context over an open database; `close` runs the concerns' hooks, then closes the connection. */
export function sqliteStoreContext(
  db: DatabaseSync,
  file: string,
  closedMessage: string,
): { context: SqliteStoreContext; close(): Promise<void> } {
  const statements = cachedStatements(db);
  const hooks: Array<() => void | Promise<void>> = [];
  let closed = false;
  const context: SqliteStoreContext = {
    ...statements,
    db,
    file,
    transaction<T>(work: () => T, durability: Durability = 'full'): T {
      if (durability === 'bookkeeping') db.exec('PRAGMA synchronous = NORMAL');
      try {
        return inSqliteTransaction(db, work);
      } finally {
        if (durability === 'bookkeeping') db.exec('PRAGMA synchronous = FULL');
      }
    },
    writeAudit(audit, now, result) {
      if (audit !== undefined) statements.run(INSERT_AUDIT_SQL.sqlite, ...auditValues(audit, now, result));
    },
    ifOpen:
      <A extends unknown[], T>(work: (...args: A) => T) =>
      async (...args: A): Promise<Awaited<T>> => {
        if (closed) throw new Error(closedMessage);
        return await work(...args);
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
      db.close();
    },
  };
}

/** `count` question marks for an IN list. */
export function placeholders(count: number): string {
  return Array.from({ length: count }, () => '?').join(', ');
}

/** A nullable number column as a number or undefined. */
export function optionalTime(value: SQLInputValue | undefined): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}
