import type { ClaimOptions } from '../outbox/outbox-store.ts';
import type {
  ClaimedNotification,
  DeliveryHealth,
  NewIncident,
  NewNotification,
  NotificationResult,
  NotifyEvents,
  ReadNotifyEventsOptions,
} from './notification-store.ts';
import { FAILURE_OUTCOMES, SUCCESS_OUTCOMES, combineDeliveryHealth } from './notification-store.ts';
import { NOTIFICATION_COLUMNS, toClaimedNotification, toIncidentRecord, toNotificationRecord, toNotifyLeadEvent } from '../row-mapping.ts';
import type { SqliteStoreContext } from '../../../back-office/database/sqlite-database.ts';
import type { NotificationStore } from './notification-store.ts';
import { optionalTime } from '../../../back-office/database/sqlite-database.ts';
import {
  ANY_TIME,
  INSERT_NOTIFICATION_SQL,
  SELECT_WEEKLY_SUMMARY_RECIPIENTS,
  UPSERT_WEEKLY_SUMMARY_CHOICE,
  inKeyOrder,
  notificationValues,
  toWeeklySummaryRecipient,
} from './notification-sql.ts';
import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import type { WeeklySummaryChoiceResult } from './notification-store.ts';

// The notifier's tables in SQLite: its outbox, its watermark, the open incident, the per-form switches.

