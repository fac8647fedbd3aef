// Turns a database row into the store's records. Both stores use the same column names, so one
// mapping serves SQLite and PostgreSQL.
import type { AttemptRecord, DeliveryState } from './outbox/outbox-store.ts';
import type { AuditPageResult, AuditRecord } from './audit/audit-store.ts';
import type {
  ClaimedNotification,
  IncidentRecord,
  NotificationChannel,
  NotificationDetail,
  NotificationKind,
  NotificationRecord,
  NotificationState,
  NotifyLeadEvent,
} from './notifications/notification-store.ts';
import type { LeadPageResult, LeadRecord } from './inbox/inbox-store.ts';

type Row = Readonly<Record<string, unknown>>;

const optionalNumber = (value: unknown): number | undefined => (value === null || value === undefined ? undefined : Number(value));
const optionalString = (value: unknown): string | undefined => (value === null || value === undefined ? undefined : String(value));

/** The lead columns both stores select (leads as l, deliveries as d), in the names toLeadRecord reads. */
export const LEAD_COLUMNS = `
  l.id, l.received_at, l.source, l.email, l.payload, l.spam_reason, l.name, l.company, l.utm_campaign, l.utm_source,
  d.state, d.attempts, d.next_attempt_at, d.last_status, d.last_error, d.updated_at`;

export function toLeadRecord(row: Row): LeadRecord {
  return {
    id: String(row.id),
    receivedAt: Number(row.received_at),
    source: String(row.source),
    email: String(row.email),
    payload: JSON.parse(String(row.payload)) as Record<string, unknown>,
    spamReason: optionalString(row.spam_reason),
    state: row.state as DeliveryState,
    attempts: Number(row.attempts),
    nextAttemptAt: optionalNumber(row.next_attempt_at),
    lastStatus: optionalNumber(row.last_status),
    lastError: optionalString(row.last_error),
    updatedAt: Number(row.updated_at),
    name: optionalString(row.name),
    company: optionalString(row.company),
    campaign: optionalString(row.utm_campaign),
    utmSource: optionalString(row.utm_source),
  };
}

/** A page from rows fetched with one row more than `limit`: that extra row only says another page follows. */
export function toLeadPage(rows: readonly Row[], limit: number): LeadPageResult {
  const leads = rows.slice(0, limit).map(toLeadRecord);
  const last = leads.at(-1);
  return { leads, next: rows.length > limit && last !== undefined ? { receivedAt: last.receivedAt, id: last.id } : undefined };
}

export function toAuditRecord(row: Row): AuditRecord {
  return { id: Number(row.id), at: Number(row.at), actor: String(row.actor), action: String(row.action), detail: String(row.detail) };
}

/** An audit page from rows fetched with one row more than `limit`. */
export function toAuditPage(rows: readonly Row[], limit: number): AuditPageResult {
  const entries = rows.slice(0, limit).map(toAuditRecord);
  const last = entries.at(-1);
  return { entries, next: rows.length > limit && last !== undefined ? { at: last.at, id: last.id } : undefined };
}

export function toAttemptRecord(row: Row): AttemptRecord {
  return {
    leadId: String(row.lead_id),
    attemptedAt: Number(row.attempted_at),
    durationMs: Number(row.duration_ms),
    status: optionalNumber(row.status),
    responseBody: optionalString(row.response_body),
    error: optionalString(row.error),
    outcome: row.outcome as DeliveryState,
  };
}

// Notifications

/** The notification columns both stores select, in the names the mappings below read. */
export const NOTIFICATION_COLUMNS =
  'id, event_key, channel, kind, lead_id, event_at, detail, state, attempts, last_error, created_at, updated_at';

export function toClaimedNotification(row: Row): ClaimedNotification {
  return {
    id: Number(row.id),
    key: String(row.event_key),
    channel: row.channel as NotificationChannel,
    kind: row.kind as NotificationKind,
    leadId: optionalString(row.lead_id),
    eventAt: Number(row.event_at),
    detail: JSON.parse(String(row.detail)) as NotificationDetail,
    createdAt: Number(row.created_at),
    attempts: Number(row.attempts),
  };
}

export function toNotificationRecord(row: Row): NotificationRecord {
  return {
    ...toClaimedNotification(row),
    state: row.state as NotificationState,
    lastError: optionalString(row.last_error),
    updatedAt: Number(row.updated_at),
  };
}

/** A lead event row: lead_id, source, state and the event's time as `at`. */
export function toNotifyLeadEvent(row: Row): NotifyLeadEvent {
  return { leadId: String(row.lead_id), source: String(row.source), state: row.state as DeliveryState, at: Number(row.at) };
}

export function toIncidentRecord(row: Row): IncidentRecord {
  return {
    since: Number(row.since),
    lastError: optionalString(row.last_error),
    openedAt: Number(row.opened_at),
    closedAt: optionalNumber(row.closed_at),
  };
}
