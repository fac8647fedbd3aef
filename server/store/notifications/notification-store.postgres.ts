import type { PoolClient, QueryResultRow } from 'pg';
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
import type { PostgresStoreContext } from '../../../back-office/database/postgres-database.ts';
import type { NotificationStore } from './notification-store.ts';
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

// The notifier's tables in PostgreSQL: its outbox, its watermark, the open incident, the per-form switches.

export function postgresNotifications(c: PostgresStoreContext): NotificationStore {
  const { query, transaction, writeAudit } = c;
  const WATERMARK = 'watermark';

  async function insertNotifications(client: PoolClient, notifications: readonly NewNotification[]): Promise<number> {
    let stored = 0;
    for (const notification of inKeyOrder(notifications)) {
      const result = await client.query(INSERT_NOTIFICATION_SQL.postgres, notificationValues(notification));
      stored += result.rowCount ?? 0;
    }
    return stored;
  }

  // One outcome at a time, so each MAX and MIN is a single step through the (outcome, attempted_at) index.
  async function readDeliveryHealth(): Promise<DeliveryHealth> {
    const timeOf = (rows: QueryResultRow[]) => (rows[0]?.at === null || rows[0]?.at === undefined ? undefined : Number(rows[0].at));
    const successTimes = await Promise.all(
      SUCCESS_OUTCOMES.map(async (outcome) =>
        timeOf(await query('SELECT MAX(attempted_at) AS at FROM delivery_attempts WHERE outcome = $1', [outcome])),
      ),
    );
    const after = Math.max(-1, ...successTimes.filter((time) => time !== undefined));
    const firstFailureTimes = await Promise.all(
      FAILURE_OUTCOMES.map(async (outcome) =>
        timeOf(
          await query('SELECT MIN(attempted_at) AS at FROM delivery_attempts WHERE outcome = $1 AND attempted_at > $2', [outcome, after]),
        ),
      ),
    );
    const lastFailures = await Promise.all(
      FAILURE_OUTCOMES.map(async (outcome) => {
        const [row] = await query(
          'SELECT attempted_at, status, error FROM delivery_attempts WHERE outcome = $1 ORDER BY attempted_at DESC LIMIT 1',
          [outcome],
        );
        return row === undefined
          ? undefined
          : { at: Number(row.attempted_at), status: row.status === null ? undefined : Number(row.status), error: row.error ?? undefined };
      }),
    );
    return combineDeliveryHealth({ successTimes, firstFailureTimes, lastFailures });
  }

  return {
    weeklySummaryChoice: async (accountId: string) => {
      const [row] = await query('SELECT enabled FROM weekly_summary_choices WHERE account_id = $1', [accountId]);
      return row?.enabled === true;
    },

    // The account's row is locked first, so a removal or another change of the same account waits.
    setWeeklySummaryChoice: (accountId: string, enabled: boolean, now: number, audit?: AuditEntryInput) =>
      transaction<WeeklySummaryChoiceResult>(async (client) => {
        const account = await client.query('SELECT id FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
        if (account.rowCount === 0) return 'no-account';
        const { rows } = await client.query('SELECT enabled FROM weekly_summary_choices WHERE account_id = $1', [accountId]);
        if ((rows[0]?.enabled === true) === enabled) return 'unchanged';
        await client.query(UPSERT_WEEKLY_SUMMARY_CHOICE.postgres, [accountId, enabled, now]);
        await writeAudit(client, audit, now);
        return 'changed';
      }),

    listWeeklySummaryRecipients: async (chosenBefore: number = ANY_TIME) =>
      (await query(SELECT_WEEKLY_SUMMARY_RECIPIENTS.postgres, [true, chosenBefore])).map(toWeeklySummaryRecipient),

    notifyWatermark: async () => {
      const [row] = await query('SELECT value FROM notify_state WHERE name = $1', [WATERMARK]);
      return row === undefined ? undefined : Number(row.value);
    },

    readNotifyEvents: async ({ since, limit, newLeads }: ReadNotifyEventsOptions): Promise<NotifyEvents> => {
      const fresh = newLeads
        ? await query(
            `SELECT l.id AS lead_id, l.source, d.state, l.received_at AS at FROM leads l JOIN deliveries d ON d.lead_id = l.id
             WHERE l.received_at >= $1 AND l.spam_reason IS NULL AND d.state <> 'spam'
               AND l.source NOT IN (SELECT form FROM notify_forms WHERE NOT new_lead_email)
               AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.lead_id = l.id AND n.kind = 'new-lead')
             ORDER BY l.received_at, l.id LIMIT $2`,
            [since, limit],
          )
        : [];
      const settled = await query(
        `SELECT d.lead_id, l.source, d.state, d.updated_at AS at FROM deliveries d JOIN leads l ON l.id = d.lead_id
         WHERE d.state IN ('failed', 'delivered-test') AND d.updated_at >= $1
           AND NOT EXISTS (SELECT 1 FROM notifications n WHERE n.lead_id = d.lead_id AND n.event_at = d.updated_at
             AND n.kind = CASE d.state WHEN 'failed' THEN 'lead-failed' ELSE 'lead-test' END)
         ORDER BY d.updated_at, d.lead_id LIMIT $2`,
        [since, limit],
      );
      return { newLeads: fresh.map(toNotifyLeadEvent), settledLeads: settled.map(toNotifyLeadEvent), health: await readDeliveryHealth() };
    },

    enqueueNotifications: (notifications: readonly NewNotification[], watermark?: number) =>
      transaction(async (client) => {
        const stored = await insertNotifications(client, notifications);
        if (watermark !== undefined) {
          await client.query(
            `INSERT INTO notify_state (name, value) VALUES ($1, $2)
             ON CONFLICT (name) DO UPDATE SET value = GREATEST(notify_state.value, excluded.value)`,
            [WATERMARK, watermark],
          );
        }
        return stored;
      }),

    startIncident: (incident: NewIncident, notifications: readonly NewNotification[]) =>
      transaction(async (client) => {
        const opened = await client.query(
          'INSERT INTO notify_incidents (since, last_error, opened_at, open_slot) VALUES ($1, $2, $3, 1) ON CONFLICT DO NOTHING',
          [incident.since, incident.lastError ?? null, incident.openedAt],
        );
        if (opened.rowCount === 0) return false;
        await insertNotifications(client, notifications);
        return true;
      }),

    endIncident: (since: number, closedAt: number, notifications: readonly NewNotification[]) =>
      transaction(async (client) => {
        const closed = await client.query(
          'UPDATE notify_incidents SET closed_at = $1, open_slot = NULL WHERE since = $2 AND open_slot = 1',
          [closedAt, since],
        );
        if (closed.rowCount === 0) return false;
        await insertNotifications(client, notifications);
        return true;
      }),

    findOpenIncident: async () => {
      const [row] = await query('SELECT since, last_error, opened_at, closed_at FROM notify_incidents WHERE open_slot = 1');
      return row === undefined ? undefined : toIncidentRecord(row);
    },

    claimNotifications: ({ now, limit, owner, leaseMs }: ClaimOptions) =>
      transaction<ClaimedNotification[]>(async (client) => {
        const { rows } = await client.query(
          `WITH due AS (
             SELECT id FROM notifications
             WHERE state = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
             ORDER BY next_attempt_at, id LIMIT $2
             FOR UPDATE SKIP LOCKED
           )
           UPDATE notifications n SET lease_owner = $3, lease_until = $4 FROM due WHERE n.id = due.id
           RETURNING ${NOTIFICATION_COLUMNS.split(', ')
             .map((column) => `n.${column}`)
             .join(', ')}, n.next_attempt_at`,
          [now, limit, owner, now + leaseMs],
        );
        return rows
          .sort((a, b) => Number(a.next_attempt_at) - Number(b.next_attempt_at) || Number(a.id) - Number(b.id))
          .map(toClaimedNotification);
      }),

    recordNotificationResults: async (results: readonly NotificationResult[]) => {
      if (results.length === 0) return;
      await transaction(async (client) => {
        for (const result of results) {
          await client.query(
            `UPDATE notifications SET state = $1, attempts = attempts + 1, next_attempt_at = $2, lease_owner = NULL, lease_until = NULL,
               last_error = $3, updated_at = $4 WHERE id = $5 AND lease_owner = $6`,
            [result.nextState, result.nextAttemptAt ?? null, result.error ?? null, result.at, result.id, result.owner],
          );
        }
      });
    },

    listNotifications: async () => (await query(`SELECT ${NOTIFICATION_COLUMNS} FROM notifications ORDER BY id`)).map(toNotificationRecord),

    listNotifyForms: async () =>
      (await query('SELECT form, new_lead_email FROM notify_forms ORDER BY form')).map((row) => ({
        form: String(row.form),
        newLeadEmail: Boolean(row.new_lead_email),
      })),

    setNotifyForm: async (form: string, newLeadEmail: boolean, now: number) => {
      await query(
        `INSERT INTO notify_forms (form, new_lead_email, updated_at) VALUES ($1, $2, $3)
         ON CONFLICT (form) DO UPDATE SET new_lead_email = excluded.new_lead_email, updated_at = excluded.updated_at`,
        [form, newLeadEmail, now],
      );
    },
  };
}