export function sqliteNotifications(c: SqliteStoreContext): NotificationStore {
  const { all, get, run, transaction, ifOpen, writeAudit } = c;
  const WATERMARK = 'watermark';

  function insertNotifications(notifications: readonly NewNotification[]): number {
    let stored = 0;
    for (const notification of inKeyOrder(notifications))
      stored += run(INSERT_NOTIFICATION_SQL.sqlite, ...notificationValues(notification));
    return stored;
  }

  function enqueueNotifications(notifications: readonly NewNotification[], watermark?: number): number {
    return transaction(() => {
      const stored = insertNotifications(notifications);
      if (watermark !== undefined) {
        run(
          `INSERT INTO notify_state (name, value) VALUES (?, ?)
           ON CONFLICT (name) DO UPDATE SET value = MAX(value, excluded.value)`,
          WATERMARK,
          watermark,
        );
      }
      return stored;
    }, 'bookkeeping');
  }

  function readNotifyEvents({ since, limit, newLeads }: ReadNotifyEventsOptions): NotifyEvents {
    const fresh = newLeads
      ? all(
          `SELECT l.id AS lead_id, l.source, d.state, l.received_at AS at FROM leads l JOIN deliveries d ON d.lead_id = l.id
           WHERE l.received_at >= ? AND l.spam_reason IS NULL AND d.state <> 'spam'
             AND l.source NOT IN (SELECT form FROM notify_forms WHERE new_lead_email = 0)
             AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.lead_id = l.id AND n.kind = 'new-lead')
           ORDER BY l.received_at, l.id LIMIT ?`,
          since,
          limit,
        )
      : [];
    const settled = all(
      `SELECT d.lead_id, l.source, d.state, d.updated_at AS at FROM deliveries d JOIN leads l ON l.id = d.lead_id
       WHERE d.state IN ('failed', 'delivered-test') AND d.updated_at >= ?
         AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.lead_id = d.lead_id AND n.event_at = d.updated_at
           AND n.kind = CASE d.state WHEN 'failed' THEN 'lead-failed' ELSE 'lead-test' END)
       ORDER BY d.updated_at, d.lead_id LIMIT ?`,
      since,
      limit,
    );
    return { newLeads: fresh.map(toNotifyLeadEvent), settledLeads: settled.map(toNotifyLeadEvent), health: readDeliveryHealth() };
  }

  // One outcome at a time, so each MAX and MIN is a single step through the (outcome, attempted_at) index.
  function readDeliveryHealth(): DeliveryHealth {
    const successTimes = SUCCESS_OUTCOMES.map((outcome) =>
      optionalTime(get('SELECT MAX(attempted_at) AS at FROM delivery_attempts WHERE outcome = ?', outcome)?.at),
    );
    const after = Math.max(-1, ...successTimes.filter((time) => time !== undefined));
    return combineDeliveryHealth({
      successTimes,
      firstFailureTimes: FAILURE_OUTCOMES.map((outcome) =>
        optionalTime(
          get('SELECT MIN(attempted_at) AS at FROM delivery_attempts WHERE outcome = ? AND attempted_at > ?', outcome, after)?.at,
        ),
      ),
      lastFailures: FAILURE_OUTCOMES.map((outcome) => {
        const row = get(
          'SELECT attempted_at, status, error FROM delivery_attempts WHERE outcome = ? ORDER BY attempted_at DESC LIMIT 1',
          outcome,
        );
        return row === undefined
          ? undefined
          : { at: Number(row.attempted_at), status: optionalTime(row.status), error: row.error === null ? undefined : String(row.error) };
      }),
    });
  }

  function startIncident(incident: NewIncident, notifications: readonly NewNotification[]): boolean {
    return transaction(() => {
      const opened = run(
        `INSERT INTO notify_incidents (since, last_error, opened_at, open_slot) VALUES (?, ?, ?, 1) ON CONFLICT DO NOTHING`,
        incident.since,
        incident.lastError ?? null,
        incident.openedAt,
      );
      if (opened === 0) return false;
      insertNotifications(notifications);
      return true;
    });
  }

  function endIncident(since: number, closedAt: number, notifications: readonly NewNotification[]): boolean {
    return transaction(() => {
      const closed = run('UPDATE notify_incidents SET closed_at = ?, open_slot = NULL WHERE since = ? AND open_slot = 1', closedAt, since);
      if (closed === 0) return false;
      insertNotifications(notifications);
      return true;
    });
  }

  function claimNotifications({ now, limit, owner, leaseMs }: ClaimOptions): ClaimedNotification[] {
    return transaction(() => {
      const rows = all(
        `SELECT ${NOTIFICATION_COLUMNS} FROM notifications
         WHERE state = 'pending' AND next_attempt_at <= ? AND (lease_until IS NULL OR lease_until <= ?)
         ORDER BY next_attempt_at, id LIMIT ?`,
        now,
        now,
        limit,
      );
      for (const row of rows)
        run('UPDATE notifications SET lease_owner = ?, lease_until = ? WHERE id = ?', owner, now + leaseMs, Number(row.id));
      return rows.map(toClaimedNotification);
    }, 'bookkeeping');
  }

  function recordNotificationResults(results: readonly NotificationResult[]): void {
    if (results.length === 0) return;
    transaction(() => {
      for (const result of results) {
        run(
          `UPDATE notifications SET state = ?, attempts = attempts + 1, next_attempt_at = ?, lease_owner = NULL, lease_until = NULL,
             last_error = ?, updated_at = ? WHERE id = ? AND lease_owner = ?`,
          result.nextState,
          result.nextAttemptAt ?? null,
          result.error ?? null,
          result.at,
          result.id,
          result.owner,
        );
      }
    }, 'bookkeeping');
  }

  const notifyWatermark = () => optionalTime(get('SELECT value FROM notify_state WHERE name = ?', WATERMARK)?.value);
  const findOpenIncident = () => {
    const row = get('SELECT since, last_error, opened_at, closed_at FROM notify_incidents WHERE open_slot = 1');
    return row === undefined ? undefined : toIncidentRecord(row);
  };
  const listNotifications = () => all(`SELECT ${NOTIFICATION_COLUMNS} FROM notifications ORDER BY id`).map(toNotificationRecord);
  const listNotifyForms = () =>
    all('SELECT form, new_lead_email FROM notify_forms ORDER BY form').map((row) => ({
      form: String(row.form),
      newLeadEmail: Number(row.new_lead_email) === 1,
    }));
  const setNotifyForm = (form: string, newLeadEmail: boolean, now: number) => {
    transaction(() =>
      run(
        `INSERT INTO notify_forms (form, new_lead_email, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (form) DO UPDATE SET new_lead_email = excluded.new_lead_email, updated_at = excluded.updated_at`,
        form,
        newLeadEmail ? 1 : 0,
        now,
      ),
    );
  };
  const weeklySummaryChoice = (accountId: string) =>
    Number(get('SELECT enabled FROM weekly_summary_choices WHERE account_id = ?', accountId)?.enabled ?? 0) === 1;
  function setWeeklySummaryChoice(
    accountId: string,
    enabled: boolean,
    now: number,
    audit: AuditEntryInput | undefined,
  ): WeeklySummaryChoiceResult {
    return transaction(() => {
      if (get('SELECT id FROM accounts WHERE id = ?', accountId) === undefined) return 'no-account';
      if (weeklySummaryChoice(accountId) === enabled) return 'unchanged';
      run(UPSERT_WEEKLY_SUMMARY_CHOICE.sqlite, accountId, enabled ? 1 : 0, now);
      writeAudit(audit, now);
      return 'changed';
    });
  }
  const listWeeklySummaryRecipients = (chosenBefore: number = ANY_TIME) =>
    all(SELECT_WEEKLY_SUMMARY_RECIPIENTS.sqlite, 1, chosenBefore).map(toWeeklySummaryRecipient);

  return {
    weeklySummaryChoice: ifOpen(weeklySummaryChoice),
    setWeeklySummaryChoice: ifOpen(setWeeklySummaryChoice),
    listWeeklySummaryRecipients: ifOpen(listWeeklySummaryRecipients),
    notifyWatermark: ifOpen(notifyWatermark),
    readNotifyEvents: ifOpen(readNotifyEvents),
    enqueueNotifications: ifOpen(enqueueNotifications),
    startIncident: ifOpen(startIncident),
    endIncident: ifOpen(endIncident),
    findOpenIncident: ifOpen(findOpenIncident),
    claimNotifications: ifOpen(claimNotifications),
    recordNotificationResults: ifOpen(recordNotificationResults),
    listNotifications: ifOpen(listNotifications),
    listNotifyForms: ifOpen(listNotifyForms),
    setNotifyForm: ifOpen(setNotifyForm),
  };
}
