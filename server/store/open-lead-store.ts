import type { LeadStoreConfig } from '../config.ts';
import type { LeadStore } from './lead-store.ts';
import { openPostgresStore } from './postgres-store.ts';
import { openSqliteWorkerStore } from './sqlite-worker-store.ts';
import { openingStore } from './store-open-error.ts';

/**
 * Opens the configured store and brings its schema up to date (migrations run here, at start).
 * SQLite runs on a worker thread so its synchronous commits never stall the HTTP thread. A store
 * that cannot be opened rejects with a StoreOpenError: one sentence saying where and why.
 */
export async function openLeadStore(config: LeadStoreConfig): Promise<LeadStore> {
  return openingStore({ database: 'lead', config }, () =>
    config.kind === 'sqlite' ? openSqliteWorkerStore(config.file) : openPostgresStore(config.url),
  );
}
