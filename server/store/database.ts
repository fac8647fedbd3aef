import type { LeadStoreConfig } from '../config.ts';
import type { Database } from './database-contract.ts';
import type { RateLimitStore } from './rate-limits/rate-limit-store.ts';
import { openPostgresRateLimitStore } from './rate-limits/rate-limit-store.postgres.ts';
import { openPostgresStore, POSTGRES_MIGRATIONS } from './postgres-store.ts';
import { openSqliteWorkerStore } from './sqlite-worker-store.ts';
import { openingStore } from './store-open-error.ts';
export { exitCodeOfStoreOpenFailure } from './store-open-error.ts';

// The one database a process opens (the relay, the studio, the CLI tools): every concern's store
// over one SQLite file or one PostgreSQL database, so there is one thing to back up and secure.
// Each consumer takes only the role interfaces it uses (the studio: accounts, sessions and sign-in
// limits); this module is the only one that knows the engines.

export type { Database, DatabaseLifecycle } from './database-contract.ts';
export type { KeepValue, RateLimitStore, WindowHits } from './rate-limits/rate-limit-store.ts';
/** The settings that say which database to open (LEADS_DB_FILE or DATABASE_URL), read from the environment. */
export { parseLeadStoreConfig, type LeadStoreConfig } from '../config.ts';

/**
 * Opens the configured database and brings its schema up to date (migrations run here, at start).
 * SQLite runs on a worker thread so its synchronous commits never stall the HTTP thread. A database
 * that cannot be opened rejects with a StoreOpenError: one sentence saying where and why.
 */
export async function openDatabase(config: LeadStoreConfig, options: OpenDatabaseOptions = {}): Promise<Database> {
  const { onMigrationLockWait = tellOnStderr } = options;
  return openingStore({ database: 'lead', config }, () =>
    config.kind === 'sqlite'
      ? openSqliteWorkerStore(config.file)
      : openPostgresStore(config.url, POSTGRES_MIGRATIONS, {
          lockWaitMs: config.migrationLockWaitMs,
          onLockWait: (seconds) => onMigrationLockWait(migrationLockWaitMessage('lead', seconds)),
        }),
  );
}

/**
 * The rate-limit counts every server shares, on a small pool of their own: only on PostgreSQL (several
 * servers); with SQLite there is one process, which counts in its own memory, so there is none. Its
 * table is made by the lead database's migrations (openDatabase), which run before any request.
 */
export function openRateLimitStore(config: LeadStoreConfig): RateLimitStore | undefined {
  return config.kind === 'postgres' ? openPostgresRateLimitStore(config.url) : undefined;
}

export type OpenDatabaseOptions = {
  /**
   * Told once when another process is migrating the database and this one waits for it (PostgreSQL).
   * By default the sentence goes to stderr, as the studio and the command line show it; the server logs it.
   */
  readonly onMigrationLockWait?: (message: string) => void;
};

/** What a start waiting for another process's migration says, once. */
export function migrationLockWaitMessage(database: 'lead' | 'analytics', seconds: number): string {
  return `another server is migrating the ${database} database: waiting up to ${seconds} s`;
}

function tellOnStderr(message: string): void {
  process.stderr.write(`${message[0]!.toUpperCase()}${message.slice(1)}.\n`);
}
