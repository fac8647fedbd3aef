import { sharedSql } from '../../../back-office/database/shared-sql.ts';
import type { Role } from '../../../back-office/roles.ts';
import type { NewNotification, WeeklySummaryRecipient } from './notification-store.ts';

// The one insert of a notification, shared by every store that queues one inside its own transaction
// (the notifier's events and incidents, the sales queue's escalation notices). Its key is unique, so
// storing the same event twice (a rescan, a second process, a repeated escalation) stores it once.

export const INSERT_NOTIFICATION_SQL = sharedSql(
  `INSERT INTO notifications (event_key, channel, kind, lead_id, event_at, detail, state, attempts, next_attempt_at, created_at, updated_at)
   VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?) ON CONFLICT (event_key) DO NOTHING`,
);

/** The insert's values: due at once, stored at `createdAt`. */
export function notificationValues(notification: NewNotification): (string | number | null)[] {
  return [
    notification.key,
    notification.channel,
    notification.kind,
    notification.leadId ?? null,
    notification.eventAt,
    JSON.stringify(notification.detail),
    notification.createdAt,
    notification.createdAt,
    notification.createdAt,
  ];
}

/** In key order, so two processes storing the same events lock their rows in the same order (no deadlock). */
export function inKeyOrder(notifications: readonly NewNotification[]): NewNotification[] {
  return [...notifications].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/**
 * The accounts that switched the weekly summary on, up to a moment, with their address and role. The
 * first parameter is the engine's "on" (1 in SQLite, true in PostgreSQL).
 */
export const SELECT_WEEKLY_SUMMARY_RECIPIENTS = sharedSql(
  `SELECT a.id, a.email, a.role, w.updated_at FROM weekly_summary_choices w JOIN accounts a ON a.id = w.account_id
   WHERE w.enabled = ? AND w.updated_at <= ? ORDER BY a.email`,
);

/** Stores one account's choice, replacing the one it had. The second parameter is the engine's on or off. */
export const UPSERT_WEEKLY_SUMMARY_CHOICE = sharedSql(
  `INSERT INTO weekly_summary_choices (account_id, enabled, updated_at) VALUES (?, ?, ?)
   ON CONFLICT (account_id) DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at`,
);

/** No moment is later: every choice ever made. */
export const ANY_TIME = Number.MAX_SAFE_INTEGER;

export function toWeeklySummaryRecipient(row: Record<string, unknown>): WeeklySummaryRecipient {
  return { accountId: String(row.id), email: String(row.email), role: row.role as Role, chosenAt: Number(row.updated_at) };
}
