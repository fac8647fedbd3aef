import pg from 'pg';
import { ERASE_BOOKINGS, PURGE_ORPHANED_BOOKINGS, PURGE_UNMATCHED_BOOKINGS } from '../bookings/booking-sql.ts';
import type { PoolClient } from 'pg';
import type { AuditEntryInput } from '../../../back-office/database/audit-entry.ts';
import { buildLeadPageQuery } from '../lead-page-query.ts';
import type { DeliveryState } from '../outbox/outbox-store.ts';
import type { LeadExport, LeadHealthRecord, ListOptions, RetriedLead, StateCounts } from './inbox-store.ts';
import { assertPageLimit } from '../../../back-office/database/page-limit.ts';
import {
  DAY_MS,
  PURGEABLE_STATES,
  PURGE_BATCH_SIZE,
  RETRYABLE_STATES,
  SEND_AGAIN_STATES,
  SPAM_MARKABLE_STATES,
  healthDays,
  summarizeWeek,
  keysetExport,
} from './inbox-store.ts';
import { leadColumnsOf } from '../outbox/outbox-store.ts';
import { LEAD_COLUMNS, toAttemptRecord, toLeadPage, toLeadRecord } from '../row-mapping.ts';
import type { PostgresStoreContext } from '../../../back-office/database/postgres-database.ts';
import type { InboxStore } from './inbox-store.ts';
import {
  COUNT_BY_STATE,
  COUNT_DELIVERED_BETWEEN,
  COUNT_FAILED,
  COUNT_LEADS_BY_EMAIL,
  COUNT_PENDING,
  COUNT_RETRYING,
  COUNT_SPAM_RECEIVED,
  SELECT_ATTEMPTS,
  SELECT_LEAD,
  SELECT_OLDEST_UNDELIVERED,
} from './inbox-sql.ts';

// The inbox in PostgreSQL: pages, downloads (on connections of their own), health, retries, spam
// marks, erasure and the retention purge.

const toRetried = (row: { lead_id: string; state: DeliveryState; attempts: number | string }): RetriedLead => ({
  id: row.lead_id,
  from: row.state,
  attempts: Number(row.attempts),
});

