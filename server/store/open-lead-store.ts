import type { LeadStoreConfig } from '../config.ts';
import type { LeadStore } from './lead-store.ts';
import { openPostgresStore } from './postgres-store.ts';
import { openSqliteStore } from './sqlite-store.ts';

/** Opens the configured store and brings its schema up to date (migrations run here, at start). */
export async function openLeadStore(config: LeadStoreConfig): Promise<LeadStore> {
  return config.kind === 'sqlite' ? openSqliteStore(config.file) : openPostgresStore(config.url);
}
