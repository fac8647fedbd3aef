import type { AccountStore } from '../../back-office/accounts/account-store.ts';
import type { SessionStore } from '../../back-office/sessions/session-store.ts';
import type { SignInLimitStore } from '../../back-office/sign-in/sign-in-limit-store.ts';
import type { AuditStore } from './audit/audit-store.ts';
import type { CrmEventStore } from './crm-events/crm-event-store.ts';
import type { CrmPaceStore } from './crm-pace/crm-pace-store.ts';
import type { InboxStore } from './inbox/inbox-store.ts';
import type { NotificationStore } from './notifications/notification-store.ts';
import type { OutboxStore } from './outbox/outbox-store.ts';
import type { SalesStore } from './sales/sales-store.ts';
import type { BookingStore } from './bookings/booking-store.ts';
import type { JobStore } from './jobs/job-store.ts';
import type { StudioScheduleStore } from '../../back-office/studio-schedule/studio-schedule-store.ts';

// The shape of the whole database, apart from the module that opens it, so the engines that
// build it can name it without importing their own opener.

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
  SalesStore &
  CrmEventStore &
  BookingStore &
  JobStore &
  StudioScheduleStore &
  DatabaseLifecycle;
