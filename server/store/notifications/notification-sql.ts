import { sharedSql } from '../../../back-office/database/shared-sql.ts';
import type { NewNotification } from './notification-store.ts';

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
