import { migrationLockWaitMessage } from '../store/database.ts';
import { openingStore } from '../store/store-open-error.ts';
import type { AnalyticsStore } from './analytics-store.ts';
import { openPostgresAnalyticsStore, POSTGRES_ANALYTICS_MIGRATIONS } from './postgres-analytics-store.ts';
import { openSqliteAnalyticsStore, SQLITE_ANALYTICS_MIGRATIONS } from './sqlite-analytics-store.ts';
import { openSqliteAnalyticsWorkerStore } from './sqlite-analytics-worker.ts';

export type AnalyticsStoreConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; migrationLockWaitMs?: number };

/**
 * Opens the configured analytics store and brings its schema up to date (migrations run here, at
 * start). A SQLite file runs on a worker thread so its commits (each an fsync) never stall the HTTP
 * thread; a database held in memory (tests: `LEADS_DB_FILE=:memory:`) has no commit to wait for and
 * stays on this thread, which spares each test server a thread's start. PostgreSQL uses its own small
 * pool beside the lead store's. One that cannot be opened rejects with a StoreOpenError.
 */
export async function openAnalyticsStore(
  config: AnalyticsStoreConfig,
  options: { onMigrationLockWait?: (message: string) => void } = {},
): Promise<AnalyticsStore> {
  return openingStore({ database: 'analytics', config }, async () => {
    if (config.kind === 'postgres') {
      return openPostgresAnalyticsStore(config.url, {
        lockWaitMs: config.migrationLockWaitMs,
        onLockWait: (seconds) => options.onMigrationLockWait?.(migrationLockWaitMessage('analytics', seconds)),
      });
    }
    return config.file === ':memory:' ? openSqliteAnalyticsStore(config.file) : openSqliteAnalyticsWorkerStore(config.file);
  });
}

/** The analytics schema version this code migrates its engine's store to. */
export function knownAnalyticsSchemaVersion(config: AnalyticsStoreConfig): number {
  return (config.kind === 'postgres' ? POSTGRES_ANALYTICS_MIGRATIONS : SQLITE_ANALYTICS_MIGRATIONS).length;
}
