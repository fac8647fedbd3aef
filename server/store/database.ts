import type { AccountStore } from '../../back-office/accounts/account-store.ts';
import type { SessionStore } from '../../back-office/sessions/session-store.ts';
import type { SignInLimitStore } from '../../back-office/sign-in/sign-in-limit-store.ts';
import type { LeadStoreConfig } from '../config.ts';
import type { AuditStore } from './audit/audit-store.ts';
import type { CrmPaceStore } from './crm-pace/crm-pace-store.ts';
import type { InboxStore } from './inbox/inbox-store.ts';
import type { NotificationStore } from './notifications/notification-store.ts';
import type { OutboxStore } from './outbox/outbox-store.ts';
import { openPostgresStore } from './postgres-store.ts';
import { openSqliteWorkerStore } from './sqlite-worker-store.ts';
import { openingStore } from './store-open-error.ts';

// The one database a process opens (the relay, the studio, the CLI tools): every concern's store
// over one SQLite file or one PostgreSQL database, so there is one thing to back up and secure.
// Each consumer takes only the role interfaces it uses (the studio: accounts, sessions and sign-in
// limits); this module is the only one that knows the engines.

/** What the database itself answers: its schema version, whether it is reachable, and closing it. */
export interface DatabaseLifecycle {
  /** The applied schema version. */
  schemaVersion(): Promise<number>;
  /** Resolves when the store answers a trivial query. */
  ping(signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

/** The whole database: every concern's store plus its lifecycle. */
export type Database = InboxStore &
  OutboxStore &
  AuditStore &
  AccountStore &
  SessionStore &
  SignInLimitStore &
  NotificationStore &
  CrmPaceStore &
  DatabaseLifecycle;

/**
 * Opens the configured database and brings its schema up to date (migrations run here, at start).
 * SQLite runs on a worker thread so its synchronous commits never stall the HTTP thread. A database
 * that cannot be opened rejects with a StoreOpenError: one sentence saying where and why.
 */
export async function openDatabase(config: LeadStoreConfig): Promise<Database> {
  return openingStore({ database: 'lead', config }, () =>
    config.kind === 'sqlite' ? openSqliteWorkerStore(config.file) : openPostgresStore(config.url),
  );
}
