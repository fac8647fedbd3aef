import type { Database } from './database-contract.ts';
import type { Migration } from '../../back-office/database/migrations.ts';
import { SQLITE_MIGRATIONS } from './lead-schema.ts';
import { openSqliteDatabase, sqliteStoreContext } from '../../back-office/database/sqlite-database.ts';
import { sqliteAccounts } from '../../back-office/accounts/account-store.sqlite.ts';
import { sqliteSessions } from '../../back-office/sessions/session-store.sqlite.ts';
import { sqliteSignInLimits } from '../../back-office/sign-in/sign-in-limit-store.sqlite.ts';
import { sqliteAudit } from './audit/audit-store.sqlite.ts';
import { sqliteCrmEvents } from './crm-events/crm-event-store.sqlite.ts';
import { sqliteCrmPace } from './crm-pace/crm-pace-store.sqlite.ts';
import { sqliteInbox } from './inbox/inbox-store.sqlite.ts';
import { sqliteNotifications } from './notifications/notification-store.sqlite.ts';
import { sqliteOutbox } from './outbox/outbox-store.sqlite.ts';
import { sqliteSales } from './sales/sales-store.sqlite.ts';
import { sqliteBookings } from './bookings/booking-store.sqlite.ts';
import { sqliteJobs } from './jobs/job-store.sqlite.ts';
import { sqliteStudioSchedule } from '../../back-office/studio-schedule/studio-schedule-store.sqlite.ts';

// The migrations are the concerns' (gathered in lead-schema.ts); named here too for the tests that
// open a database at an older version.
export { SQLITE_MIGRATIONS };

// node:sqlite store. Durability: WAL with synchronous=FULL, so a COMMIT returns only after the WAL
// is fsynced; insertLead commits before the route answers 201. Several processes may share the file
// (the server and the `npm run leads` CLI, or several servers): BEGIN IMMEDIATE takes SQLite's one
// write lock, which is what makes claimDue exclusive across processes.

// Another process holding the write lock (a CLI command, a second server) is waited for this long.
const BUSY_TIMEOUT_MS = 5_000;

/** The SQLite store: each concern's SQLite code over one connection, refusing calls once closed. */
export function openSqliteStore(file: string, migrations: readonly Migration[] = SQLITE_MIGRATIONS): Database {
  const db = openSqliteDatabase(file, {
    busyTimeoutMs: BUSY_TIMEOUT_MS,
    pragmas: ['journal_mode = WAL', 'synchronous = FULL', 'foreign_keys = ON'],
    migrations,
    table: 'schema_migrations',
    database: 'lead',
  });
  const { context, close } = sqliteStoreContext(db, file, 'The lead store is closed');
  const { get, ifOpen } = context;
  return {
    // The outbox first: closing commits its queued inserts before the downloads and the connection close.
    ...sqliteOutbox(context),
    ...sqliteInbox(context),
    ...sqliteAudit(context),
    ...sqliteCrmPace(context),
    ...sqliteCrmEvents(context),
    ...sqliteSignInLimits(context),
    ...sqliteAccounts(context),
    ...sqliteSessions(context),
    ...sqliteNotifications(context),
    ...sqliteSales(context),
    ...sqliteBookings(context),
    ...sqliteJobs(context),
    ...sqliteStudioSchedule(context),
    schemaVersion: ifOpen(() => Number(get('SELECT MAX(version) AS version FROM schema_migrations')?.version ?? 0)),
    ping: ifOpen(() => {
      get('SELECT 1 AS ok');
    }),
    close,
  };
}
