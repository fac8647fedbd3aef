import { gatherMigrations } from '../../back-office/database/migrations.ts';
import type { Migration, MigrationStep, SchemaVersion } from '../../back-office/database/migrations.ts';
import { ACCOUNT_MIGRATIONS } from '../../back-office/accounts/account-migrations.ts';
import { SESSION_MIGRATIONS } from '../../back-office/sessions/session-migrations.ts';
import { SIGN_IN_LIMIT_MIGRATIONS } from '../../back-office/sign-in/sign-in-limit-migrations.ts';
import { AUDIT_MIGRATIONS } from './audit/audit-migrations.ts';
import { CRM_EVENT_MIGRATIONS } from './crm-events/crm-event-migrations.ts';
import { CRM_PACE_MIGRATIONS } from './crm-pace/crm-pace-migrations.ts';
import { INBOX_MIGRATIONS } from './inbox/inbox-migrations.ts';
import { NOTIFICATION_MIGRATIONS } from './notifications/notification-migrations.ts';
import { OUTBOX_MIGRATIONS } from './outbox/outbox-migrations.ts';
import { SALES_MIGRATIONS } from './sales/sales-migrations.ts';
import { BOOKING_MIGRATIONS } from './bookings/booking-migrations.ts';
import { JOB_MIGRATIONS } from './jobs/job-migrations.ts';
import { RATE_LIMIT_MIGRATIONS } from './rate-limits/rate-limit-migrations.ts';
import { STUDIO_SCHEDULE_MIGRATIONS } from '../../back-office/studio-schedule/studio-schedule-migrations.ts';

// The lead database's schema: its versions, and the concerns whose migration steps make them. Each
// concern keeps its steps beside its code; a version that changed several concerns has a step in
// each, and here they are put back together into one migration per version, applied and recorded
// as that version exactly as when each engine's list was written in one place (their version numbers
// and names never change: existing databases open and upgrade as before).

/** Every version, oldest first, with the name recorded in `schema_migrations` when it is applied. */
export const LEAD_SCHEMA_VERSIONS: readonly SchemaVersion[] = [
  { version: 1, name: 'leads, deliveries and delivery attempts' },
  { version: 2, name: 'the body hash that came with each Idempotency-Key' },
  { version: 3, name: 'back-office accounts and their sessions' },
  { version: 4, name: 'the console: inbox columns and indexes, audit log, CRM pace' },
  { version: 5, name: 'notifications, their watermark, delivery incidents and per-form switches' },
  { version: 6, name: 'each session belongs to the app that started it' },
  { version: 7, name: 'sign-in attempts and known addresses, shared by every app and process' },
  { version: 8, name: 'an index of the leads that are not spam, newest first' },
  { version: 9, name: 'the sales queue: owners, statuses, activities, assignment rules, working hours and CRM follow-up events' },
  { version: 10, name: 'meetings booked with the booking provider, and who gets the weekly summary' },
  { version: 11, name: 'several servers: each background job run once, shared rate limits, the studio schedule' },
];

/**
 * The concerns, in the order their steps of one version run: a table before the ones that refer to
 * it (the outbox's leads before everything about a lead, the accounts before their sessions and
 * the sales people).
 */
const CONCERNS = [
  OUTBOX_MIGRATIONS,
  INBOX_MIGRATIONS,
  AUDIT_MIGRATIONS,
  CRM_PACE_MIGRATIONS,
  ACCOUNT_MIGRATIONS,
  SESSION_MIGRATIONS,
  SIGN_IN_LIMIT_MIGRATIONS,
  NOTIFICATION_MIGRATIONS,
  CRM_EVENT_MIGRATIONS,
  // After the leads and the accounts its tables refer to.
  SALES_MIGRATIONS,
  BOOKING_MIGRATIONS,
  JOB_MIGRATIONS,
  RATE_LIMIT_MIGRATIONS,
  STUDIO_SCHEDULE_MIGRATIONS,
] as const;

function gather(steps: (concern: (typeof CONCERNS)[number]) => readonly MigrationStep[]): readonly Migration[] {
  return gatherMigrations(LEAD_SCHEMA_VERSIONS, CONCERNS.map(steps));
}

export const SQLITE_MIGRATIONS: readonly Migration[] = gather((concern) => concern.sqlite);
export const POSTGRES_MIGRATIONS: readonly Migration[] = gather((concern) => concern.postgres);
