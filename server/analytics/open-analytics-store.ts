import type { AnalyticsStore } from './analytics-store.ts';
import { openPostgresAnalyticsStore } from './postgres-analytics-store.ts';
import { openSqliteAnalyticsWorkerStore } from './sqlite-analytics-worker.ts';

export type AnalyticsStoreConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };

/**
 * Opens the configured analytics store and brings its schema up to date (migrations run here, at
 * start). SQLite runs on a worker thread so its commits never stall the HTTP thread; PostgreSQL
 * uses its own small pool beside the lead store's.
 */
export async function openAnalyticsStore(config: AnalyticsStoreConfig): Promise<AnalyticsStore> {
  return config.kind === 'sqlite' ? openSqliteAnalyticsWorkerStore(config.file) : openPostgresAnalyticsStore(config.url);
}
