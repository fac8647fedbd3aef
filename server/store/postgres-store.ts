import pg from 'pg';
import type { Database } from './database-contract.ts';
import type { Migration } from '../../back-office/database/migrations.ts';
import { POSTGRES_MIGRATIONS } from './lead-schema.ts';
import { migratePostgres, postgresStoreContext, type PostgresMigrationTarget } from '../../back-office/database/postgres-database.ts';
import { postgresAccounts } from '../../back-office/accounts/account-store.postgres.ts';
import { postgresSessions } from '../../back-office/sessions/session-store.postgres.ts';
import { postgresSignInLimits } from '../../back-office/sign-in/sign-in-limit-store.postgres.ts';
import { postgresAudit } from './audit/audit-store.postgres.ts';
import { postgresCrmEvents } from './crm-events/crm-event-store.postgres.ts';
import { postgresCrmPace } from './crm-pace/crm-pace-store.postgres.ts';
import { postgresInbox } from './inbox/inbox-store.postgres.ts';
import { postgresNotifications } from './notifications/notification-store.postgres.ts';
import { postgresOutbox } from './outbox/outbox-store.postgres.ts';
import { postgresSales } from './sales/sales-store.postgres.ts';
import { postgresBookings } from './bookings/booking-store.postgres.ts';
import { postgresJobs } from './jobs/job-store.postgres.ts';
import { postgresStudioSchedule } from '../../back-office/studio-schedule/studio-schedule-store.postgres.ts';

// The migrations are the concerns' (gathered in lead-schema.ts); named here too for the tests that
// open a database at an older version.
export { POSTGRES_MIGRATIONS };

// PostgreSQL store through `pg`. Commits are durable with the server's default synchronous_commit.
// Several server processes may share one database: claimDue takes due rows with
// `FOR UPDATE SKIP LOCKED` and stamps a lease, so no two workers hold the same lead at once; a lease
// outlives one attempt's timeout, and a crashed worker's lead is claimed again once it lapses.

// Any number that identifies this app's migration lock among other advisory locks on the database.
export const MIGRATION_LOCK_ID = 4_201_735_001;

/** How long another process's migration lock is waited for, and what to tell when the wait begins. */
export type MigrationLockOptions = Pick<PostgresMigrationTarget, 'lockWaitMs' | 'onLockWait'>;
const POOL_SIZE = 10;
const CONNECT_TIMEOUT_MS = 5_000;

/** The PostgreSQL store: each concern's PostgreSQL code over one pool, migrated at open. */
export async function openPostgresStore(
  url: string,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
  lock: MigrationLockOptions = {},
): Promise<Database> {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE, connectionTimeoutMillis: CONNECT_TIMEOUT_MS });
  // An idle client losing its connection (database restart) must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  try {
    await migratePostgres(pool, migrations, { table: 'schema_migrations', lockId: MIGRATION_LOCK_ID, database: 'lead', ...lock });
  } catch (error) {
    await pool.end();
    throw error;
  }
  const { context, close } = postgresStoreContext(pool, {
    url,
    connectTimeoutMs: CONNECT_TIMEOUT_MS,
    closedMessage: 'The lead store is closed',
  });
  const { query } = context;
  return {
    ...postgresOutbox(context),
    ...postgresInbox(context),
    ...postgresAudit(context),
    ...postgresCrmPace(context),
    ...postgresCrmEvents(context),
    ...postgresSignInLimits(context),
    ...postgresAccounts(context),
    ...postgresSessions(context),
    ...postgresNotifications(context),
    ...postgresSales(context),
    ...postgresBookings(context),
    ...postgresJobs(context),
    ...postgresStudioSchedule(context),
    schemaVersion: async () => {
      const [row] = await query('SELECT MAX(version) AS version FROM schema_migrations');
      return Number(row?.version ?? 0);
    },
    ping: async () => {
      await query('SELECT 1');
    },
    close,
  };
}