export function postgresInbox(c: PostgresStoreContext): InboxStore {
  const { pool, url, connectTimeoutMs, query, transaction, writeAudit, isClosed } = c;
  // Downloads' own connections, ended with the store.
  const openExports = new Set<LeadExport>();
  c.onClose(async () => {
    await Promise.all([...openExports].map((opened) => opened.close()));
  });
  return {
    openLeadExport: async (leadQuery) => {
      if (isClosed()) throw new Error('The lead store is closed');
      // A connection of its own, outside the pool the leads are taken through, holding one
      // REPEATABLE READ transaction: every page reads the snapshot its first statement took.
      const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: connectTimeoutMs });
      client.on('error', () => {});
      await client.connect();
      try {
        await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
        await client.query('SELECT 1 FROM leads LIMIT 1');
      } catch (error) {
        await client.end().catch(() => {});
        throw error;
      }
      const opened = keysetExport(
        async (after, limit) => {
          const { sql, params } = buildLeadPageQuery('postgres', leadQuery, after, limit);
          return toLeadPage((await client.query(sql, params)).rows, limit);
        },
        async () => {
          openExports.delete(opened);
          await client.query('COMMIT').catch(() => {});
          await client.end().catch(() => {});
        },
      );
      openExports.add(opened);
      return opened;
    },

    // The subquery reads each row's state and attempts before the update, locked, so the answer says
    // what each lead was when it was moved.
    retry: async (target, now, audit) => {
      const moveDue = async (run: typeof query) =>
        run<{ lead_id: string; state: DeliveryState; attempts: number | string }>(
          `UPDATE deliveries d SET state = 'pending', attempts = 0, next_attempt_at = $1, lease_owner = NULL,
           lease_until = NULL, updated_at = $1
         FROM (SELECT lead_id, state, attempts FROM deliveries
               WHERE ${'id' in target ? `lead_id = $2 AND state = ANY($3::text[]) AND (lease_until IS NULL OR lease_until <= $1)` : `state = 'failed'`}
               FOR UPDATE) before
         WHERE d.lead_id = before.lead_id
         RETURNING d.lead_id, before.state, before.attempts`,
          'id' in target ? [now, target.id, RETRYABLE_STATES] : [now],
        );
      const rows =
        audit === undefined
          ? await moveDue(query)
          : await transaction(async (client) => {
              const moved = await moveDue(async (sql, params) => (await client.query(sql, params)).rows);
              await writeAudit(client, audit, now, moved.map(toRetried));
              return moved;
            });
      return rows.map(toRetried);
    },

    sendAgain: async (id, now, audit) => {
      const sql = `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = $1, lease_owner = NULL,
             lease_until = NULL, updated_at = $1
           WHERE lead_id = $2 AND state = ANY($3::text[]) AND (lease_until IS NULL OR lease_until <= $1)`;
      if (audit === undefined) return ((await pool.query(sql, [now, id, SEND_AGAIN_STATES])).rowCount ?? 0) > 0;
      return transaction(async (client) => {
        const moved = ((await client.query(sql, [now, id, SEND_AGAIN_STATES])).rowCount ?? 0) > 0;
        if (moved) await writeAudit(client, audit, now);
        return moved;
      });
    },

    eraseByEmail: (email: string, audit?: AuditEntryInput<'erased-count'>) =>
      transaction(async (client) => {
        const address = email.trim().toLowerCase();
        // The person's meetings first, while their leads still say which are theirs.
        await client.query(ERASE_BOOKINGS.postgres, [Date.now(), address, address]);
        const { rows } = await client.query<{ id: string }>('DELETE FROM leads WHERE email = $1 RETURNING id', [address]);
        // deliveries and delivery_attempts go with their lead (ON DELETE CASCADE).
        const ids = rows.map((row) => row.id);
        await writeAudit(client, audit, Date.now(), ids);
        return ids;
      }),

    listLeads: async ({ state, limit }: ListOptions = {}) => {
      const rows = await query(
        `SELECT ${LEAD_COLUMNS} FROM leads l JOIN deliveries d ON d.lead_id = l.id
         WHERE ($1::text IS NULL OR d.state = $1) ORDER BY l.received_at, l.id LIMIT $2`,
        [state ?? null, limit ?? null],
      );
      return rows.map(toLeadRecord);
    },

    getLead: async (id: string) => {
      const [row] = await query(SELECT_LEAD.postgres, [id]);
      return row === undefined ? undefined : toLeadRecord(row);
    },

    listAttempts: async (leadId: string) => (await query(SELECT_ATTEMPTS.postgres, [leadId])).map(toAttemptRecord),

    countByState: async () => {
      const counts: Partial<Record<DeliveryState, number>> = {};
      for (const row of await query(COUNT_BY_STATE.postgres)) {
        counts[row.state as DeliveryState] = Number(row.count);
      }
      return counts as StateCounts;
    },

    countSpam: async (receivedFrom, receivedBefore) => {
      const [row] = await query(COUNT_SPAM_RECEIVED.postgres, [receivedFrom, receivedBefore]);
      return Number(row?.count ?? 0);
    },

    listLeadPage: async (leadQuery, after, limit) => {
      assertPageLimit(limit);
      const { sql, params } = buildLeadPageQuery('postgres', leadQuery, after, limit);
      return toLeadPage(await query(sql, params), limit);
    },

    markSpam: (id, reason, now, audit) =>
      transaction(async (client) => {
        const { rowCount } = await client.query(
          `UPDATE deliveries SET state = 'spam', next_attempt_at = NULL, lease_owner = NULL, lease_until = NULL, updated_at = $1
           WHERE lead_id = $2 AND state = ANY($3::text[]) AND (lease_until IS NULL OR lease_until <= $1)`,
          [now, id, SPAM_MARKABLE_STATES],
        );
        if (rowCount === 0) return false;
        await client.query('UPDATE leads SET spam_reason = $1 WHERE id = $2', [reason, id]);
        await writeAudit(client, audit, now);
        return true;
      }),

    markNotSpam: (id, now, rebuilt, audit) =>
      transaction(async (client) => {
        const { rowCount } = await client.query(
          `UPDATE deliveries SET state = 'pending', attempts = 0, next_attempt_at = $1, lease_owner = NULL, lease_until = NULL,
             updated_at = $1 WHERE lead_id = $2 AND state = 'spam'`,
          [now, id],
        );
        if (rowCount === 0) return false;
        const columns = leadColumnsOf(rebuilt.payload);
        await client.query(
          `UPDATE leads SET spam_reason = NULL, source = $2, email = $3, payload = $4, name = $5, company = $6, utm_campaign = $7,
             utm_source = $8 WHERE id = $1`,
          [
            id,
            rebuilt.source,
            rebuilt.email.toLowerCase(),
            JSON.stringify(rebuilt.payload),
            columns.name,
            columns.company,
            columns.utmCampaign,
            columns.utmSource,
          ],
        );
        await writeAudit(client, audit, now);
        return true;
      }),

    countLeadsByEmail: async (email) => {
      const [row] = await query(COUNT_LEADS_BY_EMAIL.postgres, [email.trim().toLowerCase()]);
      return Number(row?.count ?? 0);
    },

    leadHealth: async (now): Promise<LeadHealthRecord> => {
      const { weekStart, end } = healthDays(now);
      const count = async (sql: string, params: unknown[] = []): Promise<number> => Number((await query(sql, params))[0]?.count ?? 0);
      const [week, deliveredLast24h, failed, retrying, spamWeek, oldest, lastDelivered, lastFailed, pending] = await Promise.all([
        query(
          `SELECT l.source, (l.received_at - $1) / $2 AS day_index, COUNT(*) AS leads
           FROM leads l JOIN deliveries d ON d.lead_id = l.id
           WHERE l.received_at >= $1 AND l.received_at < $3 AND d.state <> 'spam'
           GROUP BY l.source, day_index`,
          [weekStart, DAY_MS, end],
        ),
        count(COUNT_DELIVERED_BETWEEN.postgres, [now - DAY_MS, now]),
        count(COUNT_FAILED.postgres),
        count(COUNT_RETRYING.postgres),
        count(COUNT_SPAM_RECEIVED.postgres, [weekStart, end]),
        query(SELECT_OLDEST_UNDELIVERED.postgres),
        query(
          `SELECT GREATEST(
             (SELECT MAX(attempted_at) FROM delivery_attempts WHERE outcome = 'delivered'),
             (SELECT MAX(attempted_at) FROM delivery_attempts WHERE outcome = 'delivered-test')) AS latest`,
        ),
        query(
          `SELECT GREATEST(
             (SELECT MAX(attempted_at) FROM delivery_attempts WHERE outcome = 'pending'),
             (SELECT MAX(attempted_at) FROM delivery_attempts WHERE outcome = 'failed')) AS latest`,
        ),
        count(COUNT_PENDING.postgres),
      ]);
      const latest = lastDelivered[0]?.latest;
      const latestFailure = lastFailed[0]?.latest;
      return {
        ...summarizeWeek(
          weekStart,
          week.map((row) => ({ source: String(row.source), dayIndex: Number(row.day_index), leads: Number(row.leads) })),
        ),
        deliveredLast24h,
        failed,
        retrying,
        spamWeek,
        oldestUndelivered:
          oldest[0] === undefined ? undefined : { id: String(oldest[0].lead_id), receivedAt: Number(oldest[0].received_at) },
        lastDeliveredAt: latest === null || latest === undefined ? undefined : Number(latest),
        lastFailedAt: latestFailure === null || latestFailure === undefined ? undefined : Number(latestFailure),
        pending,
      };
    },

    // The audit entry goes with the purge's last batch (of the last cutoff given), in its transaction.
    purgeExpired: async ({ leadsReceivedBefore, spamReceivedBefore }, audit) => {
      // Each batch is one statement of its own; a lead being retried or claimed meanwhile is locked
      // and skipped, and its new state keeps it for the next run to judge.
      // `last` writes the entry in the last batch's transaction, given the cutoff's total with that batch.
      const purge = async (
        states: readonly DeliveryState[],
        before: number | undefined,
        last?: (client: PoolClient, count: number) => Promise<void>,
      ): Promise<number> => {
        if (before === undefined) return 0;
        let total = 0;
        for (;;) {
          // Deliveries and attempts go with their lead (ON DELETE CASCADE).
          const sql = `DELETE FROM leads WHERE id IN (
                 SELECT lead_id FROM deliveries WHERE state = ANY($1::text[]) AND received_at < $2 AND lease_until IS NULL
                 LIMIT $3 FOR UPDATE SKIP LOCKED)
               RETURNING id`;
          const params = [states, before, PURGE_BATCH_SIZE];
          const deleted =
            last === undefined
              ? (await query(sql, params)).length
              : await transaction(async (client) => {
                  const count = (await client.query(sql, params)).rowCount ?? 0;
                  if (count < PURGE_BATCH_SIZE) await last(client, total + count);
                  return count;
                });
          total += deleted;
          if (deleted < PURGE_BATCH_SIZE) return total;
        }
      };
      const write = (client: PoolClient, counts: { leads: number; spam: number }) => writeAudit(client, audit, Date.now(), counts);
      const leads = await purge(
        PURGEABLE_STATES,
        leadsReceivedBefore,
        spamReceivedBefore === undefined && audit !== undefined ? (client, count) => write(client, { leads: count, spam: 0 }) : undefined,
      );
      const spam = await purge(
        ['spam'],
        spamReceivedBefore,
        audit === undefined ? undefined : (client, count) => write(client, { leads, spam: count }),
      );
      // Every run, whatever it deleted: a meeting left by a lead erased or purged earlier goes too, and
      // one that matched no lead is kept no longer than a lead.
      await query(PURGE_ORPHANED_BOOKINGS.postgres);
      if (leadsReceivedBefore !== undefined) await query(PURGE_UNMATCHED_BOOKINGS.postgres, [leadsReceivedBefore]);
      if (leadsReceivedBefore === undefined && spamReceivedBefore === undefined && audit !== undefined) {
        await transaction((client) => write(client, { leads: 0, spam: 0 }));
      }
      return { leads, spam };
    },
  };
}
